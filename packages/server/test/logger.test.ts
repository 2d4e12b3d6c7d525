/**
 * Secrets never reach a log line: by field name at any depth, as passwords inside URLs, and as
 * credentials in URLs' query strings.
 */
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

  test("a credential in a URL's query string or fragment is replaced, in any string or URL", () => {
    const line = logged({
      link: "https://apply.example.edu/account/verify-email?token=t-verify",
      path: "/references/write?lang=fr&token=t-ref#top",
      message: "fetch https://idp.example/cb?state=s1&code=c-oauth failed; retry ?Code=c-upper",
      s3: "https://bucket.s3.amazonaws.com/k?X-Amz-Credential=c-aws&X-Amz-Signature=s-aws&X-Amz-Security-Token=t-aws",
      fragment: "https://app.example/#access_token=t-implicit&expires_in=3600",
      encoded: "https://app.example/x?t%6Fken=t-encoded",
      others: ["/a?secret=s-1", "/b?api_key=k-1&sig=s-2&key=k-2&otp=123456&password=p-1"],
      url: new URL("https://apply.example.edu/account/reset-password?token=t-url-object"),
      err: new Error("GET /account/confirm-email-change?token=t-error failed"),
    });
    const text = JSON.stringify(line);
    for (const secret of [
      "t-verify",
      "t-ref",
      "c-oauth",
      "c-upper",
      "c-aws",
      "s-aws",
      "t-aws",
      "t-implicit",
      "t-encoded",
      "s-1",
      "k-1",
      "s-2",
      "k-2",
      "123456",
      "p-1",
      "t-url-object",
      "t-error",
    ])
      expect(text).not.toContain(secret);
    expect(line.link).toBe("https://apply.example.edu/account/verify-email?token=[redacted]");
    // What is not a credential stays readable: the rest of the URL, other parameters.
    expect(line.path).toBe("/references/write?lang=fr&token=[redacted]#top");
    expect(line.message).toContain("?state=s1&code=[redacted]");
    expect(line.fragment).toBe("https://app.example/#access_token=[redacted]&expires_in=3600");
  });

  test("the message itself is redacted too", () => {
    const sink = memorySink();
    createLogger({ service: "test", level: "info", sink }).warn("redirect to /x?token=t-msg");
    expect(sink.lines()[0]?.msg).toBe("redirect to /x?token=[redacted]");
  });

  test("query strings without credentials are untouched", () => {
    const line = logged({ q: "/api/v1/applications/?limit=20&offset=40&status=submitted" });
    expect(line.q).toBe("/api/v1/applications/?limit=20&offset=40&status=submitted");
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
