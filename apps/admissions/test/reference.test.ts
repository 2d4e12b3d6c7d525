import { describe, expect, test } from "bun:test";
import { get } from "@platform/server/testing";
import { validate } from "@readme/openapi-parser";
import { admissionsProblems } from "../src/problems.ts";
import { setupApp } from "./support.ts";

const ctx = await setupApp();

type Operation = {
  summary?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string }> };
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

describe("the human references", () => {
  test.each([["/api/v1/docs/"], ["/api/v1/docs"], ["/api/v1/redoc/"], ["/api/v1/redoc"]])(
    "%s is an HTML page that loads the schema",
    async (path) => {
      const page = await ctx.app.handle(get(path));
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toStartWith("text/html");
      // Absolute: a relative URL would resolve under the page's own path.
      expect(await page.text()).toMatch(/(url"?[:=]"|spec-url=")\/api\/v1\/schema\//);
    },
  );
});
