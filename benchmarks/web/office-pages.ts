#!/usr/bin/env bun
/**
 * Script bytes of the office's staff pages (issue 37), as an admin's Chromium loads each one
 * with an empty cache through the real gateway to the real admissions app: gzip bytes as
 * transferred (every .js the page fetched), against the portal's budget of 150 KB per page
 * (benchmarks/web/budgets.ts). Prints; asserts nothing (DEVELOPERS.md: figures come from scripts).
 *
 *   bun benchmarks/web/office-pages.ts
 *
 * A throwaway SQLite database (or a new PostgreSQL one with TEST_DATABASE_URL), its admin made by
 * `create-admin`. Ports: WEB_TEST_PORTS (default 4100-4199).
 */
import { ADMIN, admissionsBackend } from "../../apps/web/test/browser/admissions.ts";
import { hasChromium, launch } from "../../apps/web/test/browser/chromium.ts";
import { startStack } from "../../apps/web/test/browser/stack.ts";

const BUDGET_KB = 150;

/** Each page and what shows once it has loaded what it reads. */
const PAGES = [
  ["/portal/staff/", '[data-testid="queue-filter"]'],
  ["/portal/staff/programmes", '[data-testid="programme-new"]'],
  ["/portal/staff/programmes/new", '[data-testid="programme-form"]'],
  ["/portal/staff/reasons", '[data-testid="reason-form"]'],
  ["/portal/staff/payments", '[data-testid="desk-search"]'],
  ["/portal/staff/audit", '[data-testid="audit-verify"]'],
  ["/portal/staff/webhooks", '[data-testid="webhook-new"]'],
  ["/portal/staff/data-requests", "main select"],
  ["/portal/staff/security", '[data-testid="mfa-enrol"]'],
] as const;

type ResourceTiming = { name: string; encodedBodySize: number };

export async function measureOfficePages(): Promise<void> {
  const backend = await admissionsBackend();
  const stack = await startStack({
    apps: ["admissions"],
    before: async (base) => {
      backend.createAdmin(base);
      return { admissions: backend.env(base) };
    },
  });
  const browser = await launch();
  try {
    console.log(`\noffice pages: an admin in Chromium via ${stack.base}, empty cache each page`);
    const page = await browser.context.newPage();
    await page.goto(`${stack.base}/portal/staff/login`);
    await page.fill('[data-testid="login-email"]', ADMIN.email);
    await page.fill('[data-testid="login-password"]', ADMIN.password);
    await page.press('[data-testid="login-password"]', "Enter");
    await page.waitForSelector('[data-testid="queue-count"]', { timeout: 30_000 });
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    for (const [path, ready] of PAGES) {
      await page.goto(`${stack.base}${path}`);
      await page.waitForSelector(ready, { timeout: 30_000 });
      const { bytes, files } = await page.evaluate(() => {
        let total = 0;
        let count = 0;
        for (const entry of performance.getEntriesByType(
          "resource",
        ) as unknown as ResourceTiming[]) {
          if (!new URL(entry.name).pathname.endsWith(".js")) continue;
          total += entry.encodedBodySize;
          count++;
        }
        return { bytes: total, files: count };
      });
      const kb = bytes / 1024;
      console.log(
        `  ${path.padEnd(32)} ${kb.toFixed(1).padStart(6)} KB gzip in ${files} scripts (budget ${BUDGET_KB})${kb > BUDGET_KB ? " OVER" : ""}`,
      );
    }
  } finally {
    await browser.close();
    await stack.stop();
    await backend.cleanup();
  }
}

if (import.meta.main) {
  if (!hasChromium) {
    console.error("office-pages: /usr/bin/chromium is missing (apt-get install -y chromium)");
    process.exit(1);
  }
  await measureOfficePages();
}
