import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { checksumMismatch, sha256Of } from "./checksum.ts";

/**
 * Where document bytes live: local disk (`localDiskStorage`) or S3-compatible object storage
 * (`s3Storage`). Keys are made by the storage, never from client input. A written object is
 * not readable until `commit` has checked it; `abort` leaves nothing behind.
 */
export type DocumentStorage = {
  readonly kind: string;
  create(): Promise<ObjectWriter>;
  /** The object's bytes, or null when it is gone. */
  read(key: string): Promise<Blob | null>;
  /** Removes an object; removing one that is gone is not an error. */
  remove(key: string): Promise<void>;
};

export type ObjectWriter = {
  readonly key: string;
  write(chunk: Uint8Array): Promise<void>;
  /**
   * Finishes the object. Given `sha256` (uploads always give the one computed as the bytes
   * arrived), the stored bytes are read back and must hash to it, else nothing is kept and it
   * throws (502 BAD_GATEWAY).
   */
  commit(sha256?: string): Promise<void>;
  abort(): Promise<void>;
};

export const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const INCOMING = ".incoming";

/**
 * Files on local disk: `<root>/<2 hex>/<uuid>`, written first to `<root>/.incoming/<uuid>.part`
 * (mode 0600) and renamed into place once complete and synced, so a reader never sees half a
 * file and a crash leaves only `.part` files, which `sweepIncoming` removes.
 */
export function localDiskStorage(root: string): DocumentStorage & {
  readonly root: string;
  sweepIncoming(olderThanMs: number, nowMs?: number): Promise<number>;
} {
  const pathOf = (key: string) => {
    // Keys come from the database, which only ever holds keys this storage made; the check
    // makes sure nothing else can become a path.
    if (!KEY.test(key)) throw new Error("invalid storage key");
    return join(root, key.slice(0, 2), key);
  };
  return {
    kind: "local",
    root,
    async create() {
      const key = crypto.randomUUID();
      await mkdir(join(root, INCOMING), { recursive: true, mode: 0o700 });
      const partPath = join(root, INCOMING, `${key}.part`);
      const handle = await open(partPath, "wx", 0o600);
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await handle.close();
      };
      return {
        key,
        async write(chunk) {
          let offset = 0;
          while (offset < chunk.byteLength) {
            const { bytesWritten } = await handle.write(chunk, offset);
            offset += bytesWritten;
          }
        },
        async commit(sha256) {
          await handle.datasync();
          await close();
          // Read back from disk, not from what was written: this is what downloads will serve.
          if (sha256 && (await sha256Of(Bun.file(partPath).stream())) !== sha256) {
            await rm(partPath, { force: true });
            throw checksumMismatch();
          }
          const target = pathOf(key);
          await mkdir(join(root, key.slice(0, 2)), { recursive: true, mode: 0o700 });
          await rename(partPath, target);
        },
        async abort() {
          await close().catch(() => {});
          await rm(partPath, { force: true });
        },
      };
    },
    async read(key) {
      const file = Bun.file(pathOf(key));
      return (await file.exists()) ? file : null;
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    /** Deletes `.part` files left by a crash mid-upload; returns how many. */
    async sweepIncoming(olderThanMs, nowMs = Date.now()) {
      const dir = join(root, INCOMING);
      const names = await readdir(dir).catch(() => [] as string[]);
      let removed = 0;
      for (const name of names) {
        const path = join(dir, name);
        const info = await stat(path).catch(() => null);
        if (info && nowMs - info.mtimeMs > olderThanMs) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
