/** Secrets never reach a log line: by field name at any depth, and as passwords inside URLs. */
import { describe, expect, test } from "bun:test";
import { createLogger, memorySink, runInScope } from "../src/index.ts";

function logged(fields: Record<string, unknown>) {
  const sink = memorySink();
  createLogger({ service: "test", level: "info", sink }).info("line", fields);
  return sink.lines()[0] ?? {};
}

describe("log redaction", () => {
  test("credential fields are replaced, at the top and nested in headers or bodies", () => {
    const line = logged({
      password: "hunter2",
      accessToken: "eyJ.abc.def",
      headers: { authorization: "Bearer eyJ.abc.def", cookie: "session=s3cret", accept: "*/*" },
      body: { email: "a@example.com", newPassword: "hunter3", items: [{ apiKey: "k-123" }] },
      ADMISSIONS_JWT_SECRET: "x".repeat(40),
      status: 200,
    });
    const text = JSON.stringify(line);
    for (const secret of ["hunter2", "hunter3", "eyJ.abc.def", "s3cret", "k-123", "x".repeat(40)])
      expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      password: "[redacted]",
      accessToken: "[redacted]",
      headers: { authorization: "[redacted]", cookie: "[redacted]", accept: "*/*" },
      body: {
        email: "a@example.com",
        newPassword: "[redacted]",
        items: [{ apiKey: "[redacted]" }],
      },
      status: 200,
    });
  });

  test("a password inside a URL is replaced, wherever the URL is written", () => {
    const line = logged({
      url: "postgres://platform:pg-pass@db:5432/platform",
      message: "connect failed for redis://:r-pass@cache:6379 and smtp://mail:m-pass@smtp:587",
      err: new Error("could not reach postgres://u:e-pass@db/x"),
    });
    const text = JSON.stringify(line);
    for (const secret of ["pg-pass", "r-pass", "m-pass", "e-pass"])
      expect(text).not.toContain(secret);
    expect(line.url).toBe("postgres://platform:[redacted]@db:5432/platform");
  });

  test("ordinary fields are untouched: dates, counts, paths, errors' names", () => {
    const when = new Date("2026-01-02T03:04:05Z");
    const line = logged({ when, passed: 3, path: "/api/v1/auth/login/", err: new TypeError("x") });
    expect(line).toMatchObject({
      when: when.toISOString(),
      passed: 3,
      path: "/api/v1/auth/login/",
      err: { name: "TypeError", message: "x" },
    });
  });
});

describe("request ids in every line", () => {
  const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

  test("outside a request a line has no ids", () => {
    const line = logged({});
    for (const key of ["requestId", "traceId", "spanId"]) expect(line).not.toHaveProperty(key);
  });

  test("inside a request's scope, however deep and however late, the line carries its ids", async () => {
    const sink = memorySink();
    const logger = createLogger({ service: "test", level: "info", sink });
    const deep = async () => {
      await Bun.sleep(1);
      await new Promise((resolve) => setImmediate(resolve));
      logger.warn("stripe refused", { code: "card_declined" });
    };
    await Promise.all([
      runInScope({ requestId: "req-a", traceId: TRACE, spanId: "00f067aa0ba902b7" }, deep),
      // Tracing off: the request id alone.
      runInScope({ requestId: "req-b" }, deep),
    ]);
    const [first, second] = sink
      .lines()
      .toSorted((a, b) => String(a.requestId).localeCompare(String(b.requestId)));
    expect(first).toMatchObject({
      msg: "stripe refused",
      requestId: "req-a",
      traceId: TRACE,
      spanId: "00f067aa0ba902b7",
      code: "card_declined",
    });
    expect(second).toMatchObject({ msg: "stripe refused", requestId: "req-b" });
    expect(second).not.toHaveProperty("traceId");
    expect(second).not.toHaveProperty("spanId");
  });

  test("a field the caller passes keeps its place: the access log's own requestId", () => {
    const sink = memorySink();
    const logger = createLogger({ service: "test", level: "info", sink });
    runInScope({ requestId: "req-c" }, () => logger.info("request", { requestId: "req-c" }));
    expect(Object.keys(sink.lines()[0] ?? {})).toEqual([
      "time",
      "level",
      "service",
      "msg",
      "requestId",
    ]);
  });
});
