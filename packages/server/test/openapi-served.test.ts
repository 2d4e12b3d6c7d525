/**
 * What a reader of a served document relies on: `servers` is the address they used (and only
 * a trusted proxy can say otherwise), operationIds read as `<resource>.<verb>`, every error code
 * has its own example, and an operation without a description says who may call it.
 */
import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { rememberPeer } from "../src/http/peer.ts";
import { parseTrustedProxies, problemCatalog } from "../src/index.ts";
import {
  buildDocument,
  type OpenApiDocument,
  openApiDocument,
  type RouteInfo,
} from "../src/openapi/index.ts";

const Item = t.Object({ id: t.String(), name: t.String() });
const Page = t.Object({
  count: t.Integer(),
  next: t.Union([t.String(), t.Null()]),
  previous: t.Union([t.String(), t.Null()]),
  results: t.Array(Item),
});
const models = { items: { Item, Page } };

function served(publicUrl?: string) {
  return new Elysia()
    .use(
      openApiDocument({
        path: "/openapi.json",
        info: { title: "Items", version: "1.0.0" },
        behindGateway: true,
        trustedProxies: parseTrustedProxies("loopback"),
        publicUrl,
        models,
        problems: problemCatalog,
      }),
    )
    .get("/api/v1/items/", () => ({ count: 0, next: null, previous: null, results: [] }), {
      response: { 200: Page },
      detail: { tags: ["items"] },
    })
    .post("/api/v1/items/", () => ({ id: "1", name: "a" }), {
      body: t.Object({ name: t.String({ minLength: 1 }) }),
      response: { 201: Item },
    })
    .get("/api/v1/items/:id/", () => ({ id: "1", name: "a" }), { response: { 200: Item } })
    .patch("/api/v1/items/:id/", () => ({ id: "1", name: "a" }), {
      body: t.Object({ name: t.String() }),
      response: { 200: Item },
    })
    .post("/api/v1/items/:id/archive/", () => ({ id: "1", name: "a" }), {
      response: { 200: Item },
    })
    .get("/api/v1/items/:id/history/", () => [], { response: { 200: t.Array(Item) } })
    .get("/health/live", () => "ok");
}

type Served = OpenApiDocument & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

/** The document as a caller at `peer` (none: in process) asking with `headers` sees it. */
async function documentFor(
  app: ReturnType<typeof served>,
  peer: string | undefined,
  headers: Record<string, string> = {},
) {
  const request = new Request("http://127.0.0.1:3001/openapi.json", { headers });
  if (peer) rememberPeer(request, peer);
  return (await (await app.handle(request)).json()) as Served;
}

describe("servers: the address the caller used", () => {
  const app = served();
  const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "admissions.example.org" };

  test("from a trusted proxy, its X-Forwarded-Proto and X-Forwarded-Host", async () => {
    const document = await documentFor(app, "127.0.0.1", forwarded);
    expect(document.servers).toEqual([{ url: "https://admissions.example.org" }]);
    const chain = { "x-forwarded-proto": "https, http", "x-forwarded-host": "a.example.org:8443" };
    expect((await documentFor(app, "::1", chain)).servers).toEqual([
      { url: "https://a.example.org:8443" },
    ]);
  });

  test("from anyone else, or when malformed, the request's own origin", async () => {
    expect((await documentFor(app, "203.0.113.9", forwarded)).servers).toEqual([
      { url: "http://127.0.0.1:3001" },
    ]);
    const bad = { "x-forwarded-proto": "gopher", "x-forwarded-host": "evil.example/path" };
    expect((await documentFor(app, "127.0.0.1", bad)).servers).toEqual([
      { url: "http://127.0.0.1:3001" },
    ]);
    expect((await documentFor(app, undefined, forwarded)).servers).toEqual([
      { url: "http://127.0.0.1:3001" },
    ]);
  });

  test("a configured public URL over anything the request says", async () => {
    const configured = served("https://apply.example.org/");
    expect((await documentFor(configured, "127.0.0.1", forwarded)).servers).toEqual([
      { url: "https://apply.example.org" },
    ]);
  });
});

describe("operations", async () => {
  const document = await documentFor(served(), undefined);
  const op = (path: string, method: string) => document.paths[path]?.[method] ?? {};

  test("operationIds read as <resource>.<verb>", () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(ids.sort()).toEqual([
      "health.live.get",
      "items.archive",
      "items.create",
      "items.get",
      "items.history.list",
      "items.list",
      "items.update",
    ]);
  });

  test("every error code has an example of its own, valid for its status", () => {
    for (const [status, response] of Object.entries(op("/api/v1/items/", "post").responses ?? {})) {
      if (Number(status) < 400) continue;
      const content = (response as { content: Record<string, { examples: object }> }).content;
      const examples = Object.entries(content["application/problem+json"]?.examples ?? {});
      expect(examples.length, status).toBeGreaterThan(0);
      for (const [code, example] of examples) {
        const value = (example as { value: Record<string, unknown> }).value;
        expect(value.code).toBe(code);
        expect(value.status).toBe(Number(status));
        expect(value.title).toBe(problemCatalog[code as keyof typeof problemCatalog].title);
      }
    }
    const invalid = JSON.stringify(op("/api/v1/items/", "post").responses);
    expect(invalid).toContain('"path":"/body/name"');
    expect(JSON.stringify(op("/api/v1/items/{id}/", "get").responses)).not.toContain("/body/");
  });

  test("the gateway's answers on every operation; 413 where there is a body", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses as object);
        expect(statuses, `${method} ${path}`).toEqual(
          expect.arrayContaining(["400", "502", "504"]),
        );
        expect(statuses.includes("413"), `${method} ${path}`).toBe("requestBody" in operation);
      }
    }
  });

  test("an operation without a description says who may call it", () => {
    expect(op("/health/live", "get").description).toBe("Public: no credentials needed.");
    expect(document.info).toMatchObject({ contact: { name: "Admissions platform operators" } });
  });
});

describe("the builder refuses", () => {
  const options = {
    info: { title: "x", version: "1" },
    behindGateway: false,
    models: {},
    problems: problemCatalog,
  };

  test("two operations with one operationId", () => {
    const routes: RouteInfo[] = [
      { method: "GET", path: "/a/", hooks: { detail: { operationId: "same.get" } } },
      { method: "GET", path: "/b/", hooks: { detail: { operationId: "same.get" } } },
    ];
    expect(() => buildDocument(routes, options)).toThrow(
      "operationId same.get names both GET /a/ and GET /b/",
    );
  });

  test("a tag the document does not declare", () => {
    const routes: RouteInfo[] = [
      { method: "GET", path: "/a/", hooks: { detail: { tags: ["b"] } } },
    ];
    expect(() => buildDocument(routes, { ...options, tags: [{ name: "a" }] })).toThrow(
      'GET /a/: tag "b" is not in the document\'s tags',
    );
  });
});
