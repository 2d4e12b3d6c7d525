import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import {
  createLogger,
  createRateLimiter,
  memoryStore,
  parseTrustedProxies,
  platform,
  rateLimits,
} from "../src/index.ts";

const logger = createLogger({ service: "test", level: "silent" });
const policy = { name: "submit", limit: 2, windowMs: 60_000 };

/** A JSON route limited per client IP, and an upload-like one limited per signed-in user. */
function testApp() {
  const limiter = createRateLimiter(memoryStore(), policy);
  const perUser = createRateLimiter(memoryStore(), { ...policy, name: "per-user" });
  return new Elysia()
    .use(platform({ service: "test", logger }))
    .use(
      rateLimits({
        trusted: parseTrustedProxies("loopback"),
        userOf: (context) =>
          "user" in context && typeof context.user === "string" ? context.user : null,
      }),
    )
    .post("/submit", ({ body }) => body, {
      body: t.Object({ n: t.Integer() }),
      rateLimit: { key: "ip", limiter },
    })
    .derive(({ request }) => ({ user: request.headers.get("x-user") }))
    .post("/upload", () => "stored", { rateLimit: { key: "user", limiter: perUser } });
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("rateLimit macro, key: ip", () => {
  test("the quota's requests pass with RateLimit headers; the next is 429 with Retry-After", async () => {
    const app = testApp();
    for (const remaining of [1, 0]) {
      const res = await app.handle(post("/submit", '{"n":1}'));
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit")).toContain(`r=${remaining}`);
      expect(res.headers.get("ratelimit-policy")).toBe('"submit";q=2;w=60');
    }
    const refused = await app.handle(post("/submit", '{"n":1}'));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("invalid requests are not free: 422, 400, 413 and 415 each spend the quota", async () => {
    const app = testApp();
    const invalid = await app.handle(post("/submit", '{"n":"x"}'));
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("ratelimit")).toContain("r=1");
    const malformed = await app.handle(post("/submit", "{"));
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe("MALFORMED_JSON");
    expect(malformed.headers.get("ratelimit")).toContain("r=0");
    expect((await app.handle(post("/submit", '{"n":1}'))).status).toBe(429);
    const app2 = testApp();
    const tooLarge = await app2.handle(post("/submit", `{"n":1,"pad":"${"x".repeat(70_000)}"}`));
    expect(tooLarge.status).toBe(413);
    const wrongType = await app2.handle(post("/submit", "n=1", { "content-type": "text/plain" }));
    expect(wrongType.status).toBe(415);
    expect(wrongType.headers.get("ratelimit")).toContain("r=0");
    expect((await app2.handle(post("/submit", '{"n":1}'))).status).toBe(429);
  });

  test("an unreadable body is answered as such on routes with or without a body schema", async () => {
    const limiter = createRateLimiter(memoryStore(), policy);
    const handled: string[] = [];
    const app = new Elysia()
      .use(platform({ service: "test", logger }))
      .use(rateLimits({ trusted: parseTrustedProxies("loopback") }))
      .post("/limited", () => handled.push("limited"), { rateLimit: { key: "ip", limiter } })
      .post("/open", () => handled.push("open"));
    for (const path of ["/limited", "/open"]) {
      const res = await app.handle(post(path, "{"));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe("MALFORMED_JSON");
    }
    expect(handled).toEqual([]);
  });
});

describe("rateLimit macro, key: user", () => {
  test("each account has its own quota; a request without one is not counted", async () => {
    const app = testApp();
    const upload = (user?: string) =>
      app.handle(post("/upload", "{}", user ? { "x-user": user } : {}));
    expect((await upload("ada")).status).toBe(200);
    expect((await upload("ada")).status).toBe(200);
    const refused = await upload("ada");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-policy")).toBe('"per-user";q=2;w=60');
    expect((await upload("grace")).status).toBe(200);
    const anonymous = await upload();
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("ratelimit")).toBeNull();
  });
});

describe("rateLimit macro, documented", () => {
  test("the route carries its policy as an OpenAPI extension (the document adds the 429)", () => {
    const route = testApp().routes.find((r) => r.path === "/submit");
    expect(((route?.hooks.detail ?? {}) as Record<string, unknown>)["x-rate-limit"]).toEqual({
      key: "ip",
      policy: "submit",
      limit: 2,
      windowSeconds: 60,
    });
  });
});
