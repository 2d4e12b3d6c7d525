import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localDiskStorage } from "../src/lib/files/storage.ts";

const root = mkdtempSync(join(tmpdir(), "admissions-storage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const storage = localDiskStorage(root);
const bytes = new TextEncoder().encode("hello");

describe("local disk storage", () => {
  test("an object is invisible until committed, then readable, then removable", async () => {
    const writer = await storage.create();
    await writer.write(bytes);
    expect(await storage.read(writer.key)).toBeNull();
    await writer.commit();
    const blob = await storage.read(writer.key);
    expect(await blob?.text()).toBe("hello");
    await storage.remove(writer.key);
    expect(await storage.read(writer.key)).toBeNull();
    await storage.remove(writer.key);
  });

  test("abort leaves nothing behind", async () => {
    const writer = await storage.create();
    await writer.write(bytes);
    await writer.abort();
    expect(readdirSync(join(root, ".incoming"))).toEqual([]);
  });

  test("keys that are not this storage's are refused, never turned into paths", async () => {
    for (const key of ["../../etc/passwd", "/etc/passwd", "", "a".repeat(36)]) {
      await expect(storage.read(key)).rejects.toThrow("invalid storage key");
      await expect(storage.remove(key)).rejects.toThrow("invalid storage key");
    }
  });

  test("sweepIncoming removes partial uploads older than the cut-off, and only those", async () => {
    const stale = await storage.create();
    const fresh = await storage.create();
    const stalePath = join(root, ".incoming", `${stale.key}.part`);
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(stalePath, old, old);
    expect(await storage.sweepIncoming(3_600_000)).toBe(1);
    expect(existsSync(stalePath)).toBe(false);
    expect(existsSync(join(root, ".incoming", `${fresh.key}.part`))).toBe(true);
    await fresh.abort();
    await stale.abort();
  });
});
