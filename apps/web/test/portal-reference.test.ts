/**
 * The referee's page (issue 19, references): the emailed link lands on a portal shell that
 * holds no token, is never cached, and speaks both languages.
 */
import { describe, expect, test } from "bun:test";
import { REFERENCE_PAGE } from "@platform/admissions/models";
import { createLogger, memorySink } from "@platform/server";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";
import { en } from "../src/client/portal/i18n/en.ts";
import { fr } from "../src/client/portal/i18n/fr.ts";
import { APPLICANT_ROUTES, TOKEN_PAGES } from "../src/client/portal/routes.ts";

const bundle = await buildClient({ production: true });
const sink = memorySink();
const app = createApp({
  logger: createLogger({ service: "web", level: "info", sink }),
  bundle: () => bundle,
});
const get = (path: string) =>
  app.handle(new Request(`http://web.test${path}`, { headers: { accept: "text/html" } }));

describe("the referee's page", () => {
  test("is where the admissions email's link points", () => {
    expect(REFERENCE_PAGE).toBe(APPLICANT_ROUTES.reference);
    expect(TOKEN_PAGES).toContain("reference");
  });

  test("is the portal's shell, never cached, never framed, with the token nowhere in it or the log", async () => {
    for (const path of ["/references/write?token=secret-token-value", "/references/write/"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div id="app" data-page="reference"></div>');
      expect(html).toContain(`<h1>${en["page.reference.title"]}</h1>`);
      expect(html).not.toContain("secret-token-value");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self';");
      for (const [tag] of html.matchAll(/<script[^>]*>/g)) expect(tag).toMatch(/src="\/assets\//);
    }
    await Bun.sleep(10);
    const lines = JSON.stringify(sink.lines());
    expect(lines).toContain("/references/write");
    expect(lines).not.toContain("secret-token-value");
  });

  test("its messages exist in English and French, the link's problems included", () => {
    const keys = Object.keys(en).filter(
      (key) =>
        key.startsWith("reference.") ||
        key.startsWith("page.reference.") ||
        key.includes("REFERENCE"),
    );
    expect(keys).toContain("problem.INVALID_REFERENCE_LINK");
    expect(keys).toContain("problem.REFERENCES_CLOSED");
    for (const key of keys as (keyof typeof en)[]) {
      expect(fr[key].length).toBeGreaterThan(0);
      expect(fr[key]).not.toBe(en[key]);
    }
  });
});
