/** Request metrics by templated route, problem codes, and /metrics served on a port of its own. */
import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { Histogram, Registry } from "prom-client";
import {
  createLogger,
  createMetrics,
  DURATION_BUCKETS,
  HttpProblem,
  memorySink,
  ObservationQueue,
  platform,
  serveMetrics,
} from "../src/index.ts";
import { freePort, get, metricValue } from "./support/index.ts";

function makeApp() {
  const metrics = createMetrics("test");
  const logger = createLogger({ service: "test", level: "silent", sink: memorySink() });
  const app = new Elysia()
    .use(platform({ service: "test", logger, metrics }))
    .get("/items/:id", ({ params }) => ({ id: params.id }), {
      params: t.Object({ id: t.String() }),
    })
    .get("/limited", () => {
      throw new HttpProblem("RATE_LIMITED", { detail: "slow down" });
    });
  return { app, metrics };
}

describe("request metrics", () => {
  test("counted by the templated route, never the raw path; durations observed", async () => {
    const { app, metrics } = makeApp();
    for (const id of ["1", "2", "3"])
      expect((await app.handle(get(`/items/${id}`))).status).toBe(200);
    await Bun.sleep(10);
    const text = await metrics.registry.metrics();
    expect(metricValue(text, "http_requests_total", 'route="/items/:id"', 'status="200"')).toBe(
      "3",
    );
    expect(text).not.toContain('route="/items/1"');
    expect(metricValue(text, "http_request_duration_seconds_count", 'route="/items/:id"')).toBe(
      "3",
    );
    expect(text).toContain('service="test"');
    expect(text).toContain("process_resident_memory_bytes");
  });

  test("error answers count their problem code (rate-limit refusals among them)", async () => {
    const { app, metrics } = makeApp();
    expect((await app.handle(get("/limited"))).status).toBe(429);
    expect((await app.handle(get("/nowhere"))).status).toBe(404);
    await Bun.sleep(10);
    const text = await metrics.registry.metrics();
    expect(metricValue(text, "http_problems_total", 'code="RATE_LIMITED"')).toBe("1");
    expect(metricValue(text, "http_problems_total", 'code="NOT_FOUND"')).toBe("1");
    expect(metricValue(text, "http_requests_total", 'status="429"')).toBe("1");
  });
});

describe("the observation queue in front of prom-client", () => {
  test("hands over each label set's observations together, when full and when flushed", () => {
    const seen: string[] = [];
    const queue = new ObservationQueue(
      (a, b, c, values) => seen.push(`${a} ${b} ${c} [${values}]`),
      4,
    );
    queue.add("GET", "/a", "200", 1);
    queue.add("GET", "/b", "404", 2);
    queue.add("GET", "/a", "200", 0.5);
    expect(seen).toEqual([]);
    queue.add("GET", "/a", "200", 9);
    expect(seen).toEqual(["GET /a 200 [1,0.5,9]", "GET /b 404 [2]"]);
    queue.add("POST", "/c", "201", 3);
    queue.flush();
    queue.flush();
    expect(seen.slice(2)).toEqual(["POST /c 201 [3]"]);
  });

  test("queued, prom-client shows exactly what one observe per value at once would", async () => {
    const values = Array.from({ length: 3_000 }, (_, i) => ((i * 7919) % 1000) / 997 + i * 1e-5);
    const expose = async (queued: boolean) => {
      const registry = new Registry();
      const histogram = new Histogram({
        name: "h",
        help: "h",
        labelNames: ["route", "status"] as const,
        buckets: [...DURATION_BUCKETS],
        registers: [registry],
      });
      const queue = new ObservationQueue((route, status, _, group) => {
        for (const value of group) histogram.observe({ route, status }, value);
      }, 500);
      for (const [i, value] of values.entries()) {
        const status = i % 3 === 0 ? "500" : "200";
        if (queued) queue.add("/x", status, "", value);
        else histogram.observe({ route: "/x", status }, value);
      }
      queue.flush();
      return registry.metrics();
    };
    const [one, queued] = [await expose(false), await expose(true)];
    // Sums may differ in the last digits (added in another order): compare them rounded.
    const rounded = (text: string) =>
      text.replace(
        /_sum(\{[^}]*\}) ([\d.e-]+)/g,
        (_, labels, sum) => `_sum${labels} ${Number(sum).toFixed(6)}`,
      );
    expect(rounded(queued)).toBe(rounded(one));
    expect(one).toContain('h_count{route="/x",status="500"} 1000');
  });

  test("a scrape counts every request answered so far, across many batches", async () => {
    const metrics = createMetrics("test");
    for (let i = 0; i < 2_500; i++) metrics.recordRequest("GET", "/items/:id", "200", 0.002);
    metrics.recordRequest("GET", "/items/:id", "404", 0.2);
    const text = await metrics.registry.metrics();
    expect(metricValue(text, "http_requests_total", 'status="200"')).toBe("2500");
    expect(metricValue(text, "http_requests_total", 'status="404"')).toBe("1");
    expect(metricValue(text, "http_request_duration_seconds_count", 'route="/items/:id"')).toBe(
      "2501",
    );
    expect(
      metricValue(
        text,
        "http_request_duration_seconds_bucket",
        'route="/items/:id"',
        'le="0.0025"',
      ),
    ).toBe("2500");
  });
});

describe("/metrics on its own port", () => {
  test("answers the Prometheus text format there, and nothing else", async () => {
    const { metrics } = makeApp();
    const port = await freePort();
    const logger = createLogger({ service: "test", level: "silent" });
    const stop = serveMetrics(metrics, { port, hostname: "127.0.0.1", logger });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/plain");
      expect(await res.text()).toContain("# TYPE http_requests_total counter");
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    } finally {
      stop();
    }
  });

  test("port 0 turns it off", () => {
    const { metrics } = makeApp();
    const logger = createLogger({ service: "test", level: "silent" });
    expect(() => serveMetrics(metrics, { port: 0, hostname: "127.0.0.1", logger })()).not.toThrow();
  });
});
