import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { problemCatalog } from "@platform/server";
import { get } from "@platform/server/testing";
import { validate } from "@readme/openapi-parser";
import { MODELS } from "../src/openapi-models.ts";
import { admissionsProblems } from "../src/problems.ts";
import { setupApp } from "./support.ts";

const ctx = await setupApp();

type Response = { headers?: Record<string, { $ref: string }>; content?: Record<string, unknown> };
type Operation = {
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses?: Record<string, Response>;
};
type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string }>;
    schemas: Record<string, unknown>;
    headers: Record<string, unknown>;
  };
};

const res = await ctx.app.handle(get("/api/v1/schema/"));
const document = (await res.json()) as Document;
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);

describe("the OpenAPI document at /api/v1/schema/", () => {
  test("is valid OpenAPI 3.1, per a real validator", async () => {
    expect(res.status).toBe(200);
    expect(document.openapi).toStartWith("3.1");
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(JSON.stringify(document)).not.toContain("noValidate");
  });

  test("covers every route the app serves, in the documented trailing-slash form", () => {
    const served = ctx.app.routes
      .filter((route) => !route.hooks?.detail?.hide && route.path.startsWith("/api/v1/"))
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    const documented = operations.map(({ method, path }) => `${method} ${path}`);
    expect(served.length).toBeGreaterThan(15);
    for (const route of served) expect(documented).toContain(route);
    for (const { path } of operations) {
      if (path.startsWith("/api/v1/")) expect(path).toEndWith("/");
    }
  });

  test("declares both auth schemes, and the CSRF header, used on protected routes", () => {
    expect(document.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      cookieAuth: { type: "apiKey", in: "cookie", name: "__Host-admissions_session" },
      csrfToken: { type: "apiKey", in: "header", name: "X-CSRF-Token" },
    });
    const applications = document.paths["/api/v1/applications/"];
    expect(applications?.get?.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(applications?.post?.security).toEqual([
      { bearerAuth: [] },
      { cookieAuth: [], csrfToken: [] },
    ]);
  });

  test("every operation has a summary, a success response and error responses", () => {
    for (const { path, method, operation } of operations) {
      const statuses = Object.keys(operation.responses ?? {});
      expect(
        statuses.some((s) => s.startsWith("2")),
        `${method} ${path}`,
      ).toBe(true);
      // The shared /health/live and /health/ready come from @platform/server as they are.
      if (path.startsWith("/api/v1/") || path === "/health/redis/") {
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(
          statuses.some((s) => Number(s) >= 400),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
  });

  test("request bodies are JSON with a schema (uploads: multipart), and carry examples", () => {
    const bodies = operations.filter(({ operation }) => operation.requestBody);
    expect(bodies.length).toBeGreaterThan(10);
    for (const { operation } of bodies) {
      const content = operation.requestBody?.content ?? {};
      const schema = content["application/json"]?.schema ?? content["multipart/form-data"]?.schema;
      expect(schema).toBeDefined();
    }
    const upload = document.paths["/api/v1/applications/{id}/documents/"]?.post?.requestBody;
    expect(JSON.stringify(upload?.content["multipart/form-data"])).toContain('"binary"');
    const login = document.paths["/api/v1/auth/login/"]?.post?.requestBody;
    expect(JSON.stringify(login)).toContain('"examples"');
  });

  test("the admissions error codes appear where a client meets them", () => {
    const text = JSON.stringify(document);
    for (const code of ["ILLEGAL_TRANSITION", "APPLICATION_FEE_UNPAID", "REFRESH_TOKEN_REUSED"]) {
      expect(code in admissionsProblems).toBe(true);
      expect(text).toContain(code);
    }
  });
});

const allProblems: Record<string, { status: number }> = {
  ...problemCatalog,
  ...admissionsProblems,
};
const op = (path: string, method: string) => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};
const headerNames = (response: Response | undefined) => Object.keys(response?.headers ?? {});

describe("the document's shapes, errors and headers (issue 17)", () => {
  test("names its schemas: success bodies and request bodies are $refs into components", () => {
    expect(Object.keys(document.components.schemas).length).toBeGreaterThan(50);
    for (const name of ["Application", "Program", "Problem", "Payment", "LoginBody", "User"]) {
      expect(document.components.schemas).toHaveProperty(name);
    }
    expect(op("/api/v1/catalog/programs/{id}/", "get").responses?.["200"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/ProgramDetail" } } },
    });
    // Nested too: a page of programs refers to its item (a program and its next deadline).
    expect(JSON.stringify(document.components.schemas.ProgramPage)).toContain(
      '"#/components/schemas/ProgramListItem"',
    );
    const refs = JSON.stringify(document).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of new Set(refs)) {
      expect(document.components.schemas).toHaveProperty(ref.split("/").at(-1) ?? "");
    }
  });

  test("every model.ts is one of the named-schema sources", () => {
    const modules = readdirSync(join(import.meta.dir, "../src/modules"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .filter((entry) => readdirSync(join(entry.parentPath, entry.name)).includes("model.ts"));
    expect(Object.keys(MODELS).length).toBe(modules.length);
  });

  test("every error is application/problem+json listing real codes, each under its own status", () => {
    let errors = 0;
    for (const { path, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 400) continue;
        errors++;
        expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toEqual([
          "application/problem+json",
        ]);
        const codes = JSON.stringify(response.content).match(/"enum":\[([^\]]*)\]/)?.[1];
        expect(codes, `${method} ${path} ${status}`).toBeTruthy();
        for (const code of JSON.parse(`[${codes}]`) as string[]) {
          expect(allProblems[code]?.status, `${method} ${path} ${code}`).toBe(Number(status));
        }
      }
    }
    expect(errors).toBeGreaterThan(150);
  });

  test("codes follow from what a route declares: body, credentials, CSRF, its own", () => {
    const codesOf = (path: string, method: string, status: string) =>
      JSON.stringify(op(path, method).responses?.[status]?.content ?? {});
    const create = "/api/v1/applications/";
    expect(codesOf(create, "post", "400")).toContain("MALFORMED_JSON");
    expect(codesOf(create, "post", "415")).toContain("UNSUPPORTED_MEDIA_TYPE");
    expect(codesOf(create, "post", "422")).toContain("VALIDATION_FAILED");
    expect(codesOf(create, "post", "401")).toContain("INVALID_TOKEN");
    expect(codesOf(create, "post", "403")).toContain("CSRF_TOKEN_MISSING");
    expect(codesOf(create, "post", "409")).toContain("APPLICATION_EXISTS");
    // A read: no CSRF, no body codes.
    expect(codesOf(create, "get", "403")).not.toContain("CSRF");
    expect(op(create, "get").responses).not.toHaveProperty("415");
    expect(codesOf("/api/v1/applications/{id}/submit/", "post", "409")).toContain(
      "APPLICATION_FEE_UNPAID",
    );
  });

  test("declares the headers the server sends", () => {
    expect(Object.keys(document.components.headers).sort()).toEqual(
      [
        "ETag",
        "Idempotent-Replayed",
        "Location",
        "RateLimit",
        "RateLimit-Policy",
        "Retry-After",
        "Set-Cookie",
        "X-Request-Id",
      ].sort(),
    );
    for (const { operation } of operations) {
      for (const response of Object.values(operation.responses ?? {})) {
        expect(headerNames(response)).toContain("X-Request-Id");
      }
    }
    expect(headerNames(op("/api/v1/applications/{id}/", "get").responses?.["200"])).toContain(
      "ETag",
    );
    const pay = op("/api/v1/applications/{id}/payments/", "post").responses;
    expect(headerNames(pay?.["201"])).toContain("Location");
    expect(headerNames(op("/api/v1/auth/login/", "post").responses?.["200"])).toContain(
      "Set-Cookie",
    );
    const register = op("/api/v1/auth/register/", "post").responses;
    expect(headerNames(register?.["202"])).toEqual(
      expect.arrayContaining(["RateLimit-Policy", "RateLimit"]),
    );
    expect(headerNames(register?.["429"])).toContain("Retry-After");
    expect(headerNames(op("/api/v1/auth/login/", "post").responses?.["429"])).toContain(
      "Retry-After",
    );
  });

  test("integers are integers, required headers are required, servers are given", () => {
    const limit = op("/api/v1/applications/", "get").parameters?.find((p) => p.name === "limit");
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(JSON.stringify(document)).not.toContain('"format":"integer"');
    const key = op("/api/v1/applications/{id}/payments/", "post").parameters?.find(
      (p) => p.name === "idempotency-key",
    );
    expect(key).toMatchObject({ in: "header", required: true });
    expect(document.servers).toEqual([{ url: "http://localhost" }]);
  });
});

describe("the human references", () => {
  test.each([["/api/v1/docs/"], ["/api/v1/docs"], ["/api/v1/redoc/"], ["/api/v1/redoc"]])(
    "%s is an HTML page that loads the schema",
    async (path) => {
      const page = await ctx.app.handle(get(path));
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toStartWith("text/html");
      // Absolute: a relative URL would resolve under the page's own path.
      const html = await page.text();
      expect(html).toMatch(/(url"?[:=]"|spec-url=")\/api\/v1\/schema\//);
      // Offline: nothing from another origin, and the policy says so to the browser.
      expect(html).not.toMatch(/https?:\/\//);
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    },
  );

  test("the page's scripts and styles are served from the installed package", async () => {
    const html = await (await ctx.app.handle(get("/api/v1/docs/"))).text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(assets.length).toBe(3);
    for (const asset of assets) {
      const res = await ctx.app.handle(get(asset));
      expect(res.status, asset).toBe(200);
      expect(res.headers.get("content-type"), asset).toMatch(/javascript|css/);
      expect((await res.text()).length, asset).toBeGreaterThan(100);
    }
    const missing = await ctx.app.handle(get("/api/v1/docs/assets/package.json"));
    expect(missing.status).toBe(404);
  });
});
