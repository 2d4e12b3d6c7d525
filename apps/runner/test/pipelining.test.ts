import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pipelined, rawRequest } from "@platform/server/testing";
import type { App } from "../src/app.ts";
import type { SandboxRunner } from "../src/sandbox/runner.ts";
import { ALL_LAYERS, bwrapPath, testApp } from "./support.ts";

// Pipelined requests on the listener HTTP_PIPELINING turns on; each run waits on a sandbox.
let app: App;
let runner: SandboxRunner;
beforeAll(async () => {
  if (!bwrapPath) return;
  ({ app, runner } = await testApp(ALL_LAYERS, { poolSize: 1 }));
});
afterAll(() => runner?.close());

const run = (code: string) =>
  rawRequest("/api/run", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });

describe.skipIf(!bwrapPath)("the runner answers pipelined requests in order", () => {
  test("two runs", async () => {
    const responses = await pipelined(app, [run("console.log(1)"), run("console.log(2)")], {
      timeoutMs: 30_000,
    });
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(responses.map((r) => JSON.parse(r.body).output)).toEqual(["1\n", "2\n"]);
  });

  test("a run, the probe, a run", async () => {
    const responses = await pipelined(
      app,
      [run("console.log('a')"), rawRequest("/health/live"), run("console.log('b')")],
      { timeoutMs: 30_000 },
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(responses[0]?.body ?? "").output).toBe("a\n");
    expect(JSON.parse(responses[2]?.body ?? "").output).toBe("b\n");
  });
});
