import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import {
  clientGuards,
  createLogger,
  createRateLimiter,
  HttpProblem,
  memorySink,
  memoryStore,
  parseTrustedProxies,
  platform,
  rateLimits,
} from "../src/index.ts";
import { get, jsonRequest, problemOf } from "./support/index.ts";

function makeApp(opts: { maxJsonBytes?: number } = {}) {
  const sink = memorySink();
  const logger = createLogger({ service: "test", level: "info", sink });
  const app = new Elysia()
    .use(platform({ service: "test", logger, ...opts }))
    .post("/items", ({ body }) => body, {
      body: t.Object({ name: t.String({ minLength: 1 }), score: t.Number() }),
    })
    .post("/kind", ({ body }) => body, { body: t.Object({ kind: t.UnionEnum(["a", "b"]) }) })
    .post("/literals", ({ body }) => body, {
      body: t.Object({
        kind: t.Union([t.Literal("x"), t.Literal("y")]),
        size: t.Nullable(t.Union([t.Literal(1), t.Literal(2)])),
      }),
    })
    .get("/pages", ({ query }) => query, {
      query: t.Object({
        limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
        offset: t.Optional(t.Integer({ minimum: 0 })),
        sort: t.Optional(t.UnionEnum(["name", "date"])),
        tags: t.Optional(t.String({ pattern: "^(red|dark-blue)(,(red|dark-blue))*$" })),
        code: t.Optional(t.String({ pattern: "^(ab|cd)(,(ef))*$" })),
      }),
    })
    .get("/pages/:n", ({ params }) => params, {
      params: t.Object({ n: t.Integer({ minimum: 1, maximum: 9 }) }),
    })
    .post("/nullable", ({ body }) => body, {
      body: t.Object({
        code: t.Nullable(t.String({ pattern: "^[A-Z]{2}$" })),
        place: t.Nullable(t.Object({ lines: t.Array(t.String(), { minItems: 1 }) })),
      }),
    })
    .post("/either", ({ body }) => body, {
      body: t.Object({
        item: t.Union([
          t.String({ maxLength: 3 }),
          t.Object({ text: t.String({ maxLength: 3 }), due: t.Optional(t.Number()) }),
        ]),
      }),
    })
    .post("/rules", ({ body }) => body, {
      body: t.Object(
        {
          name: t.String({ minLength: 2 }),
          email: t.String({ format: "email" }),
          age: t.Integer({ maximum: 150 }),
        },
        { additionalProperties: false },
      ),
    })
    .post("/conflict", () => {
      throw new HttpProblem(
        { code: "ILLEGAL_TRANSITION", status: 409, title: "Illegal transition" },
        {
          detail: "draft → enrolled is not allowed",
        },
      );
    })
    .get("/boom", () => {
      throw new Error("secret detail at /srv/app/db.ts");
    })
    .get("/made", () => new Response("made", { status: 201 }));
  return { app, sink };
}

