/** Secrets never reach a log line: by field name at any depth, and as passwords inside URLs. */
import { describe, expect, test } from "bun:test";
import { createLogger, memorySink } from "../src/index.ts";

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
