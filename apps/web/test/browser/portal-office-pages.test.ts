/**
 * Every page of the office in Chromium through the real gateway, in English and in French: the
 * page's language, its title from that catalogue, no message key showing through, axe-core on
 * each, every control reached by Tab alone; and a reviewer who opens an admin's page is told,
 * in words, that it is not theirs.
 */
import { describe, expect, test } from "bun:test";
import { en } from "../../src/client/portal/i18n/en.ts";
import { fr } from "../../src/client/portal/i18n/fr.ts";
import { hasChromium, NO_CHROMIUM, type Page } from "./chromium.ts";
import { byTestId } from "./keyboard.ts";
import { staffMember, staffSignIn } from "./office-setup.ts";
import { portalHarness } from "./portal-harness.ts";

if (!hasChromium) console.warn(`portal office pages browser tests ${NO_CHROMIUM}`);

/** Expected: the sign-in page's CSRF probe (401), a reviewer's refused reads (403). */
const EXPECTED = /status of (401|403)/;

/** The office's pages an admin works on, by their catalogue title's key. */
const PAGES = [
  ["/portal/staff/programmes", "page.staffProgrammes.title"],
  ["/portal/staff/programmes/new", "page.staffProgrammeNew.title"],
  ["/portal/staff/reasons", "page.staffReasons.title"],
  ["/portal/staff/payments", "page.staffPayments.title"],
  ["/portal/staff/webhooks", "page.staffWebhooks.title"],
  ["/portal/staff/data-requests", "page.staffDataRequests.title"],
  ["/portal/staff/security", "page.staffSecurity.title"],
  ["/portal/staff/audit", "page.staffAudit.title"],
  ["/portal/staff/", "page.staffQueue.title"],
] as const;

describe.skipIf(!hasChromium)(
  hasChromium ? "the office's pages in Chromium" : `the office's pages (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-office-page",
    });

    /** Every enabled control in <main> is reached by Tab from the top of the page. */
    const everyControlByTab = async (page: Page) => {
      const controls = await page.$$eval(
        "main a[href], main button:not([disabled]), main input, main select, main textarea",
        (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length,
      );
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const reached = new Set<string>();
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press("Tab");
        const where = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el?.closest("main")) return null;
          const all = [...document.querySelectorAll("main *")];
          return String(all.indexOf(el));
        });
        if (where !== null) reached.add(where);
        if (reached.size >= controls) break;
      }
      expect(reached.size).toBeGreaterThanOrEqual(controls);
    };

    test("each page in English and French: its words, axe, every control by Tab", async () => {
      const { base, context } = ctx();
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base);
      for (const [language, catalogue] of [
        ["en", en],
        ["fr", fr],
      ] as const) {
        await page.goto(`${base}/portal/language/${language}?next=%2Fportal%2Fstaff%2F`);
        await page.waitForSelector(byTestId("queue-count"));
        for (const [path, title] of PAGES) {
          await page.goto(`${base}${path}`);
          await page.waitForSelector("main h1");
          // Loaded: nothing says "Loading…" any more.
          await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"]'));
          expect(await page.getAttribute("html", "lang")).toBe(language);
          expect(await page.textContent("h1")).toBe(catalogue[title]);
          // No message key shows through (`office.…`, `staff.…`).
          expect(await page.textContent("main")).not.toMatch(
            /\b(office|staff|page)\.[a-z]+\.[a-zA-Z]/,
          );
          await everyControlByTab(page);
          const name = path.replace("/portal/staff/", "").replaceAll("/", "-") || "queue";
          await check(page, `${name}-${language}`);
        }
      }
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);

    test("a reviewer on an admin's page is told in words; their own security page works", async () => {
      const { base, admin, context } = ctx();
      const reviewer = await staffMember(admin, "Rosa Reader");
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base, reviewer.email, "a-long-reviewer-password");
      // The admins' pages are not in a reviewer's navigation.
      expect(await page.$('a[href="/portal/staff/payments"]')).toBeNull();
      expect(await page.$('a[href="/portal/staff/security"]')).not.toBeNull();
      await page.goto(`${base}/portal/staff/payments`);
      await page.waitForSelector('main [role="alert"]');
      expect(await page.textContent('main [role="alert"]')).toContain(
        "You are not allowed to do this.",
      );
      await check(page, "payments-reviewer");
      await page.goto(`${base}/portal/staff/security`);
      await page.waitForSelector(byTestId("mfa-enrol"));
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
