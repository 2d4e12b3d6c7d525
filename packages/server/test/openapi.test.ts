import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { parseTrustedProxies, problemCatalog } from "../src/index.ts";
import {
  buildDocument,
  mergeDocuments,
  type OpenApiDocument,
  openApiDocument,
  problemDeclarations,
  type RouteInfo,
  withHeaders,
} from "../src/openapi/index.ts";
import { get } from "./support/index.ts";

// A small app with an app-specific code, as the services declare theirs.
const table = { WIDGET_TAKEN: { status: 409, title: "Widget name taken" } } as const;
const problems = problemDeclarations(table);
const Money = t.Object({ amount: t.Integer({ minimum: 0 }), currency: t.String() });
const Widget = t.Object({ id: t.String(), name: t.String(), price: Money });
const WidgetCreate = t.Object({ name: t.String({ minLength: 1 }), price: Money });
const models = { widgets: { Money, Widget, WidgetCreate } };

const app = new Elysia()
  .use(
    openApiDocument({
      path: "/openapi.json",
      behindGateway: true,
      trustedProxies: parseTrustedProxies("none"),
      info: { title: "Widgets", version: "1.0.0" },
      models,
      problems: { ...problemCatalog, ...table },
      impliedProblems: (route) => (route.method === "POST" ? ["RATE_LIMITED"] : []),
    }),
  )
  .get("/widgets", () => [], {
    query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 100 })) }),
    response: { 200: t.Array(Widget) },
    detail: { summary: "List" },
  })
  .post("/widgets", () => ({ id: "1", name: "a", price: { amount: 1, currency: "EUR" } }), {
    body: WidgetCreate,
    headers: t.Object({ "idempotency-key": t.Optional(t.String()) }),
    response: { 201: withHeaders(Widget, "Location"), ...problems("WIDGET_TAKEN", "NOT_FOUND") },
    detail: {
      summary: "Create",
      parameters: [{ name: "idempotency-key", in: "header", required: true }],
    },
  });

const document = (await (await app.handle(get("/openapi.json"))).json()) as OpenApiDocument & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};
const create = document.paths["/widgets"]?.post as {
  parameters: { name: string; required: boolean }[];
  requestBody: unknown;
  responses: Record<string, { headers: object; content?: Record<string, unknown> }>;
};

describe("the OpenAPI document builder", () => {
  test("names the model files' shapes and refers to them, nested ones too", () => {
    expect(Object.keys(document.components.schemas ?? {}).sort()).toEqual(
      ["FieldProblem", "Money", "Problem", "Widget", "WidgetCreate"].sort(),
    );
    expect(JSON.stringify(create.requestBody)).toContain('"#/components/schemas/WidgetCreate"');
    expect(JSON.stringify(document.components.schemas?.Widget)).toContain(
      '"#/components/schemas/Money"',
    );
    // A list of widgets is an array of $refs.
    expect(JSON.stringify(document.paths["/widgets"]?.get)).toContain(
      '"items":{"$ref":"#/components/schemas/Widget"}',
    );
  });

  test("errors: declared, implied by the body and by the app, each code under its status", () => {
    const statuses = Object.keys(create.responses).sort();
    // 400 for a bad Host on every route; 502 and 504 from the gateway in front (behindGateway).
    expect(statuses).toEqual([
      "201",
      "400",
      "404",
      "409",
      "413",
      "415",
      "422",
      "429",
      "502",
      "504",
    ]);
    const codesAt = (status: string) => {
      const content = create.responses[status]?.content ?? {};
      expect(Object.keys(content)).toEqual(["application/problem+json"]);
      return JSON.stringify(content).match(/"enum":\[([^\]]*)\]/)?.[1];
    };
    expect(codesAt("409")).toBe('"WIDGET_TAKEN"');
    expect(codesAt("404")).toBe('"NOT_FOUND"');
    expect(codesAt("400")).toBe('"BAD_REQUEST","MALFORMED_JSON"');
    expect(codesAt("502")).toBe('"BAD_GATEWAY"');
    expect(codesAt("504")).toBe('"GATEWAY_TIMEOUT"');
    expect(codesAt("422")).toBe('"VALIDATION_FAILED"');
    expect(codesAt("429")).toBe('"RATE_LIMITED"');
  });

  test("headers: the request id everywhere, the quota on a limited route, what the route sends", () => {
    expect(Object.keys(create.responses["201"]?.headers ?? {}).sort()).toEqual(
      ["Location", "RateLimit", "RateLimit-Policy", "X-Request-Id"].sort(),
    );
    expect(Object.keys(create.responses["429"]?.headers ?? {})).toContain("Retry-After");
    expect(Object.keys(document.components.headers ?? {})).not.toContain("ETag");
  });

  test("query integers are integers; a route can make a header required", () => {
    const list = document.paths["/widgets"]?.get?.parameters as { schema: object }[] | undefined;
    const limit = list?.[0];
    expect(limit?.schema).toEqual({ minimum: 1, maximum: 100, type: "integer" });
    expect(create.parameters.find((p) => p.name === "idempotency-key")?.required).toBe(true);
  });

  test("public operations say so; servers is the origin the document was asked on", () => {
    expect(document.paths["/widgets"]?.get?.security).toEqual([]);
    expect(document.servers).toEqual([{ url: "http://localhost" }]);
  });

  test("two modules' different shapes under one name are named after their modules", () => {
    const a = t.Object({ x: t.String() });
    const b = t.Object({ y: t.Number() });
    const routes: RouteInfo[] = [
      { method: "POST", path: "/a", hooks: { body: a } },
      { method: "POST", path: "/b", hooks: { body: b } },
    ];
    const built = buildDocument(routes, {
      info: { title: "x", version: "1" },
      behindGateway: false,
      models: { first: { Body: a }, "second-module": { Body: b } },
      problems: problemCatalog,
    });
    expect(Object.keys(built.components.schemas)).toEqual(
      expect.arrayContaining(["FirstBody", "SecondModuleBody"]),
    );
  });
});

describe("merging documents (the gateway's)", () => {
  const doc = (paths: string[], schemas: Record<string, unknown>): OpenApiDocument => ({
    openapi: "3.1.0",
    info: { title: "x", version: "1" },
    paths: Object.fromEntries(
      paths.map((path) => [
        path,
        {
          get: { responses: { 200: { $ref: `#/components/schemas/${Object.keys(schemas)[0]}` } } },
        },
      ]),
    ),
    components: { schemas },
  });

  test("takes each path from its own service, keeps shared shapes once, renames clashes", () => {
    const merged = mergeDocuments({ openapi: "3.1.0", info: { title: "site", version: "1" } }, [
      {
        name: "one",
        document: doc(["/one", "/health"], { Thing: { type: "string" } }),
        includes: () => true,
      },
      {
        name: "two",
        document: doc(["/two", "/health"], { Thing: { type: "number" } }),
        includes: (path) => path === "/two",
      },
    ]);
    expect(Object.keys(merged.paths)).toEqual(["/health", "/one", "/two"]);
    expect(merged.components.schemas).toEqual({
      Thing: { type: "string" },
      TwoThing: { type: "number" },
    });
    expect(JSON.stringify(merged.paths["/two"])).toContain('"#/components/schemas/TwoThing"');
    expect(JSON.stringify(merged.paths["/health"])).toContain('"#/components/schemas/Thing"');
  });
});
