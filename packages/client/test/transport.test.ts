/**
 * The client's own behaviour, against a small HTTP server on loopback that answers as the
 * platform does (problem+json, Retry-After, the refresh route): which requests are sent again
 * and after how long, what a failure to get an answer becomes, and the token refresh. Waits are
 * recorded by a `sleep` of the test's, never timed. The real stack is driven by consumer.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createClient, NETWORK_ERROR, orThrow, PlatformError } from "../src/index.ts";
import { retryAfterMs } from "../src/retry.ts";

/** Answers one request: `body` is its text (the server has read it). */
type Script = (request: Request, count: number, body: string) => Response | Promise<Response>;
const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  Response.json(
    { type: `/problems/${code}`, title: code, status, detail: code, code, requestId: "r-1" },
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );

/** A server answering each path by its script; `seen` is every request it got. */
function fakeApi(scripts: Record<string, Script>) {
  const seen: { method: string; path: string; authorization: string | null; body: string }[] = [];
  const counts = new Map<string, number>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const count = (counts.get(path) ?? 0) + 1;
      counts.set(path, count);
      const authorization = request.headers.get("authorization");
      const body = await request.text();
      seen.push({ method: request.method, path, authorization, body });
      const script = scripts[path];
      return script ? script(request, count, body) : problem(404, "NOT_FOUND");
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) };
}

const servers: { stop(): void }[] = [];
afterAll(() => {
  for (const server of servers) server.stop();
});

