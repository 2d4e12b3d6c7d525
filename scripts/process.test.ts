/** `sh` and `must` (process.ts), which CI and the compose check run every command through. */
import { describe, expect, test } from "bun:test";
import { must, sh } from "./process.ts";

describe("sh", () => {
  test("answers the command's exit code and what it wrote", async () => {
    const ran = await sh(["sh", "-c", "echo out; echo err >&2; exit 3"]);
    expect(ran).toEqual({ code: 3, stdout: "out\n", stderr: "err\n" });
  });

  test("kills a command past its timeout, and says so", async () => {
    const started = performance.now();
    const ran = await sh(["sleep", "30"], { timeoutMs: 200 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain("did not finish within 0.2 s: killed");
  });

  test("kills a command when its signal aborts, without calling it a timeout", async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const started = performance.now();
    const ran = await sh(["sleep", "30"], { timeoutMs: 60_000, signal: stop.signal });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).not.toContain("did not finish");
  });
});

describe("must", () => {
  test("throws with the command's own words on a non-zero exit", async () => {
    await expect(must(["sh", "-c", "echo broken >&2; exit 1"])).rejects.toThrow(/exited 1: broken/);
    expect(await must(["echo", "fine"])).toBe("fine\n");
  });
});
