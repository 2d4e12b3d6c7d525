/**
 * The checker's verdict cache (checker/verdicts.ts): a client running the same program again is
 * answered without a checker; nothing crosses between clients; the cache stays within its bounds;
 * a check stopped for its time is not kept.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createVerdictCache } from "../src/sandbox/checker/verdicts.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { enumBomb } from "./fixtures/bombs.ts";
import { ALL_LAYERS, bwrapPath, testRunner } from "./support.ts";

const ok = (js: string) => ({ ok: true as const, js });

describe("the cache itself", () => {
  test("per client, per static-check setting, per program", () => {
    const cache = createVerdictCache({ maxEntries: 10, maxChars: 10_000 });
    cache.set("a", true, "x", ok("x;"));
    expect(cache.get("a", true, "x")).toEqual(ok("x;"));
    expect(cache.get("b", true, "x")).toBeUndefined();
    expect(cache.get("a", false, "x")).toBeUndefined();
    expect(cache.get("a", true, "y")).toBeUndefined();
  });

  test("the least recently used goes first, by count and by size", () => {
    const cache = createVerdictCache({ maxEntries: 2, maxChars: 100 });
    cache.set("a", true, "1", ok("1"));
    cache.set("a", true, "2", ok("2"));
    cache.get("a", true, "1");
    cache.set("a", true, "3", ok("3"));
    expect(cache.get("a", true, "2")).toBeUndefined();
    expect(cache.get("a", true, "1")).toBeDefined();
    // A verdict larger than the whole cache is not kept; a large one pushes the others out.
    cache.set("a", true, "big", ok("x".repeat(200)));
    expect(cache.get("a", true, "big")).toBeUndefined();
    cache.set("a", true, "large", ok("x".repeat(90)));
    expect(cache.size()).toBe(1);
    expect(cache.get("a", true, "large")).toBeDefined();
  });
});

describe.skipIf(!bwrapPath)("in the runner", () => {
  let runner: SandboxRunner;
  beforeAll(async () => {
    runner = await testRunner(ALL_LAYERS, { checkTimeoutMs: 200 });
  });
  afterAll(() => runner.close());

  test("the same program again from the same client is not checked again", async () => {
    const before = runner.stats().checksCached;
    for (let i = 0; i < 3; i++) {
      expect((await runner.run("console.log('same')", 2_000, "c1")).output).toBe("same\n");
    }
    expect(runner.stats().checksCached).toBe(before + 2);
    // Another client, or another program: checked.
    await runner.run("console.log('same')", 2_000, "c2");
    await runner.run("console.log('other')", 2_000, "c1");
    expect(runner.stats().checksCached).toBe(before + 2);
  });

  test("refusals are kept too; a check stopped for its time is not", async () => {
    const before = runner.stats().checksCached;
    for (let i = 0; i < 2; i++) {
      expect((await runner.run("fetch('http://x')", 2_000, "c3")).error).toStartWith(
        "SecurityError:",
      );
    }
    expect(runner.stats().checksCached).toBe(before + 1);
    // A bomb that takes the checker longer than its 200 ms here: refused each time, by a checker.
    const bomb = enumBomb("const enum", 27);
    for (let i = 0; i < 2; i++) {
      expect((await runner.run(bomb, 2_000, "c3")).error).toMatch(/took longer|ran out of memory/);
    }
    expect(runner.stats().checksCached).toBe(before + 1);
  });
});
