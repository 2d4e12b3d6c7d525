/** The `traceparent` reading that decides, before the SDK, whether a request is recorded. */
import { describe, expect, test } from "bun:test";
import { newIds, parseTraceparent, traceparentOf } from "../src/observability/trace-context.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

describe("parseTraceparent", () => {
  test("a valid one gives the caller's ids and its sampled flag", () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      sampled: true,
    });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
    // Other flag bits are not the sampled bit.
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-02`)?.sampled).toBe(false);
    // A later version may append fields; its first four are read.
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-extra`)?.traceId).toBe(TRACE);
  });

  test.each([
    ["absent", null],
    ["empty", ""],
    ["all-zero trace id", `00-${"0".repeat(32)}-${SPAN}-01`],
    ["all-zero parent id", `00-${TRACE}-${"0".repeat(16)}-01`],
    ["version ff", `ff-${TRACE}-${SPAN}-01`],
    ["version 00 with extra fields", `00-${TRACE}-${SPAN}-01-extra`],
    ["upper case", `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ["short trace id", `00-${TRACE.slice(1)}-${SPAN}-01`],
    ["garbage", "not a traceparent"],
  ])("%s is no parent: the request starts a trace of its own", (_, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });
});

test("ids are fresh hex, and a request passes on its own id with its sampling decision", () => {
  const a = newIds();
  const b = newIds(TRACE);
  expect(a.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(a.spanId).toMatch(/^[0-9a-f]{16}$/);
  expect(b.traceId).toBe(TRACE);
  expect(b.spanId).not.toBe(a.spanId);
  expect(traceparentOf(b.traceId, b.spanId, false)).toBe(`00-${TRACE}-${b.spanId}-00`);
  expect(parseTraceparent(traceparentOf(b.traceId, b.spanId, false))).toEqual({
    ...b,
    sampled: false,
  });
  expect(parseTraceparent(traceparentOf(b.traceId, b.spanId, true))).toEqual({
    ...b,
    sampled: true,
  });
});

test("ids stay well-formed and distinct across many refills of the random pool", () => {
  // 4 KiB of randomness serves about 170 requests: 2,000 requests refill it a dozen times.
  const seen = new Set<string>();
  for (let i = 0; i < 2_000; i++) {
    const { traceId, spanId } = newIds();
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    seen.add(traceId).add(spanId);
  }
  expect(seen.size).toBe(4_000);
});
