import { afterAll, describe, expect, test } from "bun:test";
import { createLogger, memorySink } from "@platform/server";
import { get, problemOf } from "@platform/server/testing";
import { benchApp, benchmarkRequest, listening, realRunner } from "./support.ts";

const bench = benchApp({ runsPerMinute: 1_000 });
const { app } = bench;
afterAll(() => bench.close());

describe("bad bodies and types", () => {
  const invalid: [string, unknown][] = [
    ["an unknown type", { type: "regex" }],
    ["a type in the wrong case", { type: "JSON" }],
    ["no type", {}],
    ["a null type", { type: null }],
    ["a numeric type", { type: 1 }],
    ["an array of types", { type: ["json"] }],
    ["an array body", [{ type: "json" }]],
    ["a string body", '"json"'],
    ["a null body", "null"],
  ];
  for (const [name, body] of invalid) {
    test(`${name} → 422 naming /body/type or the body`, async () => {
      const response = await app.handle(benchmarkRequest(body));
      expect(response.status).toBe(422);
      const problem = await problemOf(response);
      expect(problem.code).toBe("VALIDATION_FAILED");
      expect(problem.errors?.[0]?.path).toStartWith("/body");
      expect(bench.runner.busy).toBe(false);
    });
  }

  test("malformed JSON → 400", async () => {
    const response = await app.handle(benchmarkRequest('{"type": "json"'));
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe("MALFORMED_JSON");
  });

  test("an empty body → 400", async () => {
    const response = await app.handle(benchmarkRequest(""));
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe("MALFORMED_JSON");
  });

  test("a body that is not JSON → 415", async () => {
    const response = await app.handle(
      benchmarkRequest("type=json", { "content-type": "application/x-www-form-urlencoded" }),
    );
    expect(response.status).toBe(415);
    expect((await problemOf(response)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  test("an oversized body → 413", async () => {
    const response = await app.handle(benchmarkRequest({ type: "json", pad: "x".repeat(8_192) }));
    expect(response.status).toBe(413);
    expect((await problemOf(response)).code).toBe("PAYLOAD_TOO_LARGE");
  });

  test("GET on the endpoint → 404 problem", async () => {
    const response = await app.handle(get("/api/benchmark"));
    expect(response.status).toBe(404);
    expect((await problemOf(response)).code).toBe("NOT_FOUND");
  });
});

describe("when runs cannot be served", () => {
  test("a full queue → 503 with Retry-After, the running benchmark unharmed", async () => {
    const own = benchApp({ runner: realRunner({ maxWaiting: 0 }) });
    const [first, second] = await Promise.all([
      own.app.handle(benchmarkRequest({ type: "json" })),
      own.app.handle(benchmarkRequest({ type: "json" })),
    ]);
    await own.close();
    expect(first?.status).toBe(200);
    expect(second?.status).toBe(503);
    if (!second) throw new Error("no second response");
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const problem = await problemOf(second);
    expect(problem.code).toBe("SERVICE_UNAVAILABLE");
    expect(problem.detail).toContain("waiting");
  });

  test.each([
    ["Bun.serve", false],
    ["the pipelining listener", true],
  ])(
    "a request whose client disconnects while it waits is dropped from the queue (%s)",
    async (_, pipelining) => {
      const own = benchApp();
      const server = await listening(own, { pipelining });
      try {
        const running = server.post({ type: "crypto" });
        while (!own.runner.busy) await Bun.sleep(1);
        const abort = new AbortController();
        const waiting = fetch(`${server.base}/api/benchmark`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ type: "json" }),
          signal: abort.signal,
        }).catch((error: unknown) => error);
        while (own.runner.waiting === 0) await Bun.sleep(1);
        abort.abort(); // the socket closes; the listener aborts the request's signal
        while (own.runner.waiting > 0) await Bun.sleep(1);
        const busy = () => own.runner.busy;
        expect(busy()).toBe(true); // the crypto run is still going
        expect(await waiting).toBeInstanceOf(Error);
        expect((await running).status).toBe(200);
        // Had the dropped json request been left in the queue, it would be running now.
        expect(busy()).toBe(false);
      } finally {
        await server.close();
      }
    },
  );

  test("a run that fails → 500 BENCHMARK_FAILED, cause logged, not leaked", async () => {
    const sink = memorySink();
    const own = benchApp({
      // Too short for any run: the worker is stopped and the run reported as failed.
      runner: realRunner({ timeoutMs: 5 }),
      logger: createLogger({ service: "bench", level: "error", sink }),
    });
    const response = await own.app.handle(benchmarkRequest({ type: "array" }));
    expect(response.status).toBe(500);
    const problem = await problemOf(response);
    expect(problem.code).toBe("BENCHMARK_FAILED");
    expect(problem.detail).toBe("The array benchmark could not be completed; try again later");
    expect(JSON.stringify(problem)).not.toContain("/work");
    const logged = sink.lines().find((line) => line.msg === "benchmark run failed");
    expect(JSON.stringify(logged?.err)).toContain("did not finish within 5 ms");
    // The queue is free again for the next request.
    expect(own.runner.busy).toBe(false);
    await own.close();
  });
});
