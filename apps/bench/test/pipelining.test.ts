import { afterAll, describe, expect, test } from "bun:test";
import { pipelined, rawRequest } from "@platform/server/testing";
import { benchApp } from "./support.ts";

// Pipelined requests on the listener HTTP_PIPELINING turns on. A benchmark waits on a worker
// and watches request.signal (a client gone is dropped from the queue): a pipelined one is not.
const bench = benchApp();
afterAll(() => bench.close());

const run = (type: string) =>
  rawRequest("/api/benchmark", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type }),
  });

describe("bench answers pipelined requests in order", () => {
  test("two benchmarks", async () => {
    const responses = await pipelined(bench.app, [run("json"), run("array")], {
      timeoutMs: 30_000,
    });
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(responses.map((r) => JSON.parse(r.body).type)).toEqual(["json", "array"]);
  });

  test("a benchmark, then the health probes", async () => {
    const responses = await pipelined(
      bench.app,
      [run("crypto"), rawRequest("/health/live"), rawRequest("/health/ready")],
      { timeoutMs: 30_000 },
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(JSON.parse(responses[0]?.body ?? "").type).toBe("crypto");
  });
});