describe("problem+json for every error", () => {
  const { app } = makeApp({ maxJsonBytes: 1_024 });

  test("malformed JSON → 400 MALFORMED_JSON", async () => {
    const res = await app.handle(jsonRequest("/items", '{"name":"a",'));
    expect(res.status).toBe(400);
    const problem = await problemOf(res);
    expect(problem).toMatchObject({
      status: 400,
      code: "MALFORMED_JSON",
      type: "/problems/malformed-json",
    });
    expect(problem.requestId).toBe(res.headers.get("x-request-id") ?? "");
  });

  test("invalid UTF-8 → 400", async () => {
    const body = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const res = await app.handle(
      new Request("http://localhost/items", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
    );
    expect((await problemOf(res)).code).toBe("MALFORMED_JSON");
  });

  test.each([
    ["text/plain", "text/plain"],
    ["XML", "application/xml"],
    ["a urlencoded form", "application/x-www-form-urlencoded"],
  ])("wrong content type (%s) → 415", async (_, contentType) => {
    const res = await app.handle(
      jsonRequest("/items", { name: "a", score: 1 }, { headers: { "content-type": contentType } }),
    );
    expect(res.status).toBe(415);
    expect((await problemOf(res)).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  test("missing content type with a body → 415", async () => {
    const res = await app.handle(
      new Request("http://localhost/items", {
        method: "POST",
        body: new Blob(['{"name":"a","score":1}']),
      }),
    );
    expect(res.status).toBe(415);
  });

  test("JSON with a charset parameter and +json types are JSON", async () => {
    for (const type of ["application/json; charset=utf-8", "application/merge-patch+json"]) {
      const res = await app.handle(
        jsonRequest("/items", { name: "a", score: 1 }, { headers: { "content-type": type } }),
      );
      expect(res.status).toBe(200);
    }
  });

  test("a body over the limit → 413, by Content-Length or by streaming", async () => {
    const big = JSON.stringify({ name: "x".repeat(2_000), score: 1 });
    expect((await app.handle(jsonRequest("/items", big))).status).toBe(413);
    const chunked = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 100; i++) controller.enqueue(new TextEncoder().encode(" ".repeat(100)));
        controller.close();
      },
    });
    const res = await app.handle(
      new Request("http://localhost/items", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: chunked,
      }),
    );
    expect(res.status).toBe(413);
    expect((await problemOf(res)).code).toBe("PAYLOAD_TOO_LARGE");
  });

  test("schema failures → 422 listing every field with a JSON Pointer", async () => {
    const res = await app.handle(jsonRequest("/items", { name: "", score: "high" }));
    expect(res.status).toBe(422);
    const problem = await problemOf(res);
    expect(problem.code).toBe("VALIDATION_FAILED");
    const paths = problem.errors?.map((e) => e.path) ?? [];
    expect(paths).toContain("/body/name");
    expect(paths).toContain("/body/score");
  });

  test("an enum failure names the allowed values", async () => {
    const res = await app.handle(jsonRequest("/kind", { kind: "c" }));
    expect((await problemOf(res)).errors).toEqual([
      { path: "/body/kind", message: "Expected one of: a, b", rule: "enum" },
    ]);
  });

  test("an enum written as a union of literals names the allowed values too", async () => {
    const res = await app.handle(jsonRequest("/literals", { kind: "z", size: 3 }));
    expect((await problemOf(res)).errors).toEqual([
      { path: "/body/kind", message: "Expected one of: x, y", rule: "enum" },
      { path: "/body/size", message: "Expected one of: 1, 2", rule: "enum" },
    ]);
    const ok = await app.handle(jsonRequest("/literals", { kind: "x", size: null }));
    expect(ok.status).toBe(200);
  });

  test("a query or path number out of range points at its parameter, not at /property", async () => {
    const cases: [string, string, string, Record<string, unknown>][] = [
      [
        "/pages?limit=1000",
        "/query/limit",
        "Expected integer to be less or equal to 100",
        { rule: "maximum", limit: 100 },
      ],
      [
        "/pages?limit=5&offset=-1",
        "/query/offset",
        "Expected integer to be greater or equal to 0",
        { rule: "minimum", limit: 0 },
      ],
      [
        "/pages?limit=abc",
        "/query/limit",
        "Expected string to match 'integer' format",
        { rule: "type" },
      ],
      ["/pages?sort=size", "/query/sort", "Expected one of: name, date", { rule: "enum" }],
      [
        "/pages?tags=red,green",
        "/query/tags",
        "Expected one or more of, separated by commas: red, dark-blue",
        { rule: "enum" },
      ],
      // Not a list of one enumeration: the schema's own words.
      [
        "/pages?code=zz",
        "/query/code",
        "Expected string to match '^(ab|cd)(,(ef))*$'",
        { rule: "pattern" },
      ],
      [
        "/pages/12",
        "/params/n",
        "Expected integer to be less or equal to 9",
        { rule: "maximum", limit: 9 },
      ],
    ];
    for (const [url, path, message, rule] of cases) {
      const res = await app.handle(get(url));
      expect(res.status, url).toBe(422);
      const problem = await problemOf(res);
      expect(problem.errors, url).toEqual([{ path, message, ...rule }]);
      expect(problem.detail, url).toBe(`Invalid request: ${path} ${message}`);
    }
    expect((await app.handle(get("/pages?limit=100&offset=0"))).status).toBe(200);
  });

  test("of parameters holding the same text, the one whose schema failed is named", async () => {
    // offset=0 is in range and limit=0 is not, whichever comes first in the URL.
    for (const url of ["/pages?offset=0&limit=0", "/pages?limit=0&offset=0"]) {
      const problem = await problemOf(await app.handle(get(url)));
      expect(problem.errors, url).toEqual([
        {
          path: "/query/limit",
          message: "Expected integer to be greater or equal to 1",
          rule: "minimum",
          limit: 1,
        },
      ]);
    }
    const both = await problemOf(await app.handle(get("/pages/12?limit=12")));
    expect(both.errors?.[0]?.path).toBe("/params/n");
  });

  test("a nullable field says why its value failed, not just that the union did", async () => {
    const res = await app.handle(jsonRequest("/nullable", { code: "gb", place: { lines: [] } }));
    expect((await problemOf(res)).errors).toEqual([
      { path: "/body/code", message: "Expected string to match '^[A-Z]{2}$'", rule: "pattern" },
      {
        path: "/body/place/lines",
        message: "Expected array length to be greater or equal to 1",
        rule: "minItems",
        limit: 1,
      },
    ]);
    const ok = await app.handle(jsonRequest("/nullable", { code: null, place: null }));
    expect(ok.status).toBe(200);
  });

  test("a union of kinds says why the value failed the variant of its own kind", async () => {
    const asText = await app.handle(jsonRequest("/either", { item: "abcd" }));
    expect((await problemOf(asText)).errors).toEqual([
      {
        path: "/body/item",
        message: "Expected string length less or equal to 3",
        rule: "maxLength",
        limit: 3,
      },
    ]);
    const asObject = await app.handle(jsonRequest("/either", { item: { text: "abcd" } }));
    expect((await problemOf(asObject)).errors).toEqual([
      {
        path: "/body/item/text",
        message: "Expected string length less or equal to 3",
        rule: "maxLength",
        limit: 3,
      },
    ]);
    // A value of neither kind: no variant to blame, the union's own message.
    const neither = await app.handle(jsonRequest("/either", { item: 7 }));
    expect((await problemOf(neither)).errors).toEqual([
      { path: "/body/item", message: "Expected union value", rule: "type" },
    ]);
  });

  // Elysia drops properties the schema does not name before validating, so none is reported.
  test("each field error names its rule and bound, for a client to say in its own words", async () => {
    const res = await app.handle(jsonRequest("/rules", { email: "nope", age: 200, extra: 1 }));
    const rules = (await problemOf(res)).errors?.map(({ path, rule, limit }) => ({
      path,
      rule,
      limit,
    }));
    expect(rules).toEqual([
      { path: "/body/name", rule: "required", limit: undefined },
      { path: "/body/email", rule: "format", limit: "email" },
      { path: "/body/age", rule: "maximum", limit: 150 },
    ]);
    const kinds = await app.handle(
      jsonRequest("/rules", { name: 5, email: "ada@example.org", age: "x" }),
    );
    expect((await problemOf(kinds)).errors?.map((e) => e.rule)).toEqual(["type", "type"]);
  });

  test("1e309 parses to Infinity and is refused as a number", async () => {
    const res = await app.handle(jsonRequest("/items", '{"name":"a","score":1e309}'));
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors?.[0]?.path).toBe("/body/score");
  });

  test("an empty body labelled JSON → 400 (an empty document is not JSON)", async () => {
    const res = await app.handle(jsonRequest("/items", ""));
    expect(res.status).toBe(400);
    expect((await problemOf(res)).detail).toContain("empty");
  });

  test("no body at all → 422 (the body is required)", async () => {
    const res = await app.handle(new Request("http://localhost/items", { method: "POST" }));
    expect(res.status).toBe(422);
  });

  test("a feature-specific problem keeps its own code and status", async () => {
    const res = await app.handle(jsonRequest("/conflict", {}));
    expect(res.status).toBe(409);
    expect(await problemOf(res)).toMatchObject({
      code: "ILLEGAL_TRANSITION",
      title: "Illegal transition",
    });
  });

  test("an unknown route → 404 problem", async () => {
    const res = await app.handle(get("/nope"));
    expect(res.status).toBe(404);
    expect((await problemOf(res)).code).toBe("NOT_FOUND");
  });

  test("an unexpected error → 500 without its message, stack or paths; logged instead", async () => {
    const { app: logged, sink } = makeApp();
    const res = await logged.handle(get("/boom"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret");
    expect(text).not.toContain("/srv/");
    expect(text).not.toContain("at ");
    const errorLine = sink.lines().find((line) => line.level === "error");
    expect(JSON.stringify(errorLine)).toContain("secret detail");
  });
});

