/**
 * The office's money and reviewers, second round, in Chromium by keyboard through the real
 * gateway (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL): a fee waived
 * on the application page; an over-payment confirmed at the desk (the surplus said), then part
 * of it refunded; two applications given a reviewer each in bulk, the next in turn; a reviewer
 * declaring a conflict of interest and being taken off. axe-core on every state, both widths.
 */
import { describe, expect, test } from "bun:test";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, tabTo } from "./keyboard.ts";
import {
  applicant,
  officeProgramme,
  pendingTransfer,
  retype,
  staffMember,
  staffSignIn,
} from "./office-setup.ts";
import { portalHarness } from "./portal-harness.ts";

if (!hasChromium) console.warn(`portal office fees browser tests ${NO_CHROMIUM}`);

/**
 * Expected: the sign-in page's CSRF probe (401), and what a reviewer may no longer read once
 * they have declared a conflict: the reviews (403, said on the page in the API's words) and the
 * references (404: the API does not say an application exists to who may not read it).
 */
const EXPECTED = /status of (401|403)|status of 404 .*\/api\/v1\/references\/\?applicationId=/;

type Reviews = {
  assignments: { reviewer: { id: string } }[];
  conflicts: { reviewer: { id: string } }[];
};

describe.skipIf(!hasChromium)(
  hasChromium ? "the office's fees in Chromium" : `the office's fees (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-office",
    });

    test("a fee waived, an over-payment confirmed and refunded in part, reviewers in bulk, a conflict", async () => {
      const { base, admin, mailbox, context } = ctx();
      const rita = await staffMember(admin, "Rita Round");
      const ravi = await staffMember(admin, "Ravi Round");
      const programme = await officeProgramme(admin, "Fee Testing", [rita.id, ravi.id]);
      const emmy = await pendingTransfer(base, mailbox, programme.intakeId, "Emmy Over");
      const lise = await applicant(base, mailbox, "Lise Waived");
      const liseDraft = await lise.as("POST", "/applications/", { intakeId: programme.intakeId });

      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, base);

      // Lise's fee waived from her application's page, with the reason.
      await page.goto(`${base}/portal/staff/applications/${liseDraft.id}`);
      await page.waitForSelector(`${byTestId("fee-state")}[data-state="unpaid"]`);
      await activate(page, `${byTestId("fee-panel")} summary`);
      await retype(page, "#fee-waive-reason", "Scholarship holder.");
      await activate(page, byTestId("fee-waive-submit"));
      await page.waitForSelector(byTestId("fee-notice"));
      await page.waitForSelector(`${byTestId("fee-state")}[data-state="waived"]`);
      await check(page, "fee-waived");
      await lise.as("POST", `/applications/${liseDraft.id}/submit/`);

      // Emmy sent €60 for a €50 fee: confirmed, and the €10 over said.
      await page.goto(`${base}/portal/staff/payments`);
      await page.waitForSelector(byTestId("payment-row"));
      await activate(page, `${byTestId("payment-row")} ${byTestId("payment-choose")}`);
      await page.waitForSelector(byTestId("confirm-form"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type("60.00");
      await activate(page, byTestId("payment-confirm"));
      await page.waitForSelector(byTestId("payment-done"));
      expect(await page.textContent(byTestId("payment-done"))).toContain(
        "€10.00 more than the fee",
      );
      // Paid ones: the surplus shown beside the refund, €10 given back.
      await tabTo(page, "#desk-status");
      await page.keyboard.type("Paid");
      await page.waitForSelector(byTestId("payment-row"));
      await activate(page, `${byTestId("payment-row")} ${byTestId("payment-choose")}`);
      await page.waitForSelector(byTestId("payment-surplus"));
      await retype(page, "#payment-refund-amount", "10.00");
      await retype(page, "#payment-refund-reason", "The surplus, returned.");
      await activate(page, byTestId("payment-refund-submit"));
      await page.waitForSelector(`${byTestId("payment-done")}:has-text("Refunded")`);
      await check(page, "desk-refunded");
      await emmy.as("POST", `/applications/${emmy.applicationId}/submit/`);

      // Both ticked in the queue, each given the next reviewer in turn.
      await page.goto(`${base}/portal/staff/`);
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="queue-item"]').length === 2,
      );
      for (const name of ["Emmy Over", "Lise Waived"]) {
        await tabTo(page, `${byTestId("queue-select")}[aria-label*="${name}"]`);
        await page.keyboard.press("Space");
      }
      await activate(page, `${byTestId("bulk-assign")} ${byTestId("assign-save")}`);
      await page.waitForSelector(byTestId("bulk-assign-done"));
      await check(page, "queue-bulk-assigned");
      const reviewers = async (id: string) =>
        (await admin.call<Reviews>("GET", `/applications/${id}/reviews/`)).assignments.map(
          (a) => a.reviewer.id,
        );
      const emmyReviewers = await reviewers(emmy.applicationId);
      const liseReviewers = await reviewers(liseDraft.id);
      expect(emmyReviewers).toHaveLength(1);
      expect(liseReviewers).toHaveLength(1);
      // In turn: one each.
      expect([...emmyReviewers, ...liseReviewers].sort()).toEqual([rita.id, ravi.id].sort());

      // Emmy's reviewer knows her: declared on the application's page, and taken off it.
      const emmyReviewer = emmyReviewers[0] === rita.id ? rita : ravi;
      await context.clearCookies();
      await staffSignIn(page, base, emmyReviewer.email, "a-long-reviewer-password");
      await page.goto(`${base}/portal/staff/applications/${emmy.applicationId}`);
      await page.waitForSelector(byTestId("conflict-declare"));
      await activate(page, `${byTestId("conflict-declare")} summary`);
      await retype(page, "#conflict-reason", "She is my cousin.");
      await activate(page, byTestId("conflict-submit"));
      await page.waitForSelector(byTestId("assignment-notice"));
      await check(page, "conflict-declared");
      const after = await admin.call<Reviews>(
        "GET",
        `/applications/${emmy.applicationId}/reviews/`,
      );
      expect(after.assignments.map((a) => a.reviewer.id)).not.toContain(emmyReviewer.id);
      expect(after.conflicts.map((c) => c.reviewer.id)).toEqual([emmyReviewer.id]);
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);
  },
);
