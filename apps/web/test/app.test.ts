import { describe, expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { problemOf } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";
import { PAGES } from "../src/modules/pages/model.ts";
import { CONTENT_SECURITY_POLICY, pagePolicy } from "../src/security.ts";

const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});
const get = (path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://web.test${path}`, { headers }));

describe("pages", () => {
  test.each(Object.values(PAGES).map((page) => page.path))(
    "%s is an HTML page naming its assets",
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await res.text();
      expect(html).toContain('<html lang="en">');
      expect(html).toContain(`<link rel="stylesheet" href="${bundle.styles}">`);
      // No inline script: every <script> has a src under /assets.
      for (const [tag] of html.matchAll(/<script[^>]*>/g)) expect(tag).toMatch(/src="\/assets\//);
      expect(html).not.toContain("/__dev/reload");
    },
  );

  test("home links to every page, and the portal loads its script", async () => {
    const home = await (await get("/")).text();
    for (const path of ["/game/", "/playground/", "/bench/", "/portal/"]) {
      expect(home).toContain(`href="${path}"`);
    }
    expect(await (await get("/portal/")).text()).toContain(bundle.scripts.portal);
  });

  test("script pages load their own entry and nothing else's", async () => {
    const game = await (await get("/game/")).text();
    expect(game).toContain(bundle.scripts.game);
    expect(game).not.toContain(bundle.scripts.playground);
    const home = await (await get("/")).text();
    expect(home).not.toContain("<script");
  });

  test("a page without its trailing slash is the same page", async () => {
    const withoutNonce = async (path: string) =>
      (await (await get(path)).text()).replace(/content="[A-Za-z0-9+/=]{24}"/, "");
    expect(await withoutNonce("/bench")).toBe(await withoutNonce("/bench/"));
  });
});

describe("security headers", () => {
  test.each(["/", "/game/", "/nope", "/health/live", `${bundle.scripts.game}`])(
    "%s",
    async (path) => {
      const res = await get(path);
      expect(res.headers.get("content-security-policy")).toStartWith(
        "default-src 'self'; script-src 'self';",
      );
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      expect(res.headers.get("x-request-id")).toBeTruthy();
    },
  );

  test("the CSP allows no inline script and no framing", () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-inline");
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-eval");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  test("a page's style nonce is fresh per response and the one its meta tag hands the scripts", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await get("/playground/");
      const html = await res.text();
      const nonce = html.match(/<meta name="style-nonce" content="([^"]+)">/)?.[1] ?? "";
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.headers.get("content-security-policy")).toBe(
        pagePolicy(nonce, { styleAttributes: true }),
      );
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(3);
    expect(pagePolicy("n")).toContain("style-src 'self' 'nonce-n'");
    expect(pagePolicy("n")).not.toContain("unsafe-inline");
    // Style attributes only where the editor is (see security.ts).
    expect((await get("/bench/")).headers.get("content-security-policy")).not.toContain(
      "style-src-attr",
    );
  });
});

describe("not found", () => {
  test("a browser gets an HTML 404 page", async () => {
    const res = await get("/no/such/page", { accept: "text/html,application/xhtml+xml" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(await res.text()).toContain("Page not found");
  });

  test("an API client gets problem+json, with the request id", async () => {
    const res = await get("/no/such/page", { "x-request-id": "req-42" });
    expect(res.status).toBe(404);
    expect(await problemOf(res)).toMatchObject({ code: "NOT_FOUND", requestId: "req-42" });
  });

  test("a POST to a page is a 404 problem, not a page", async () => {
    const res = await app.handle(
      new Request("http://web.test/game/", { method: "POST", body: "x" }),
    );
    expect(res.status).toBe(404);
    expect((await problemOf(res)).code).toBe("NOT_FOUND");
  });

  test("the path in an HTML 404 is escaped", async () => {
    const res = await get("/%3Cscript%3Ealert(1)%3C/script%3E", { accept: "text/html" });
    const html = await res.text();
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;");
  });
});

describe("health", () => {
  test("live and ready answer 200 on the app's own port", async () => {
    expect((await get("/health/live")).status).toBe(200);
    expect(await (await get("/health/ready")).json()).toMatchObject({
      status: "ok",
      service: "web",
    });
  });
});
