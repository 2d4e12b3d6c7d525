/** The institution's own name, logo, colour and address, from configuration; "Platform" gone. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, createLogger } from "@platform/server";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";
import { PORTAL_ROUTES } from "../src/client/portal/routes.ts";
import { loadEnv, MAX_LOGO_BYTES } from "../src/env.ts";
import { contrastRatio } from "../src/modules/branding/contrast.ts";
import { brandingOf } from "../src/modules/branding/service.ts";

const dir = mkdtempSync(join(tmpdir(), "web-branding-"));
const logoPath = join(dir, "crest.svg");
writeFileSync(
  logoPath,
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
);
const branded = {
  WEB_INSTITUTION_NAME: "University of Example",
  WEB_INSTITUTION_LOGO: logoPath,
  WEB_PRIMARY_COLOUR: "#5A2D82",
  WEB_CONTACT_EMAIL: "admissions@example.ac.uk",
};

const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
  branding: brandingOf(loadEnv(branded)),
});
const page = (path: string, lang = "en") =>
  app.handle(
    new Request(`http://web.test${path}`, {
      headers: { accept: "text/html", cookie: `portal_lang=${lang}` },
    }),
  );
const concrete = (path: string) => path.replace(":id", "0198f2c4-5b7e-7c3a-9a51-0d3c7f1e2a10");

describe("contrast (WCAG 2.x)", () => {
  test("black on white is 21:1, a colour on itself 1:1, the default accent passes AA", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#0b5cad", "#0b5cad")).toBe(1);
    expect(contrastRatio("#0b5cad", "#ffffff")).toBeGreaterThan(4.5);
    // #767676 on white is the classic 4.54:1, just past AA.
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });
});

describe("configuration", () => {
  test("a primary colour failing AA is refused at start-up, naming the variable and the ratio", () => {
    for (const colour of ["#ffcc00", "#7fb3ff", "#888888"]) {
      let error: unknown;
      try {
        loadEnv({ WEB_PRIMARY_COLOUR: colour });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variables.map((v) => v.variable)).toEqual([
        "WEB_PRIMARY_COLOUR",
      ]);
      expect((error as Error).message).toMatch(/WEB_PRIMARY_COLOUR: contrast \d\.\d\d:1/);
    }
    expect(loadEnv({ WEB_PRIMARY_COLOUR: "#1d6b32" }).WEB_PRIMARY_COLOUR).toBe("#1d6b32");
    expect(() => loadEnv({ WEB_PRIMARY_COLOUR: "purple" })).toThrow(/WEB_PRIMARY_COLOUR/);
  });

  test("a logo that is missing, empty or too large is refused; a contact must be an address", () => {
    expect(() => loadEnv({ WEB_INSTITUTION_LOGO: join(dir, "none.svg") })).toThrow(
      /WEB_INSTITUTION_LOGO: no such file/,
    );
    const big = join(dir, "big.png");
    writeFileSync(big, new Uint8Array(MAX_LOGO_BYTES + 1));
    expect(() => loadEnv({ WEB_INSTITUTION_LOGO: big })).toThrow(/WEB_INSTITUTION_LOGO: must be/);
    expect(() => loadEnv({ WEB_INSTITUTION_LOGO: join(dir, "crest.gif") })).toThrow(
      /WEB_INSTITUTION_LOGO/,
    );
    expect(() => loadEnv({ WEB_CONTACT_EMAIL: "not an address" })).toThrow(/WEB_CONTACT_EMAIL/);
  });
});

describe("the portal's pages are the institution's", () => {
  test.each(Object.entries(PORTAL_ROUTES))(
    "%s: its name in the title and header, never Platform",
    async (_name, path) => {
      const html = await (await page(concrete(path))).text();
      expect(html).not.toContain("Platform");
      expect(html).toMatch(/<title>[^<]+ · University of Example<\/title>/);
      expect(html).toContain('<a class="brand" href="/portal/"');
      expect(html).toContain(
        '<meta name="institution-contact" content="admissions@example.ac.uk">',
      );
      expect(html).toContain('href="mailto:admissions@example.ac.uk"');
    },
  );

  test("the primary colour is the page's accent, in a style element carrying the CSP nonce", async () => {
    const res = await page("/portal/login");
    const html = await res.text();
    const nonce = /<style nonce="([^"]+)">:root\{--accent:#5a2d82\}<\/style>/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    expect(res.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
  });

  test("the logo is served at its hashed address, cached for good, and shown beside the name", async () => {
    const html = await (await page("/portal/")).text();
    const src = /<img class="brand-logo" src="([^"]+)" alt="">/.exec(html)?.[1] ?? "";
    expect(src).toMatch(/^\/assets\/logo-[0-9a-z]+\.svg$/);
    const logo = await app.handle(new Request(`http://web.test${src}`));
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/svg+xml");
    expect(logo.headers.get("cache-control")).toContain("immutable");
    expect(await logo.text()).toContain("<svg");
  });

  test("in French, the shell's own words are French", async () => {
    const html = await (await page("/portal/login", "fr")).text();
    expect(html).toContain("<title>Connexion · University of Example</title>");
    expect(html).toContain("Écrire au service des admissions :");
    expect(html).toContain('aria-label="University of Example: accueil"');
  });

  test("with nothing configured: a neutral name, no logo, no address", async () => {
    const plain = createApp({
      logger: createLogger({ service: "web", level: "silent" }),
      bundle: () => bundle,
    });
    const html = await (
      await plain.handle(
        new Request("http://web.test/portal/", { headers: { accept: "text/html" } }),
      )
    ).text();
    expect(html).toContain("<title>Programmes · Admissions portal</title>");
    expect(html).not.toContain("brand-logo");
    expect(html).not.toContain("mailto:");
  });
});
