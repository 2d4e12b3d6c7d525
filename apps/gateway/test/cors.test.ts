/** CORS: only listed origins, always with credentials, preflights answered by the gateway. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { parseOrigins } from "../src/modules/cors/service.ts";
import { fakeUpstream, routeTo, startGateway } from "./support.ts";

const ALLOWED = "https://apply.example.org";
const upstream = fakeUpstream();
let base = "";
let stop = () => {};
beforeAll(async () => {
  const gateway = await startGateway(
    [routeTo("admissions", upstream.target, ["/api/v1"])],
    "none",
    { corsOrigins: parseOrigins(`${ALLOWED}, http://localhost:5173`) },
  );
  base = gateway.base;
  stop = gateway.stop;
});
afterAll(() => {
  stop();
  upstream.server.stop(true);
});

const preflight = (origin: string, method = "POST") =>
  fetch(`${base}/api/v1/auth/login/`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "content-type, idempotency-key",
    },
  });

describe("preflight, answered at the gateway", () => {
  test("a listed origin: 204 with its own origin, credentials, methods, headers, max age", async () => {
    const before = upstream.seen.length;
    const res = await preflight(ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toContain("idempotency-key");
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("vary")).toContain("Origin");
    expect(upstream.seen.length).toBe(before);
  });

  test("any other origin: 403 problem+json, no CORS header, nothing forwarded", async () => {
    const before = upstream.seen.length;
    for (const origin of [
      "https://evil.example",
      "https://apply.example.org.evil.example",
      "null",
    ]) {
      const res = await preflight(origin);
      expect(res.status).toBe(403);
      expect((await problemOf(res)).code).toBe("FORBIDDEN");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
    expect(upstream.seen.length).toBe(before);
  });
});

describe("actual requests", () => {
  test("a listed origin's request is forwarded and its answer carries the CORS headers", async () => {
    const res = await fetch(`${base}/api/v1/catalog/programs/`, { headers: { origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("access-control-expose-headers")).toContain("x-request-id");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  test("the gateway's own errors carry them too, so the page can read the problem", async () => {
    const res = await fetch(`${base}/api/nope`, { headers: { origin: ALLOWED } });
    expect(res.status).toBe(404);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  test("another origin gets no CORS header (the browser keeps the answer from its page)", async () => {
    const res = await fetch(`${base}/api/v1/catalog/programs/`, {
      headers: { origin: "https://evil.example" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("vary")).toContain("Origin");
  });
});

describe("configuration", () => {
  test("no origins by default: a preflight from anywhere is refused", async () => {
    const gateway = await startGateway([routeTo("admissions", upstream.target, ["/api/v1"])]);
    try {
      const res = await fetch(`${gateway.base}/api/v1/x`, {
        method: "OPTIONS",
        headers: { origin: ALLOWED, "access-control-request-method": "GET" },
      });
      expect(res.status).toBe(403);
    } finally {
      gateway.stop();
    }
  });

  test("origins must be exact: a path, a wildcard or a bare host is refused at start-up", () => {
    expect([...parseOrigins(" https://a.example , http://localhost:5173/ ")]).toEqual([
      "https://a.example",
      "http://localhost:5173",
    ]);
    for (const bad of ["https://a.example/app", "*", "a.example"])
      expect(() => parseOrigins(bad)).toThrow();
    expect(parseOrigins("").size).toBe(0);
  });
});
