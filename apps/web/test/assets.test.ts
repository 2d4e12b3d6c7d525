import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { createLogger } from "@platform/server";
import { problemOf } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";
import { acceptsGzip } from "../src/modules/assets/service.ts";

const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});
const get = (path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://web.test${path}`, { headers }));

describe("the client build", () => {
  test("has the three page scripts, the style sheet and shared chunks, all content-hashed", () => {
    for (const url of [bundle.scripts.game, bundle.scripts.playground, bundle.scripts.bench]) {
      expect(url).toMatch(/^\/assets\/[a-z-]+-[a-z0-9]+\.js$/);
    }
    expect(bundle.styles).toMatch(/^\/assets\/site-[a-z0-9]+\.css$/);
    expect([...bundle.assets.keys()].some((name) => name.startsWith("chunk-"))).toBe(true);
  });

  test("no server code or Elysia ends up in the browser bundle", () => {
    const all = [...bundle.assets.values()].map((a) => new TextDecoder().decode(a.body)).join("\n");
    expect(all).not.toContain("elysia");
    expect(all).not.toContain("TypeBox");
  });
});

describe("GET /assets/:file", () => {
  test("gzip when accepted: the same bytes, immutable caching, an ETag", async () => {
    const name = bundle.scripts.game;
    const res = await get(name, { "accept-encoding": "gzip, br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("vary")).toBe("accept-encoding");
    const raw = new Uint8Array(await res.arrayBuffer());
    const plain = await (await get(name)).text();
    expect(new TextDecoder().decode(gunzipSync(raw))).toBe(plain);
  });

  test("identity when gzip is not accepted; 304 for a matching ETag", async () => {
    const res = await get(bundle.styles, { "accept-encoding": "gzip;q=0" });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const etag = res.headers.get("etag") ?? "";
    const again = await get(bundle.styles, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("an unknown or traversing asset name is a 404 problem", async () => {
    for (const path of ["/assets/nope.js", "/assets/..%2Fsrc%2Findex.ts", "/assets/"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect((await problemOf(res)).code).toBe("NOT_FOUND");
    }
  });

  test.each([
    ["gzip", true],
    ["br, gzip;q=0.5", true],
    ["*", true],
    ["gzip;q=0", false],
    ["br", false],
    ["", false],
  ] as const)("Accept-Encoding %p → gzip %p", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
