/**
 * The office's catalogue in Chromium, keyboard only, through the real gateway to the real
 * admissions app (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL): a new
 * programme (refusals shown in words beside their fields, in an error summary that links to
 * them), its intake, rubric and weights, blind review, reviewers, closing it; the decision
 * reasons. axe-core on every state, screenshots at both widths.
 */
import { describe, expect, test } from "bun:test";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, tabTo } from "./keyboard.ts";
import { retype, staffMember, staffSignIn } from "./office-setup.ts";
import { portalHarness } from "./portal-harness.ts";

if (!hasChromium) console.warn(`portal office catalogue browser tests ${NO_CHROMIUM}`);

/**
 * Expected: the sign-in page's CSRF probe before there is a session (401), the rubric's 404 on a
 * programme without one, and the refused forms' 409 and 422.
 */
const EXPECTED = /status of (401|404|409|422)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "the office's catalogue in Chromium" : `the office's catalogue (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-office",
    });

    test("a programme created with its intake, rubric, blind review and reviewers, then closed", async () => {
      const { admin, context } = ctx();
      const reviewer = await staffMember(admin, "Petra Pool");
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base);
      await activate(page, 'a[href="/portal/staff/programmes"]');
      // A new database has no programme: the empty state, and the way to make one.
      await page.waitForSelector(byTestId("empty"));
      expect(await page.textContent(byTestId("empty"))).toBe(
        "No programmes yet: create the first one.",
      );
      await check(page, "programmes-empty");
      await activate(page, byTestId("programme-new"));
      await page.waitForSelector(byTestId("programme-form"));
      await check(page, "programme-new");

      // Refused in the page (a fee that is no amount), then by the API (a one-letter code).
      const code = `T${crypto.randomUUID().slice(0, 5).toUpperCase()}`;
      await retype(page, "#programme-code", "X");
      await retype(page, "#programme-name", "Applied Testing");
      await retype(page, "#programme-department", "School of Testing");
      await retype(page, "#programme-duration", "12");
      await retype(page, "#programme-fee", "fifty");
      await tabTo(page, byTestId("programme-document-transcript"));
      await page.keyboard.press("Space");
      await activate(page, byTestId("programme-save"));
      await page.waitForSelector(`${byTestId("programme-problem")} a[href="#programme-fee"]`);
      // The summary has the focus, and its link leads to the field.
      await page.waitForFunction(
        (id) => document.activeElement?.getAttribute("data-testid") === id,
        "programme-problem",
      );
      expect(await page.textContent("#programme-fee-error")).toContain("like 50.00");
      await check(page, "programme-new-refused");
      await retype(page, "#programme-fee", "50.00");
      await activate(page, byTestId("programme-save"));
      await page.waitForSelector(`${byTestId("programme-problem")} a[href="#programme-code"]`);
      expect(await page.textContent("#programme-code-error")).toContain("2 to 32 capital letters");
      // No schema text anywhere in the refusal.
      expect(await page.textContent(byTestId("programme-form"))).not.toContain("pattern");
      await retype(page, "#programme-code", code);
      await activate(page, byTestId("programme-save"));
      await page.waitForURL(/\/portal\/staff\/programmes\/[0-9a-f-]{36}\?created=1$/);
      await page.waitForSelector(byTestId("programme-notice"));
      expect(await page.textContent(byTestId("programme-title"))).toContain(code);
      await check(page, "programme");

      // An intake: its term, opening, deadline and places, by keyboard.
      await activate(page, byTestId("intake-new"));
      await page.waitForSelector(byTestId("intake-form"));
      // The focus is put there once the form has rendered: waited for, not raced.
      await page.waitForFunction((id) => document.activeElement?.id === id, "intake-term");
      await page.keyboard.type("Autumn 2031");
      const year = new Date().getFullYear();
      for (const [id, value] of [
        ["#intake-opens-day", "1"],
        ["#intake-opens-month", "1"],
        ["#intake-opens-year", String(year)],
        ["#intake-deadline-day", "31"],
        ["#intake-deadline-month", "12"],
        ["#intake-deadline-year", String(year + 1)],
        ["#intake-capacity", "none"],
      ] as const) {
        await retype(page, id, value);
      }
      await activate(page, byTestId("intake-save"));
      await page.waitForSelector(`${byTestId("intake-problem")} a[href="#intake-capacity"]`);
      await check(page, "intake-refused");
      await retype(page, "#intake-capacity", "40");
      await activate(page, byTestId("intake-save"));
      await page.waitForSelector(`${byTestId("intake")}[data-open="true"]`);
      expect(await page.textContent(byTestId("intakes"))).toContain("Autumn 2031");

      // The rubric: two criteria with their weights.
      await retype(page, "#rubric-label-0", "Academic record");
      await retype(page, "#rubric-weight-0", "3");
      await activate(page, byTestId("rubric-add"));
      await retype(page, "#rubric-label-1", "Motivation");
      await retype(page, "#rubric-weight-1", "1");
      await activate(page, byTestId("rubric-save"));
      await page.waitForSelector(byTestId("rubric-saved"));
      // Blind review on, with a gap of 1.5 for an extra review.
      await tabTo(page, byTestId("settings-blind"));
      await page.keyboard.press("Space");
      await retype(page, "#settings-threshold", "1.5");
      await activate(page, byTestId("settings-save"));
      await page.waitForSelector(byTestId("settings-saved"));
      // The reviewer joins the pool.
      await tabTo(page, `${byTestId("pool-member")}[value="${reviewer.id}"]`);
      await page.keyboard.press("Space");
      await activate(page, byTestId("pool-save"));
      await page.waitForSelector(byTestId("pool-saved"));
      await check(page, "programme-configured");

      const id = page.url().split("/").at(-1)?.split("?")[0] ?? "";
      const rubric = await admin.call<{
        criteria: { key: string; label: string; weight: number }[];
      }>("GET", `/staff/programs/${id}/rubric/`);
      expect(rubric.criteria).toEqual([
        { key: "academic_record", label: "Academic record", weight: 3 },
        { key: "motivation", label: "Motivation", weight: 1 },
      ]);
      const settings = await admin.call<{ blindReview: boolean; disagreementThreshold: number }>(
        "GET",
        `/staff/programs/${id}/review-settings/`,
      );
      expect(settings).toMatchObject({ blindReview: true, disagreementThreshold: 1.5 });
      const pool = await admin.call<{ reviewer: { id: string } }[]>(
        "GET",
        `/staff/programs/${id}/reviewers/`,
      );
      expect(pool.map((m) => m.reviewer.id)).toEqual([reviewer.id]);
      const detail = await admin.call<{ requiredDocuments: string[]; applicationFee: unknown }>(
        "GET",
        `/catalog/programs/${id}/`,
      );
      expect(detail).toMatchObject({
        requiredDocuments: ["transcript"],
        applicationFee: { amount: 5000, currency: "EUR" },
      });

      // The intake closed now, then the programme itself.
      await activate(page, byTestId("intake-toggle"));
      await page.waitForSelector(`${byTestId("intake")}[data-open="false"]`);
      await activate(page, byTestId("programme-toggle"));
      await page.waitForSelector(`${byTestId("programme-state")}[data-active="false"]`);
      await check(page, "programme-closed");

      // The catalogue lists it, closed.
      await activate(page, 'a[href="/portal/staff/programmes"]');
      await page.waitForSelector(`${byTestId("staff-programmes")} :text("${code}")`);
      await check(page, "programmes");
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);

    test("decision reasons: one added from its words, one turned off; a taken code said in words", async () => {
      const { base, context } = ctx();
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base);
      await page.goto(`${base}/portal/staff/reasons`);
      await page.waitForSelector(byTestId("reasons-rejection"));
      await check(page, "reasons");
      const label = `Portfolio incomplete ${crypto.randomUUID().slice(0, 4)}`;
      await retype(page, "#reason-label", label);
      await activate(page, byTestId("reason-save"));
      await page.waitForSelector(byTestId("reason-created"));
      await page.waitForSelector(`${byTestId("reason")}:has-text("${label}")`);
      // The same words again make the same code: refused, in words.
      await retype(page, "#reason-label", label);
      await activate(page, byTestId("reason-save"));
      await page.waitForSelector(`.problem:has-text("already has this code")`);
      await activate(
        page,
        `${byTestId("reason")}[data-label="${label}"] ${byTestId("reason-toggle")}`,
      );
      await page.waitForSelector(`${byTestId("reason")}[data-active="false"]:has-text("${label}")`);
      await check(page, "reasons-changed");
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test("in French: the catalogue's page and its form from the catalogues", async () => {
      const { base, context } = ctx();
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base);
      await page.goto(`${base}/portal/language/fr?next=%2Fportal%2Fstaff%2Fprogrammes%2Fnew`);
      await page.waitForSelector(byTestId("programme-form"));
      expect(await page.getAttribute("html", "lang")).toBe("fr");
      expect(await page.textContent(byTestId("programme-save"))).toBe("Créer la formation");
      await activate(page, byTestId("programme-save"));
      await page.waitForSelector(
        `${byTestId("programme-problem")} h2:has-text("Il y a un problème")`,
      );
      await check(page, "programme-new-fr");
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
