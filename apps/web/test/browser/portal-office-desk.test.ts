/**
 * The office's desk in Chromium, keyboard only, through the real gateway to the real admissions
 * app (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL): a bank transfer
 * found by its reference as a statement prints it, refused when short (nothing changes), then
 * confirmed; the applicant submits; a reviewer assigned on the application page; the office's
 * queue filtered by reviewer and by flag, sorted, and its CSV the filtered set. axe-core on
 * every state, screenshots at both widths.
 */
import { describe, expect, test } from "bun:test";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, tabTo } from "./keyboard.ts";
import {
  officeProgramme,
  pendingTransfer,
  retype,
  staffMember,
  staffSignIn,
} from "./office-setup.ts";
import { portalHarness } from "./portal-harness.ts";

if (!hasChromium) console.warn(`portal office desk browser tests ${NO_CHROMIUM}`);

/** Expected: the sign-in page's CSRF probe (401) and the short transfer's refusal (409). */
const EXPECTED = /status of (401|409)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "the office's desk in Chromium" : `the office's desk (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-office",
    });

    test("a transfer confirmed at the desk, a reviewer assigned, the queue filtered and exported", async () => {
      const { base, admin, mailbox, context } = ctx();
      const rita = await staffMember(admin, "Rita Desk");
      const programme = await officeProgramme(admin, "Desk Testing", [rita.id]);
      const ada = await pendingTransfer(base, mailbox, programme.intakeId, "Ada Lovelace");
      const grace = await pendingTransfer(base, mailbox, programme.intakeId, "Grace Hopper");
      // Grace's transfer is confirmed by the API and she submits: the queue has two to tell apart.
      await admin.call("POST", `/payments/${grace.paymentId}/confirm/`, { received: 5000 });
      await grace.as("POST", `/applications/${grace.applicationId}/submit/`);

      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base);
      await activate(page, 'a[href="/portal/staff/payments"]');
      await page.waitForSelector(byTestId("payments-desk"));
      await check(page, "desk");

      // The reference as a bank statement prints it: lower case, without its hyphens.
      await retype(page, byTestId("desk-search"), ada.reference.replaceAll("-", "").toLowerCase());
      await page.keyboard.press("Enter");
      await page.waitForFunction((ref) => {
        const rows = document.querySelectorAll('[data-testid="payment-row"]');
        return rows.length === 1 && rows[0]?.textContent?.includes(ref);
      }, ada.reference);
      await activate(page, `${byTestId("payment-row")} ${byTestId("payment-choose")}`);
      await page.waitForSelector(byTestId("confirm-form"));
      // The amount field has the focus, filled with the fee.
      // The focus is put there once the form has rendered: waited for, not raced.
      await page.waitForFunction((id) => document.activeElement?.id === id, "confirm-received");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("20.00");
      await activate(page, byTestId("payment-confirm"));
      await page.waitForSelector(`${byTestId("confirm-problem")}:has-text("short of the fee")`);
      expect(await page.textContent(byTestId("confirm-problem"))).not.toContain("PAYMENT_SHORT");
      await check(page, "desk-short");
      const stillPending = await admin.call<{ status: string }>(
        "GET",
        `/payments/${ada.paymentId}/`,
      );
      expect(stillPending.status).toBe("pending");

      await retype(page, "#confirm-received", "50.00");
      await activate(page, byTestId("payment-confirm"));
      await page.waitForSelector(byTestId("payment-done"));
      expect(await page.textContent(byTestId("payment-done"))).toContain("Payment confirmed");
      await check(page, "desk-confirmed");
      await ada.as("POST", `/applications/${ada.applicationId}/submit/`);

      // A reviewer for Ada's application, chosen on its page by typing the name in the select.
      await page.goto(`${base}/portal/staff/applications/${ada.applicationId}`);
      await page.waitForSelector(byTestId("assign-reviewer"));
      await tabTo(page, byTestId("assign-reviewer"));
      await page.keyboard.type("Rita");
      expect(await page.inputValue(byTestId("assign-reviewer"))).toBe(rita.id);
      await activate(page, byTestId("assign-save"));
      await page.waitForSelector(byTestId("assignment-notice"));
      await page.waitForSelector(`${byTestId("assignee")}:has-text("Rita Desk")`);
      await check(page, "application-assigned");
      const assigned = await admin.call<{ assignments: { reviewer: { id: string } }[] }>(
        "GET",
        `/applications/${ada.applicationId}/reviews/`,
      );
      expect(assigned.assignments.map((a) => a.reviewer.id)).toEqual([rita.id]);

      // The queue: both, then Rita's only, then those with no reviewer only.
      await page.goto(`${base}/portal/staff/`);
      await page.waitForSelector(byTestId("staff-queue"));
      await check(page, "queue");
      const names = () =>
        page.$$eval('[data-testid="queue-item"] th a', (ths) => ths.map((th) => th.textContent));
      expect((await names()).sort()).toEqual(["Ada Lovelace", "Grace Hopper"]);
      await tabTo(page, "#queue-reviewer");
      await page.keyboard.type("Rita");
      await activate(page, byTestId("queue-search-submit"));
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="queue-item"]').length === 1,
      );
      expect(await names()).toEqual(["Ada Lovelace"]);
      expect(page.url()).toContain(`reviewerId=${rita.id}`);
      // The CSV is the filtered set.
      const href = (await page.getAttribute(byTestId("queue-export"), "href")) ?? "";
      expect(href).toContain(`reviewerId=${rita.id}`);
      const csv = await page.evaluate(async (url) => (await fetch(url)).text(), href);
      expect(csv).toContain(ada.applicationId);
      expect(csv).not.toContain(grace.applicationId);

      await tabTo(page, "#queue-reviewer");
      await page.keyboard.type("Anyone");
      await tabTo(page, "#queue-flag");
      await page.keyboard.type("No reviewer");
      await activate(page, byTestId("queue-search-submit"));
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="queue-item"] th a')?.textContent === "Grace Hopper",
      );
      expect(await names()).toEqual(["Grace Hopper"]);
      await check(page, "queue-filtered");

      // Sorted by applicant, both again.
      await tabTo(page, "#queue-flag");
      await page.keyboard.type("None chosen");
      await activate(page, byTestId("queue-search-submit"));
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="queue-item"]').length === 2,
      );
      await tabTo(page, byTestId("queue-sort"));
      await page.keyboard.type("Applicant");
      await page.waitForURL(/ordering=applicant/);
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="queue-item"] th a')?.textContent === "Ada Lovelace",
      );
      expect(await names()).toEqual(["Ada Lovelace", "Grace Hopper"]);
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);
  },
);
