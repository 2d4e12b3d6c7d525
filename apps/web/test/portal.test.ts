import { describe, expect, test } from "bun:test";
import { createLogger, memorySink } from "@platform/server";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";
import { en } from "../src/client/portal/i18n/en.ts";
import { fr } from "../src/client/portal/i18n/fr.ts";
import { pickLanguage, translate } from "../src/client/portal/i18n/index.ts";
import { APPLICANT_ROUTES, TOKEN_PAGES } from "../src/client/portal/routes.ts";

const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});
const get = (path: string, headers: Record<string, string> = {}) =>
  app.handle(
    new Request(`http://web.test${path}`, { headers: { accept: "text/html", ...headers } }),
  );
/** A route's path with its `:id` filled, as a browser asks for it. */
const concrete = (path: string) => path.replace(":id", "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10");

describe("portal pages", () => {
  test.each(Object.entries(APPLICANT_ROUTES))(
    "%s (%s) is the portal's shell",
    async (page, path) => {
      const res = await get(concrete(path));
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(`<div id="app" data-page="${page}"></div>`);
      expect(html).toContain(`<script type="module" src="${bundle.scripts.portal}"></script>`);
      for (const [tag] of html.matchAll(/<script[^>]*>/g)) expect(tag).toMatch(/src="\/assets\//);
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self';");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("cache-control")).toBe(
        TOKEN_PAGES.includes(page as (typeof TOKEN_PAGES)[number]) ? "no-store" : "no-cache",
      );
    },
  );

  test("the emails' links and Stripe's return page exist with and without a trailing slash", async () => {
    for (const path of [
      "/account/verify-email?token=abc",
      "/account/reset-password/?token=abc",
      "/account/confirm-email-change?token=abc",
      "/account/forgot-password",
      "/payments/return?payment=x&result=success&session_id=cs_1",
      "/portal",
      "/portal/applications",
    ]) {
      expect((await get(path)).status).toBe(200);
    }
  });

  test("a token in the address is never written into the page", async () => {
    const html = await (await get("/account/reset-password?token=secret-token-value")).text();
    expect(html).not.toContain("secret-token-value");
  });

  test("the access log keeps the path, not the token in the query", async () => {
    const sink = memorySink();
    const logged = createApp({
      logger: createLogger({ service: "web", level: "info", sink }),
      bundle: () => bundle,
    });
    await logged.handle(
      new Request("http://web.test/account/verify-email?token=secret-token-value"),
    );
    await Bun.sleep(10);
    const lines = JSON.stringify(sink.lines());
    expect(lines).toContain("/account/verify-email");
    expect(lines).not.toContain("secret-token-value");
  });

  test("the language: the visitor's choice, else Accept-Language, else English", async () => {
    const english = await (await get("/portal/login")).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain(`<h1>${en["page.login.title"]}</h1>`);
    const french = await (
      await get("/portal/login", { "accept-language": "fr-CH, en;q=0.8" })
    ).text();
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain(`<h1>${fr["page.login.title"]}</h1>`);
    expect(french).toContain(fr["page.skip"]);
    const chosen = await (
      await get("/portal/login", { "accept-language": "fr", cookie: "a=1; portal_lang=en" })
    ).text();
    expect(chosen).toContain('<html lang="en">');
    expect((await get("/portal/")).headers.get("vary")).toContain("accept-language");
  });

  test("the language switch: the server sets the choice, then sends the visitor back (303)", async () => {
    const res = await get("/portal/language/fr?next=%2Fpayments%2Freturn%3Fpayment%3Dp1");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/payments/return?payment=p1");
    expect(res.headers.get("set-cookie")).toBe(
      "portal_lang=fr; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax",
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    const cookie = res.headers.get("set-cookie")?.split(";")[0] ?? "";
    const page = await (await get("/payments/return?payment=p1", { cookie })).text();
    expect(page).toContain('<html lang="fr">');
    const english = await get("/portal/language/en?next=%2Fportal%2Fstaff%2Fstats");
    expect(english.headers.get("location")).toBe("/portal/staff/stats");
    expect(english.headers.get("set-cookie")).toStartWith("portal_lang=en;");
  });

  test.each([
    "//evil.example/portal/",
    "/\\evil.example",
    "/\t/evil.example",
    "https://evil.example/portal/account",
    "javascript:alert(1)",
    "/api/v1/auth/logout/",
    "",
  ])("the language switch's next %p goes back to the catalogue, never elsewhere", async (next) => {
    const res = await get(`/portal/language/en?next=${encodeURIComponent(next)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/portal/");
  });

  test("a language the portal does not have is the 404 page, and sets nothing", async () => {
    const res = await get("/portal/language/xx?next=%2Fportal%2F");
    expect(res.status).toBe(404);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("an unknown portal path is still the 404 page", async () => {
    expect((await get("/portal/nope/nope")).status).toBe(404);
  });
});

describe("catalogue", () => {
  test("pickLanguage", () => {
    expect(pickLanguage(null, null)).toBe("en");
    expect(pickLanguage(null, "de-DE, fr;q=0.5")).toBe("fr");
    expect(pickLanguage(null, "fr;q=0, en")).toBe("en");
    expect(pickLanguage("portal_lang=fr", "en")).toBe("fr");
    expect(pickLanguage("portal_lang=xx", "fr")).toBe("fr");
  });

  test("French has every English key, none empty, with the same placeholders", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(fr[key].trim().length).toBeGreaterThan(0);
      expect(placeholders(fr[key])).toEqual(placeholders(en[key]));
    }
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
  });

  test("translate fills placeholders and leaves unknown ones", () => {
    expect(translate("en", "programs.count", { count: 3 })).toBe("3 programmes found.");
    expect(translate("fr", "programs.count")).toBe("{count} formations trouvées.");
  });

  test("every message the pages name dynamically exists (statuses, documents, levels, problems)", async () => {
    const models = await import("@platform/admissions/models");
    const keys = [
      ...models.STATUSES.map((s) => `status.${s}`),
      ...models.DOCUMENT_TYPES.map((d) => `document.${d}`),
      ...models.LEVELS.map((l) => `level.${l}`),
      ...models.PAYMENT_STATUSES.map((s) => `paymentStatus.${s}`),
      ...models.PAYMENT_STATUSES.map((s) => `return.${s}`),
      ...models.FEE_STATUSES.map((s) => `fee.${s}`),
      ...models.PROVIDERS.map((p) => `provider.${p}`),
      ...models.CHECKLIST_STATUSES.map((s) => `documentStatus.${s}`),
      ...["applicant", "reviewer", "admin", "system"].map((r) => `actor.${r}`),
      ...Object.keys(APPLICANT_ROUTES).flatMap((p) => [`page.${p}.title`, `page.${p}.description`]),
    ];
    expect(keys.filter((key) => !(key in en))).toEqual([]);
  });
});
