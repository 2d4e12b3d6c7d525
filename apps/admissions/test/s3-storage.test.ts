import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpProblem } from "@platform/server";
import { s3Storage } from "../src/lib/files/s3-storage.ts";
import { localDiskStorage } from "../src/lib/files/storage.ts";
import { sha256 } from "./files.ts";
import { startS3, unreachableS3 } from "./s3-server.ts";

const s3 = await startS3();
const storage = s3Storage(s3.settings);
const root = mkdtempSync(join(tmpdir(), "admissions-storage-"));
afterAll(async () => {
  await s3.stop();
  rmSync(root, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
/** `count` chunks of 1 MiB, each filled with its index, so a reordered part changes the hash. */
const chunks = (count: number) =>
  Array.from({ length: count }, (_, i) => new Uint8Array(MiB).fill(i + 1));
const hashOf = (parts: Uint8Array[]) => {
  const hasher = new Bun.CryptoHasher("sha256");
  for (const part of parts) hasher.update(part);
  return hasher.digest("hex");
};

describe("S3 storage (s3rver on loopback)", () => {
  test("a small object: written, checked, read, removed; removing it again is fine", async () => {
    const bytes = new TextEncoder().encode("hello");
    const writer = await storage.create();
    await writer.write(bytes);
    await writer.commit(sha256(bytes));
    expect(await (await storage.read(writer.key))?.text()).toBe("hello");
    expect(await s3.objects()).toEqual([`documents/${writer.key}`]);
    await storage.remove(writer.key);
    expect(await storage.read(writer.key)).toBeNull();
    await storage.remove(writer.key);
  });

  test("12 MiB goes up in multipart parts and streams back byte for byte", async () => {
    const parts = chunks(12);
    const writer = await storage.create();
    for (const part of parts) await writer.write(part);
    await writer.commit(hashOf(parts));
    const blob = await storage.read(writer.key);
    expect(blob).not.toBeNull();
    const back = new Bun.CryptoHasher("sha256");
    let size = 0;
    for await (const chunk of blob?.stream() ?? []) {
      back.update(chunk);
      size += chunk.byteLength;
    }
    expect(size).toBe(12 * MiB);
    expect(back.digest("hex")).toBe(hashOf(parts));
    await storage.remove(writer.key);
  });

  test("an upload aborted mid-way (past the first part) leaves no object", async () => {
    const writer = await storage.create();
    for (const part of chunks(7)) await writer.write(part);
    await writer.abort();
    expect(await storage.read(writer.key)).toBeNull();
    expect(await s3.objects()).toEqual([]);
  });

  test("a checksum mismatch is refused (502) and leaves no object", async () => {
    for (const parts of [chunks(1), chunks(6)]) {
      const writer = await storage.create();
      for (const part of parts) await writer.write(part);
      const refused = await writer.commit("0".repeat(64)).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(HttpProblem);
      expect((refused as HttpProblem).status).toBe(502);
      await writer.abort();
      expect(await storage.read(writer.key)).toBeNull();
    }
    expect(await s3.objects()).toEqual([]);
  });

  test("keys that are not this storage's are refused", async () => {
    for (const key of ["../../etc/passwd", "", "a".repeat(36)]) {
      await expect(storage.read(key)).rejects.toThrow("invalid storage key");
    }
  });

  test("an unreachable S3 is a 503 problem, on reads, removals and uploads", async () => {
    const down = s3Storage(unreachableS3());
    const key = crypto.randomUUID();
    for (const attempt of [() => down.read(key), () => down.remove(key)]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpProblem);
      expect((error as HttpProblem).status).toBe(503);
    }
    const writer = await down.create();
    await writer.write(new Uint8Array(10));
    const error = await writer.commit().catch((e: unknown) => e);
    expect((error as HttpProblem).status).toBe(503);
    await writer.abort();
  });
});

describe("local disk storage checks the checksum too", () => {
  test("a mismatch is refused (502) and leaves no file", async () => {
    const local = localDiskStorage(root);
    const writer = await local.create();
    await writer.write(new TextEncoder().encode("hello"));
    const refused = await writer.commit("0".repeat(64)).catch((error: unknown) => error);
    expect((refused as HttpProblem).status).toBe(502);
    await writer.abort();
    expect(
      readdirSync(root, { recursive: true }).filter((name) => String(name).includes("-")),
    ).toEqual([]);
  });
});
