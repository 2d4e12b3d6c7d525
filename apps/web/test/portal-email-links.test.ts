/**
 * Every link the admissions app puts in an email lands on a working portal page. The paths are
 * collected from the admissions source (the email templates: `${portalUrl}/…` and the path
 * constants the templates join to it) and from the table in docs/admissions/accounts.md, so a new email
 * linking to a page the portal lacks fails here.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "@platform/server";
import { Glob } from "bun";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";

const ROOT = join(import.meta.dir, "..", "..", "..");
const ADMISSIONS_SRC = join(ROOT, "apps", "admissions", "src");

/** `${portalUrl}/account/profile`, `${f.portalUrl}/account/data`, and `"/account/…"` path constants. */
function pathsInSource(): Set<string> {
  const found = new Set<string>();
  for (const file of new Glob("**/*.ts").scanSync(ADMISSIONS_SRC)) {
    const text = readFileSync(join(ADMISSIONS_SRC, file), "utf8");
    if (!text.includes("portalUrl")) continue;
    for (const m of text.matchAll(/portalUrl\}(\/[a-z0-9/-]*[a-z0-9])/g)) found.add(m[1] ?? "");
    for (const m of text.matchAll(/"(\/(?:account|portal|payments)\/[a-z0-9/-]*)"/g))
      found.add(m[1] ?? "");
  }
  found.delete("");
  // An API URL is the API's, not a page: the verify URL printed on signed letters and receipts
  // (`${portalUrl}/api/v1/signed-documents/verify/…`) is served by admissions through the
  // gateway and tested there.
  for (const path of found) if (path.startsWith("/api/")) found.delete(path);
  return found;
}

/** The first column of the "Links in emails" table. */
function pathsInDocs(): Set<string> {
  const doc = readFileSync(join(ROOT, "docs", "admissions", "accounts.md"), "utf8");
  const section = doc.split("#### Links in emails")[1]?.split("\n## ")[0] ?? "";
  return new Set([...section.matchAll(/^\| `(\/[a-z/-]+)/gm)].map((m) => m[1] ?? ""));
}

const bundle = await buildClient({ production: true });
const app = createApp({
  logger: createLogger({ service: "web", level: "silent" }),
  bundle: () => bundle,
});

describe("links in the admissions emails", () => {
  const fromSource = pathsInSource();
  const fromDocs = pathsInDocs();

  test("are found (the collection itself works)", () => {
    // The emails at the time of writing: four token and recovery pages, profile, security, data.
    for (const path of [
      "/account/verify-email",
      "/account/reset-password",
      "/account/confirm-email-change",
      "/account/forgot-password",
      "/account/profile",
      "/account/security",
      "/account/data",
    ])
      expect(fromSource).toContain(path);
    expect(fromDocs.size).toBeGreaterThanOrEqual(4);
  });

  test.each([...new Set([...fromSource, ...fromDocs])].sort())(
    "%s is a portal page",
    async (path) => {
      const res = await app.handle(
        new Request(`http://web.test${path}`, { headers: { accept: "text/html" } }),
      );
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toMatch(/<div id="app" data-page="\w+"><\/div>/);
      expect(html).toContain(`<script type="module" src="${bundle.scripts.portal}"></script>`);
    },
  );
});
