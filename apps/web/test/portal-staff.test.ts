import { describe, expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";
import { en } from "../src/client/portal/i18n/en.ts";
import { PREVIEW_PAGES, STAFF_ROUTES } from "../src/client/portal/staff/routes.ts";

const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});
const get = (path: string, headers: Record<string, string> = {}) =>
  app.handle(
    new Request(`http://web.test${path}`, { headers: { accept: "text/html", ...headers } }),
  );
const concrete = (path: string) => path.replace(":id", "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10");

describe("staff pages", () => {
  test.each(Object.entries(STAFF_ROUTES))("%s (%s) is the portal's shell", async (page, path) => {
    const res = await get(concrete(path));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<div id="app" data-page="${page}"></div>`);
    expect(html).toContain(`<script type="module" src="${bundle.scripts.portal}"></script>`);
    for (const [tag] of html.matchAll(/<script[^>]*>/g)) expect(tag).toMatch(/src="\/assets\//);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    // blob: images and frames (the document previews) on the page that previews, nowhere else.
    if (PREVIEW_PAGES.includes(page)) {
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).toContain("frame-src blob:");
    } else {
      expect(csp).not.toContain("blob:");
    }
  });

  test("the applicant pages' policy allows no blob: either", async () => {
    const csp = (await get("/portal/applications/x")).headers.get("content-security-policy");
    expect(csp).not.toContain("blob:");
  });

  test("the shells speak French when asked", async () => {
    const html = await (await get("/portal/staff/", { cookie: "portal_lang=fr" })).text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("<h1>File d&#39;évaluation</h1>");
  });

  test("every message the staff pages name dynamically exists", async () => {
    const { RECOMMENDATIONS, DECISIONS } = await import("@platform/admissions/models");
    const keys = [
      ...RECOMMENDATIONS.map((r) => `staff.recommendation.${r}`),
      ...DECISIONS.map((d) => `staff.decision.${d}`),
      ...Object.keys(STAFF_ROUTES).flatMap((p) => [`page.${p}.title`, `page.${p}.description`]),
    ];
    expect(keys.filter((key) => !(key in en))).toEqual([]);
  });
});
