/**
 * Tracing in one process: off (no endpoint) it registers nothing and adds nothing; on, a request
 * served through `scopedFetch` gets a server span continuing the caller's `traceparent`, child
 * spans under it, and its log lines carry the trace. Spans go to a stand-in OTLP collector.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Elysia } from "elysia";
import {
  createLogger,
  currentScope,
  HttpProblem,
  injectTraceContext,
  memorySink,
  platform,
  SpanKind,
  scopedFetch,
  startTracing,
  stopTracing,
  tracingEnabled,
  withSpan,
} from "../src/index.ts";
import { freePort, startOtlpReceiver } from "./support/index.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const traceparent = (flags: "01" | "00") => `00-${TRACE}-${CALLER_SPAN}-${flags}`;

const sink = memorySink();
const logger = createLogger({ service: "traced", level: "info", sink });
const app = new Elysia()
  .use(platform({ service: "traced", logger }))
  .get("/items/:id", ({ params }) =>
    withSpan("load item", { attributes: { "item.kind": "test" } }, async (span) => {
      logger.info("deep inside", { traced: span !== undefined });
      return { id: params.id };
    }),
  )
  .get("/broken", () => {
    throw new Error("secret detail that must not be recorded");
  })
  .get("/plain/:n", () => "no child span")
  .get("/health/live", () => ({ status: "ok" }))
  .get("/teapot", () => {
    throw new HttpProblem("NOT_FOUND", { detail: "no such thing" });
  });

/** Serves one request the way serve() does: inside its scope. */
const fetchScoped = scopedFetch(app);
async function send(path: string, headers: Record<string, string> = {}) {
  const response = await fetchScoped(new Request(`http://localhost${path}`, { headers }));
  // The access-log line, and the end of the server span, come just after the response.
  await new Promise((resolve) => setImmediate(resolve));
  return response;
}

/** Tracing on, every request recorded, spans to `endpoint` when a batch is full or on stop. */
const tracingTo = (
  endpoint: string,
  more: { service?: string; scheduleDelayMs?: number; resource?: string } = {},
) =>
  startTracing({
    service: more.service ?? "traced",
    version: "1.2.3",
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_TRACES_SAMPLER_ARG: 1,
      OTEL_BSP_SCHEDULE_DELAY: more.scheduleDelayMs ?? 60_000,
      OTEL_RESOURCE_ATTRIBUTES: more.resource,
    },
    logger,
  });

/** Log lines for one request id. */
const linesOf = (requestId: string) => sink.lines().filter((line) => line.requestId === requestId);

afterAll(stopTracing);

