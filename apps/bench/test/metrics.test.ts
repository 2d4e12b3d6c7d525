/** The bench's own metrics: its queue, read when scraped, and attempts per answered run. */
import { afterAll, describe, expect, test } from "bun:test";
import { createMetrics } from "@platform/server";
import { metricValue } from "@platform/server/testing";
import { benchApp, benchmarkRequest } from "./support.ts";

const metrics = createMetrics("bench");
const bench = benchApp({ metrics });
afterAll(() => bench.close());

describe("bench metrics", () => {
  test("an answered run is counted with its attempts; the queue is empty afterwards", async () => {
    const res = await bench.app.handle(benchmarkRequest({ type: "json" }));
    expect(res.status).toBe(200);
    const { attempts } = (await res.json()) as { attempts?: number };
    const text = await metrics.registry.metrics();
    expect(metricValue(text, "bench_run_attempts_count", 'type="json"')).toBe("1");
    expect(metricValue(text, "bench_run_attempts_sum", 'type="json"')).toBe(String(attempts ?? 0));
    expect(metricValue(text, "bench_queue", 'state="running"')).toBe("0");
    expect(metricValue(text, "bench_queue", 'state="waiting"')).toBe("0");
  }, 30_000);
});
