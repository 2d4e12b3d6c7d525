import { afterAll, describe, expect, test } from "bun:test";
import { parseTrustedProxies } from "@platform/server";
import { get } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { deadTarget, fakeUpstream, routeTo, silent } from "./support.ts";

// Two apps that serve documents of their own, as the real ones do: each has a health path the
// gateway does not route to it, and both name a shape `Problem` (the same) and `Item` (not).
const appDocument = (name: string, path: string, item: object) => ({
  openapi: "3.1.0",
  info: { title: name, version: "1" },
  tags: [{ name }],
  paths: {
    [path]: {
      get: {
        operationId: `get${name}`,
        tags: [name],
        responses: { 200: { content: { "application/json": { schema: ref("Item") } } } },
      },
    },
    "/health/live": { get: { operationId: `${name}Live`, responses: { 200: {} } } },
  },
  components: { schemas: { Item: item, Problem: { type: "object" } } },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

let asked = 0;
const leaderboard = fakeUpstream((request) => {
  asked++;
  return new URL(request.url).pathname === "/openapi.json"
    ? Response.json(appDocument("leaderboard", "/api/leaderboard", { type: "string" }))
    : new Response("no", { status: 404 });
});
const runner = fakeUpstream(() =>
  Response.json(appDocument("runner", "/api/run", { type: "number" })),
);
afterAll(() => {
  leaderboard.server.stop(true);
  runner.server.stop(true);
});

const gatewayWith = async (runnerTarget: string) =>
  createApp({
    routes: [
      routeTo("leaderboard", leaderboard.target, ["/api/leaderboard"], {
        openapiPath: "/openapi.json",
      }),
      routeTo("runner", runnerTarget, ["/api/run"], { openapiPath: "/openapi.json" }),
      routeTo("web", await deadTarget(), ["/"], { fallback: true }),
    ],
    trustedProxies: parseTrustedProxies("none"),
    logger: silent,
  });

describe("the site's OpenAPI document at /api/openapi.json", () => {
  test("merges every app's paths as the gateway routes them, with the gateway's own", async () => {
    const gateway = await gatewayWith(runner.target);
    const res = await gateway.handle(get("/api/openapi.json"));
    expect(res.status).toBe(200);
    const document = (await res.json()) as {
      servers: unknown;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    // The apps' own /health/live is not what /health/live reaches through the gateway.
    expect(Object.keys(document.paths)).toEqual([
      "/api/leaderboard",
      "/api/run",
      "/gateway/health",
      "/gateway/live",
    ]);
    expect(document.servers).toEqual([{ url: "http://localhost" }]);
    expect(document.components.schemas.Item).toEqual({ type: "string" });
    expect(document.components.schemas.RunnerItem).toEqual({ type: "number" });
    expect(JSON.stringify(document.paths["/api/run"])).toContain("RunnerItem");
    expect(document.components.schemas).toHaveProperty("GatewayHealth");
  });

  test("a complete document is kept a while: the apps are not asked on every request", async () => {
    const gateway = await gatewayWith(runner.target);
    await gateway.handle(get("/api/openapi.json"));
    const before = asked;
    await gateway.handle(get("/api/openapi.json"));
    expect(asked).toBe(before);
  });

  test("an app that does not answer is named, its paths left out, and it is asked again", async () => {
    const gateway = await gatewayWith(await deadTarget());
    const document = (await (await gateway.handle(get("/api/openapi.json"))).json()) as {
      info: { description: string };
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).not.toContain("/api/run");
    expect(document.info.description).toContain("Not listed now (no answer): runner");
    const before = asked;
    await gateway.handle(get("/api/openapi.json"));
    expect(asked).toBe(before + 1);
  });
});

describe("the site's reference page at /api/docs/", () => {
  test("loads the site's document with scripts from the gateway itself, nothing from a CDN", async () => {
    const gateway = await gatewayWith(runner.target);
    const page = await gateway.handle(get("/api/docs/"));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-spec-url="/api/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      expect(asset).toStartWith("/api/docs/assets/");
      expect((await gateway.handle(get(asset))).status).toBe(200);
    }
  });

  test("other paths under /api stay a problem+json 404", async () => {
    const res = await createApp({
      routes: [routeTo("web", await deadTarget(), ["/"], { fallback: true })],
      trustedProxies: parseTrustedProxies("none"),
      logger: silent,
    }).handle(get("/api/nothing"));
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toStartWith("application/problem+json");
  });
});