describe("request ids and the access log", () => {
  test("every response carries an X-Request-Id, generated when absent", async () => {
    const { app } = makeApp();
    const a = (await app.handle(get("/made"))).headers.get("x-request-id");
    const b = (await app.handle(get("/made"))).headers.get("x-request-id");
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  test("a sane incoming id is kept, an unsafe one replaced", async () => {
    const { app } = makeApp();
    const kept = await app.handle(get("/made", { headers: { "x-request-id": "abc-123" } }));
    expect(kept.headers.get("x-request-id")).toBe("abc-123");
    const replaced = await app.handle(
      get("/made", { headers: { "x-request-id": "a\u0001<script>" } }),
    );
    expect(replaced.headers.get("x-request-id")).not.toContain("script");
    const errored = await app.handle(get("/nope", { headers: { "x-request-id": "trace-9" } }));
    expect(errored.headers.get("x-request-id")).toBe("trace-9");
    expect((await problemOf(errored)).requestId).toBe("trace-9");
  });

  test("one JSON line per request with method, path, status, duration and request id", async () => {
    const { app, sink } = makeApp();
    await app.handle(get("/made?token=secret", { headers: { "x-request-id": "log-1" } }));
    await app.handle(jsonRequest("/items", "{"));
    await Bun.sleep(5);
    const lines = sink.lines().filter((line) => line.msg === "request");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      method: "GET",
      path: "/made",
      status: 201,
      requestId: "log-1",
      service: "test",
    });
    expect(typeof lines[0]?.durationMs).toBe("number");
    expect(lines[1]).toMatchObject({ method: "POST", path: "/items", status: 400 });
    expect(JSON.stringify(lines)).not.toContain("secret");
  });
});