describe("tracing off (no endpoint)", () => {
  test("nothing starts: withSpan hands its work no span, even as a root", async () => {
    const on = await startTracing({
      service: "traced",
      env: { OTEL_TRACES_SAMPLER_ARG: 1, OTEL_BSP_SCHEDULE_DELAY: 5_000 },
      logger,
    });
    expect(on).toBe(false);
    expect(tracingEnabled()).toBe(false);
    expect(await withSpan("probe", { root: true }, async (span) => span)).toBeUndefined();
  });

  test("log lines still carry the request id, and no trace fields", async () => {
    const response = await send("/items/7", { "x-request-id": "req-off-1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("req-off-1");
    const lines = linesOf("req-off-1");
    expect(lines.map((line) => line.msg)).toEqual(["deep inside", "request"]);
    expect(lines[0]).toMatchObject({ traced: false });
    for (const line of lines) expect(line).not.toHaveProperty("traceId");
  });

  test("a caller's traceparent is left as it is", () => {
    const headers = new Headers({ traceparent: traceparent("01") });
    injectTraceContext(headers);
    expect(headers.get("traceparent")).toBe(traceparent("01"));
    const none = new Headers();
    injectTraceContext(none);
    expect(none.has("traceparent")).toBe(false);
  });
});

// A collector for one describe block, closed when its tests are done.
async function receiverForThisBlock() {
  const collector = await startOtlpReceiver();
  afterAll(() => collector.close());
  return collector;
}

describe("tracing on", async () => {
  const collector = await receiverForThisBlock();

  test("an endpoint turns it on", async () => {
    const on = await tracingTo(collector.endpoint);
    expect(on).toBe(true);
    expect(tracingEnabled()).toBe(true);
  });

  test("a request continues the caller's trace: server span, child span, ids in every log line", async () => {
    await send("/items/42?token=abc", {
      traceparent: traceparent("01"),
      tracestate: "vendor=kept",
      "x-request-id": "req-on-1",
    });
    await send("/broken", { traceparent: traceparent("01"), "x-request-id": "req-on-2" });
    await send("/teapot", { traceparent: traceparent("01"), "x-request-id": "req-on-3" });
    // The caller decided not to sample: nothing is exported, the logs still name the trace.
    await send("/items/1", { traceparent: traceparent("00"), "x-request-id": "req-unsampled" });
    await send("/items/2", { "x-request-id": "req-new-trace" });
    // Probes are not traced: they would bury the real requests.
    await send("/health/live", { traceparent: traceparent("01"), "x-request-id": "req-probe" });
    await Bun.sleep(50);
    await stopTracing();
    expect(tracingEnabled()).toBe(false);

    const spans = collector.spans();
    expect(collector.contentTypes()).toEqual(["application/json"]);
    const server = spans.find((span) => span.name === "GET /items/:id" && span.traceId === TRACE);
    expect(server).toMatchObject({
      service: "traced",
      kind: 2,
      parentSpanId: CALLER_SPAN,
      attributes: {
        "http.request.method": "GET",
        "http.route": "/items/:id",
        "http.response.status_code": 200,
        // The query string (a token here) is never recorded.
        "url.path": "/items/42",
      },
    });
    const child = spans.find((span) => span.name === "load item");
    expect(child).toMatchObject({
      traceId: TRACE,
      parentSpanId: server?.spanId,
      kind: 1,
      attributes: { "item.kind": "test" },
    });
    // The server span is made after the request, from the times it recorded (not when it was
    // made, 50 ms later): it still spans its child, and carries the caller's tracestate. The
    // SDK anchors a live span on Date.now() (whole ms) and a recorded one on performance.now(),
    // so the two may disagree by a millisecond or so.
    expect(server?.traceState).toBe("vendor=kept");
    const SLACK_MS = 3;
    expect(server && child && server.startMs - child.startMs).toBeLessThanOrEqual(SLACK_MS);
    expect(server && child && child.endMs - server.endMs).toBeLessThanOrEqual(SLACK_MS);

    const lines = linesOf("req-on-1");
    expect(lines.map((line) => line.msg)).toEqual(["deep inside", "request"]);
    for (const line of lines) {
      expect(line).toMatchObject({ traceId: TRACE, spanId: server?.spanId });
    }
    expect(lines[0]).toMatchObject({ traced: true });

    const broken = spans.find((span) => span.name === "GET /broken");
    expect(broken).toMatchObject({ status: 2, attributes: { "http.response.status_code": 500 } });
    expect(JSON.stringify(spans)).not.toContain("secret detail");
    expect(JSON.stringify(spans)).not.toContain("token=abc");
    // A 4xx is the client's error, not the server's.
    const teapot = spans.find((span) => span.name === "GET /teapot");
    expect(teapot).toMatchObject({ status: 0, attributes: { "http.response.status_code": 404 } });
    expect(linesOf("req-on-2").find((line) => line.msg === "unhandled error")).toMatchObject({
      traceId: TRACE,
    });

    const unsampled = linesOf("req-unsampled");
    expect(unsampled.every((line) => line.traceId === TRACE)).toBe(true);
    expect(spans.filter((span) => span.traceId === TRACE)).toHaveLength(4);
    expect(spans.some((span) => span.attributes["url.path"] === "/health/live")).toBe(false);
    expect(linesOf("req-probe")[0]).not.toHaveProperty("traceId");

    const fresh = linesOf("req-new-trace")[0];
    expect(fresh?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh?.traceId).not.toBe(TRACE);
    const root = spans.find((span) => span.traceId === fresh?.traceId && span.kind === 2);
    expect(root?.name).toBe("GET /items/:id");
    expect(root?.parentSpanId).toBeUndefined();
  });

  test("stopped, withSpan makes no span any more", async () => {
    expect(await withSpan("probe", { root: true }, async (span) => span)).toBeUndefined();
  });
});

describe("child spans, roots and the resource", async () => {
  const collector = await receiverForThisBlock();

  test("nested spans chain under the request's; a failure is typed; a root starts a trace", async () => {
    await tracingTo(collector.endpoint, {
      service: "nested",
      resource: "deployment.environment=test,service.name=overridden,bad",
    });
    const outer = await withSpan("job", { root: true }, async (span) => {
      span?.setAttribute("job.items", 3);
      await withSpan("step", { kind: SpanKind.CLIENT }, async (inner) => {
        inner?.updateName("step renamed");
        inner?.setAttributes({ "step.ok": true, "step.kinds": ["a", "b"], "step.ratio": 0.5 });
      });
      await withSpan("failing", {}, async () => {
        throw Object.assign(new Error("secret row 42"), { code: "23505" });
      }).catch(() => {});
      return currentScope()?.traceId;
    });
    await stopTracing();
    const spans = collector.spans().filter((span) => span.traceId === outer);
    const byName = Object.fromEntries(spans.map((span) => [span.name, span]));
    expect(Object.keys(byName).sort()).toEqual(["failing", "job", "step renamed"]);
    expect(byName.job).toMatchObject({ kind: 1, attributes: { "job.items": 3 } });
    expect(byName.job?.parentSpanId).toBeUndefined();
    expect(byName["step renamed"]).toMatchObject({
      kind: 3,
      parentSpanId: byName.job?.spanId,
      attributes: { "step.ok": true, "step.kinds": ["a", "b"], "step.ratio": 0.5 },
    });
    expect(byName.failing).toMatchObject({ status: 2, attributes: { "error.type": "23505" } });
    expect(JSON.stringify(spans)).not.toContain("secret row");
    // OTEL_SERVICE_NAME (or the app's name) wins over a service.name in the attributes.
    expect(collector.resources().at(-1)).toEqual({
      "deployment.environment": "test",
      "service.name": "nested",
      "service.version": "1.2.3",
    });
  });
});

describe("batches of recorded spans", async () => {
  const collector = await receiverForThisBlock();

  test("a full batch of 512 is exported at once, long before the schedule delay", async () => {
    await tracingTo(collector.endpoint, {
      service: "batched",
      scheduleDelayMs: 600_000,
    });
    try {
      // One server span each: 511 wait for the timer, the 512th sends them all.
      for (let i = 0; i < 511; i++) await send(`/plain/${i}`);
      await Bun.sleep(200);
      expect(collector.spans().filter((span) => span.service === "batched")).toHaveLength(0);
      await send("/plain/511");
      await collector.waitFor(
        (spans) => spans.filter((span) => span.service === "batched").length === 512,
        5_000,
      );
    } finally {
      await stopTracing();
    }
  }, 20_000);
});

/** The fixture, in a process of its own, sending to `collector`; its log lines. */
async function runInChild(collector: string, env: Record<string, string> = {}) {
  const child = Bun.spawn(["bun", join(import.meta.dir, "fixtures/tracing-child.ts")], {
    env: { ...process.env, COLLECTOR_URL: collector, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  const lines = out
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines };
}

// In processes of their own: the environment is the exporter's configuration, and a refused
// connection surfaces as an error this test runner counts against whichever test is running.
describe("the recorded spans' exporter (a worker)", () => {
  test("honours OTEL_EXPORTER_OTLP_HEADERS and _COMPRESSION, and stopping sends what is left", async () => {
    const collector = await startOtlpReceiver();
    try {
      const { code, lines } = await runInChild(collector.endpoint, {
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20collector-key",
        OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: "gzip",
      });
      expect(code).toBe(0);
      const traceId = lines.find((line) => line.msg === "request")?.traceId;
      expect(collector.spans().filter((span) => span.traceId === traceId)).toMatchObject([
        { name: "GET /", kind: 2, service: "traced" },
      ]);
      expect(collector.authorizations()).toEqual(["Bearer collector-key"]);
      expect(collector.encodings()).toEqual(["gzip"]);
    } finally {
      collector.close();
    }
  });

  test("the collector down: the failure is logged, requests are answered, the process stops", async () => {
    const { code, lines } = await runInChild(`http://127.0.0.1:${await freePort()}`, {
      // The exporter's own deadline (10 s by default), so the test does not wait for it.
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "1000",
    });
    expect(code).toBe(0);
    expect(lines.find((line) => line.msg === "answered")).toMatchObject({ status: 200 });
    const warnings = lines.filter((line) => line.msg === "tracing");
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.every((line) => line.level === "warn")).toBe(true);
    expect(warnings.map((line) => String(line.detail)).join()).toContain("ECONNREFUSED");
    expect(lines.at(-1)).toMatchObject({ msg: "stopped" });
  });
});