function clientOf(scripts: Record<string, Script>, extra: object = {}) {
  const api = fakeApi(scripts);
  servers.push(api);
  const waits: number[] = [];
  const client = createClient({
    baseUrl: api.base,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  return { client, waits, seen: api.seen };
}

describe("retries", () => {
  test("an idempotent request is sent again after 503, waiting what Retry-After asks", async () => {
    const { client, waits, seen } = clientOf({
      "/api/leaderboard": (_, n) =>
        n < 3 ? problem(503, "SERVICE_UNAVAILABLE", { "retry-after": "2" }) : Response.json([]),
    });
    const { data, response } = await client.GET("/api/leaderboard");
    expect(response.status).toBe(200);
    expect(data).toEqual([]);
    expect(seen.length).toBe(3);
    expect(waits).toEqual([2000, 2000]);
  });

  test("without Retry-After it backs off, doubling; past the retries the last answer is given", async () => {
    const { client, waits, seen } = clientOf({
      "/api/leaderboard": () => problem(502, "BAD_GATEWAY"),
    });
    const { error, response } = await client.GET("/api/leaderboard");
    expect(response.status).toBe(502);
    expect(error?.code).toBe("BAD_GATEWAY");
    expect(seen.length).toBe(3);
    expect(waits).toEqual([250, 500]);
  });

  test("a wait longer than maxDelayMs is not waited: the 429 is handed back at once", async () => {
    const { client, waits } = clientOf({
      "/api/leaderboard": () => problem(429, "RATE_LIMITED", { "retry-after": "3600" }),
    });
    const { response } = await client.GET("/api/leaderboard");
    expect(response.status).toBe(429);
    expect(waits).toEqual([]);
  });

  test("a POST is not sent twice; with an Idempotency-Key it is", async () => {
    const busy = () => problem(503, "SERVICE_UNAVAILABLE", { "retry-after": "1" });
    const { client, seen } = clientOf({
      "/api/leaderboard": busy,
      "/api/v1/applications/a/payments/": busy,
    });
    await client.POST("/api/leaderboard", { body: { playerName: "Ada", score: 1 } });
    expect(seen.length).toBe(1);
    await client.POST("/api/v1/applications/{id}/payments/", {
      params: { path: { id: "a" }, header: { "idempotency-key": "k-1" } },
    } as never);
    expect(seen.filter((s) => s.path === "/api/v1/applications/a/payments/").length).toBe(3);
  });

  test("every attempt sends the same body", async () => {
    const { client, seen } = clientOf({
      "/api/v1/profile/": (_, n) =>
        n === 1 ? problem(503, "SERVICE_UNAVAILABLE") : Response.json({}),
    });
    await client.PUT("/api/v1/profile/", { body: { legalName: "Ada" } as never });
    expect(seen.map((s) => s.body)).toEqual(['{"legalName":"Ada"}', '{"legalName":"Ada"}']);
  });

  test("retry: false sends once", async () => {
    const { client, seen } = clientOf(
      { "/api/leaderboard": () => problem(503, "SERVICE_UNAVAILABLE") },
      { retry: false },
    );
    await client.GET("/api/leaderboard");
    expect(seen.length).toBe(1);
  });

  test("Retry-After as delay-seconds or an HTTP-date", () => {
    expect(retryAfterMs("5")).toBe(5000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:10 GMT", Date.UTC(2015, 9, 21, 7, 28, 0))).toBe(
      10_000,
    );
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe("errors", () => {
  test("no answer at all: a PlatformError NETWORK_ERROR with the cause, after the retries", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const base = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const waits: number[] = [];
    const client = createClient({ baseUrl: base, sleep: async (ms) => void waits.push(ms) });
    const failure = await client.GET("/api/leaderboard").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatformError);
    expect(failure).toMatchObject({ code: NETWORK_ERROR, status: 0 });
    expect((failure as PlatformError).cause).toBeDefined();
    expect(waits).toEqual([250, 500]);
  });

  test("orThrow: the data, or the problem as a PlatformError with its request id", async () => {
    const { client } = clientOf({
      "/api/v1/auth/me/": () => problem(401, "UNAUTHORIZED"),
      "/api/leaderboard": () => Response.json([]),
    });
    expect(orThrow(await client.GET("/api/leaderboard"))).toEqual([]);
    const failure = (() => {
      try {
        return orThrow({ error: { code: "X" }, response: new Response(null, { status: 500 }) });
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toMatchObject({ code: "UNEXPECTED_RESPONSE", status: 500 });
    const refused = await client.GET("/api/v1/auth/me/");
    expect(() => orThrow(refused)).toThrow(
      expect.objectContaining({ code: "UNAUTHORIZED", status: 401, requestId: "r-1" }),
    );
  });
});

describe("tokens", () => {
  const me = (request: Request) =>
    request.headers.get("authorization") === "Bearer fresh"
      ? Response.json({ id: "u1" })
      : problem(401, "INVALID_TOKEN");

  test("an expired access token is refreshed once, the request tried again, the pair kept", async () => {
    const kept: unknown[] = [];
    const { client, seen } = clientOf(
      {
        "/api/v1/auth/me/": me,
        "/api/v1/auth/refresh/": (_, __, body) =>
          JSON.parse(body).refreshToken === "r-old"
            ? Response.json({ accessToken: "fresh", refreshToken: "r-new" })
            : problem(401, "INVALID_REFRESH_TOKEN"),
      },
      {
        tokens: { accessToken: "stale", refreshToken: "r-old" },
        onTokens: (t: unknown) => kept.push(t),
      },
    );
    const [a, b] = await Promise.all([
      client.GET("/api/v1/auth/me/"),
      client.GET("/api/v1/auth/me/"),
    ]);
    expect(a.data?.id).toBe("u1");
    expect(b.data?.id).toBe("u1");
    // Two requests found the token expired at once: one refresh (the refresh token is single-use).
    expect(seen.filter((s) => s.path === "/api/v1/auth/refresh/").length).toBe(1);
    expect(kept).toEqual([{ accessToken: "fresh", refreshToken: "r-new" }]);
    expect(client.tokens).toEqual({ accessToken: "fresh", refreshToken: "r-new" });
  });

  test("a refused refresh hands back the original 401; without a refresh token none is tried", async () => {
    const { client, seen } = clientOf(
      {
        "/api/v1/auth/me/": me,
        "/api/v1/auth/refresh/": () => problem(401, "INVALID_REFRESH_TOKEN"),
      },
      { tokens: { accessToken: "stale", refreshToken: "r-spent" } },
    );
    const { error } = await client.GET("/api/v1/auth/me/");
    expect(error?.code).toBe("INVALID_TOKEN");
    expect(seen.map((s) => s.path)).toEqual(["/api/v1/auth/me/", "/api/v1/auth/refresh/"]);
    client.setTokens({ accessToken: "stale" });
    await client.GET("/api/v1/auth/me/");
    expect(seen.filter((s) => s.path === "/api/v1/auth/refresh/").length).toBe(1);
  });
});
