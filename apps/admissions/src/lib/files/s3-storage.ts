import { HttpProblem } from "@platform/server";
import { checksumMismatch, sha256Of } from "./checksum.ts";
import { type DocumentStorage, KEY, type ObjectWriter } from "./storage.ts";

export type S3Settings = {
  bucket: string;
  /** Any S3-compatible service; AWS's regional endpoint when absent. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

/** Every replica writes under this prefix, so the bucket may hold other things too. */
const PREFIX = "documents/";
/** Bun's multipart part size: memory per upload stays near it whatever the file's size. */
const PART_BYTES = 5 * 1024 * 1024;
const codeOf = (error: unknown) =>
  error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "";

/** S3's answers about the request itself (credentials, bucket, key) and Bun's config errors. */
const MISCONFIGURED = /^(AccessDenied|SignatureDoesNotMatch|Invalid|NoSuch|ERR_S3_)/;

/**
 * Network failures (Bun reports ConnectionRefused, ConnectionClosed, timeouts… as S3Error codes)
 * and S3's "try later" answers (InternalError, SlowDown…) become 503, so a client knows to
 * retry. A misconfiguration stays an error, logged as a 500 for the operator to fix.
 */
function asUnavailable(error: unknown): unknown {
  const fromS3 = error instanceof Error && error.name === "S3Error";
  if (!fromS3 || MISCONFIGURED.test(codeOf(error))) return error;
  return new HttpProblem("SERVICE_UNAVAILABLE", {
    detail: "Document storage is unavailable; try again shortly",
    headers: { "retry-after": "5" },
  });
}

const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw asUnavailable(error);
  }
};

/**
 * Objects in an S3-compatible bucket, through Bun's built-in client, so every replica sees every
 * document. Uploads stream as the body of one `write`: small files go up in one PUT when the
 * stream ends, larger ones in 5 MiB multipart parts. A stream ended in error makes Bun send
 * AbortMultipartUpload (or no PUT at all), so nothing appears under the key. The object exists
 * once the stream closes; it stays unreadable in practice until `commit` has verified it,
 * because only the row written after `commit` tells anyone its random key.
 */
export function s3Storage(settings: S3Settings): DocumentStorage & { readonly bucket: string } {
  const client = new Bun.S3Client({
    ...settings,
    // Path-style (`endpoint/bucket/key`) works with every S3-compatible server; virtual-hosted
    // style needs DNS for `bucket.endpoint`, which local and self-hosted ones rarely have.
    virtualHostedStyle: false,
    // Bun retries failed parts itself; 0 would turn one dropped packet into a failed upload.
    retry: 3,
  });
  const objectOf = (key: string) => {
    if (!KEY.test(key)) throw new Error("invalid storage key");
    return client.file(`${PREFIX}${key}`);
  };
  const removeObject = (key: string) => guarded(() => objectOf(key).delete());
  return {
    kind: "s3",
    bucket: settings.bucket,
    async create(): Promise<ObjectWriter> {
      const key = crypto.randomUUID();
      const object = objectOf(key);
      let feed: ReadableStreamDefaultController<Uint8Array> | null = null;
      let wanted: (() => void) | null = null;
      const body = new ReadableStream<Uint8Array>(
        {
          start: (controller) => {
            feed = controller;
          },
          pull: () => {
            wanted?.();
            wanted = null;
          },
        },
        // One chunk queued: the client's stream waits for S3, not for our memory.
        { highWaterMark: 1 },
      );
      // Settles with the failure (or null) so an upload nobody awaits yet is never unhandled.
      const uploaded = object.write(new Response(body), { partSize: PART_BYTES }).then(
        () => null,
        (error: unknown) => error ?? new Error("S3 upload failed"),
      );
      const failedWith = async () => {
        const error = await Promise.race([uploaded, Promise.resolve(undefined)]);
        return error ?? null;
      };
      return {
        key,
        async write(chunk) {
          const failed = await failedWith();
          if (failed) throw asUnavailable(failed);
          try {
            feed?.enqueue(chunk);
          } catch {
            // The client cancelled the body: the upload has failed or is about to.
            throw asUnavailable((await uploaded) ?? new Error("S3 upload stopped"));
          }
          if ((feed?.desiredSize ?? 1) > 0) return;
          const more = new Promise<void>((resolve) => {
            wanted = resolve;
          });
          const error = await Promise.race([more.then(() => null), uploaded]);
          if (error) throw asUnavailable(error);
        },
        async commit(sha256) {
          feed?.close();
          const error = await uploaded;
          if (error) throw asUnavailable(error);
          if (sha256 && (await guarded(() => sha256Of(object.stream()))) !== sha256) {
            await removeObject(key);
            throw checksumMismatch();
          }
        },
        async abort() {
          try {
            feed?.error(new Error("upload aborted"));
          } catch {
            // Already closed: commit was called and failed; the delete below still applies.
          }
          await uploaded;
          // Nothing should be there; a delete is idempotent and makes sure of it.
          await removeObject(key).catch(() => {});
        },
      };
    },
    async read(key) {
      const object = objectOf(key);
      // S3File is a lazy Blob: its bytes are fetched as the response streams them.
      return (await guarded(() => object.exists())) ? object : null;
    },
    remove: removeObject,
  };
}