describe("clientGuards and the rateLimit macro", () => {
  const limited = () => {
    const limiter = createRateLimiter(memoryStore(), { name: "items", limit: 3, windowMs: 60_000 });
    const logger = createLogger({ service: "t", level: "silent" });
    return new Elysia()
      .use(platform({ service: "t", logger, maxJsonBytes: 100 }))
      .use(clientGuards(parseTrustedProxies("loopback")))
      .use(rateLimits({ trusted: parseTrustedProxies("loopback") }))
      .post("/limited", ({ body, clientIp }) => ({ body, clientIp }), {
        body: t.Object({ n: t.Number() }),
        rateLimit: { key: "ip", limiter },
      })
      .post("/free", () => "free");
  };

  test("a limited route answers 429 with Retry-After and IETF headers once the quota is spent", async () => {
    const app = limited();
    const first = await app.handle(jsonRequest("/limited", { n: 1 }));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ body: { n: 1 }, clientIp: "unknown" });
    expect(first.headers.get("ratelimit")).toBe('"items";r=2;t=60');
    expect(first.headers.get("ratelimit-policy")).toBe('"items";q=3;w=60');
    await app.handle(jsonRequest("/limited/", { n: 2 })); // the trailing slash is the same route
    await app.handle(jsonRequest("/limited?x=1", { n: 3 }));
    const refused = await app.handle(jsonRequest("/limited", { n: 4 }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("ratelimit")).toBe('"items";r=0;t=60');
    expect((await problemOf(refused)).code).toBe("RATE_LIMITED");
    expect((await app.handle(jsonRequest("/free", {}))).status).toBe(200);
  });

  test("400, 413, 415 and 422 answers count too, and carry the headers", async () => {
    const app = limited();
    const bad = [
      jsonRequest("/limited", "{"),
      jsonRequest("/limited", { n: 1, pad: "x".repeat(200) }),
      jsonRequest("/limited", "{}", { headers: { "content-type": "text/plain" } }),
    ];
    const statuses = [];
    for (const request of bad) {
      const res = await app.handle(request);
      statuses.push(res.status);
      expect(res.headers.get("ratelimit-policy")).toBe('"items";q=3;w=60');
    }
    expect(statuses).toEqual([400, 413, 415]);
    const refused = await app.handle(jsonRequest("/limited", { n: "not a number" }));
    expect(refused.status).toBe(429);
  });

  test("a GET to a POST-limited path is not limited", async () => {
    const app = limited();
    for (let i = 0; i < 5; i++) await app.handle(jsonRequest("/limited", { n: i }));
    const res = await app.handle(get("/limited"));
    expect(res.status).toBe(404);
    expect(res.headers.get("ratelimit")).toBeNull();
  });
});
