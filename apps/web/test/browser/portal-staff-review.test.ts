/**
 * Review on one screen, in Chromium through the gateway (SQLite, or PostgreSQL + Redis with
 * TEST_DATABASE_URL / TEST_REDIS_URL), keyboard only: a blind programme's reviewer reads the
 * documents beside the rubric (each opened on request, one viewer at a time) and the reference,
 * is refused an empty score in words and scores; a second reviewer disagrees (through the API),
 * which flags the application for an extra review nobody is free for; the admin sees the
 * names, the panel summarised, the flag and each reviewer's calibration, then the programme's
 * calibration page. axe at both widths on every state, screenshots of each.
 */
import { describe, expect, test } from "bun:test";
import { ADMIN, adminApi } from "./admissions.ts";
import { hasChromium, NO_CHROMIUM, type Page } from "./chromium.ts";
import { activate, byTestId, tabTo } from "./keyboard.ts";
import { previewLoaded, staffHarness, staffSignIn } from "./staff-pages.ts";
import { REVIEWER, reviewReadyApplication } from "./staff-setup.ts";

if (!hasChromium) console.warn(`portal staff review browser tests ${NO_CHROMIUM}`);

/** Expected failed statuses: the signed-out 401 before sign-in, the refused empty score's 422. */
const EXPECTED = /status of (401|422)/;
const REFERENCE_TEXT =
  "I supervised this student's final-year project on the analytical engine; careful, inventive and generous with colleagues.";

type Box = { x: number; y: number; width: number; height: number };
const boxOf = async (page: Page, selector: string): Promise<Box> => {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  return box;
};

describe.skipIf(!hasChromium)(
  hasChromium ? "review on one screen in Chromium" : `review on one screen (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = staffHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-staff-review",
    });

    test("a blind reviewer scores beside the documents; the admin reads the panel, the flag and the calibration", async () => {
      const { base, context, admin, mailbox } = ctx();
      const refereeEmail = `ref-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const setup = await reviewReadyApplication(base, admin, mailbox, {
        programName: "Blind Reviewing",
        // A referee named before submission, who writes the reference through the emailed link.
        beforeSubmit: async (as, applicationId) => {
          await as("POST", "/references/", {
            applicationId,
            name: "Charles Babbage",
            email: refereeEmail,
            relationship: "Project supervisor",
          });
          const link = new URL(await mailbox.link(refereeEmail, "reference_requested"));
          const res = await fetch(`${base}/api/v1/references/link/text/`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ token: link.searchParams.get("token"), text: REFERENCE_TEXT }),
          });
          expect(res.status).toBe(204);
        },
      });
      const { applicationId, programId } = setup;
      // Blind review, and totals more than one point apart ask for an extra review.
      await admin.call("PUT", `/staff/programs/${programId}/review-settings/`, {
        blindReview: true,
        disagreementThreshold: 1,
      });
      // A second reviewer in the pool, assigned too: with both taken, nobody is left for the extra one.
      const second = {
        email: `reza-${crypto.randomUUID().slice(0, 8)}@portal-test.example`,
        password: "another-reviewer-password",
      };
      const reza = await admin.call("POST", "/staff/users/", {
        ...second,
        fullName: "Reza Reviewer",
        role: "reviewer",
      });
      await admin.call("PUT", `/staff/programs/${programId}/reviewers/`, {
        reviewerIds: [setup.reviewerId, reza.id],
      });
      await admin.call("POST", `/applications/${applicationId}/assignments/`, {
        reviewerId: reza.id,
      });

      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, base, setup.reviewerEmail, REVIEWER.password);
      await activate(page, `${byTestId("queue-item")} a`);
      await page.waitForURL(`${base}/portal/staff/applications/${applicationId}`);

      // Blind: said in words, and no name anywhere on the page.
      await page.waitForSelector(byTestId("blind-review"));
      expect(await page.textContent("#staff-applicant")).toBe("Applicant (blind review)");
      expect(await page.textContent("main")).not.toContain("Alan Applicant");
      // The documents beside the rubric at desktop width, above it on a phone.
      await page.waitForSelector(byTestId("score-form"));
      const documents = await boxOf(page, byTestId("documents-panel"));
      const rubric = await boxOf(page, byTestId("score-form"));
      expect(documents.x + documents.width).toBeLessThanOrEqual(rubric.x);
      expect(rubric.y).toBeLessThan(documents.y + documents.height);
      await page.setViewportSize({ width: 390, height: 844 });
      const narrowDocuments = await boxOf(page, byTestId("documents-panel"));
      const narrowRubric = await boxOf(page, byTestId("score-form"));
      expect(narrowDocuments.y + narrowDocuments.height).toBeLessThanOrEqual(narrowRubric.y);
      await page.setViewportSize({ width: 1280, height: 800 });
      // Nothing fetched until asked: the document buttons are named by type, not by file.
      expect(await page.locator(byTestId("document-preview")).count()).toBe(0);
      const names = await page.locator(byTestId("document-open")).allTextContents();
      expect(names).toEqual(["Transcript", "CV"]);
      await check(page, "reviewer");

      // The transcript opened from the keyboard: the PDF viewer, titled by the document's type.
      await activate(page, `${byTestId("document")}[data-media-type="application/pdf"] button`);
      await previewLoaded(page);
      expect(await page.getAttribute(`${byTestId("document")} iframe`, "title")).toBe("Transcript");
      expect(
        await page.getAttribute(
          `${byTestId("document")}[data-media-type="application/pdf"] button`,
          "aria-expanded",
        ),
      ).toBe("true");
      // The reference, read in place.
      await activate(page, byTestId("reference-read"));
      await page.waitForSelector(byTestId("reference-text"));
      expect(await page.textContent(byTestId("reference-text"))).toBe(REFERENCE_TEXT);
      await check(page, "reviewer-reading");

      // An empty score: the summary says so in words and links to each field.
      await activate(page, byTestId("save-review"));
      await page.waitForSelector(`${byTestId("review-problem")}.error-summary`);
      await page.waitForFunction(() => document.activeElement?.classList.contains("error-summary"));
      const summary = await page.textContent(byTestId("review-problem"));
      expect(summary).toContain("There is a problem");
      expect(summary).toContain("Give Academic record a whole number from 1 to 5");
      expect(summary).not.toContain("must be");
      expect(await page.getAttribute(byTestId("score-academic_record"), "aria-invalid")).toBe(
        "true",
      );
      await check(page, "reviewer-refused");
      // Its link takes the focus to the field.
      await activate(page, `${byTestId("review-problem")} a[href="#score-academic_record"]`);
      await page.waitForFunction(() => document.activeElement?.id === "score-academic_record");
      await page.keyboard.type("5");
      await tabTo(page, byTestId("score-statement"));
      await page.keyboard.type("5");
      await activate(page, byTestId("save-review"));
      await page.waitForSelector(byTestId("review-saved"));
      expect(await page.textContent(byTestId("review-saved"))).toContain("5");

      // The second reviewer disagrees by four points: an extra review, and nobody free for it.
      const rezaApi = await adminApi(base, second);
      await rezaApi.call("PUT", `/applications/${applicationId}/reviews/mine/`, {
        scores: { academic_record: 1, statement: 1 },
        recommendation: "reject",
        comment: "Thin evidence.",
      });
      await page.reload();
      await page.waitForSelector(`${byTestId("extra-review")}[data-state="flagged"]`);
      await check(page, "reviewer-flagged");
      // In French (the switch reloads the page): still blind, the documents and the flag in
      // French words.
      await activate(page, byTestId("language-fr"));
      await page.waitForSelector('html[lang="fr"]');
      await page.waitForSelector(`${byTestId("extra-review")}[data-state="flagged"]`);
      expect(await page.textContent("#staff-applicant")).toBe("Candidat (évaluation anonyme)");
      expect(await page.textContent("main")).not.toContain("Alan Applicant");
      expect(await page.locator(byTestId("document-open")).allTextContents()).toEqual([
        "Relevé de notes",
        "CV",
      ]);
      expect(await page.textContent(byTestId("extra-review"))).toContain(
        "aucun évaluateur n'était libre",
      );
      await check(page, "reviewer-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForSelector('html[lang="en"]');
      await activate(page, byTestId("logout"));
      await page.waitForURL(`${base}/portal/staff/login`);

      // The admin: names, the panel summarised, the flag, each reviewer against the others.
      await staffSignIn(page, base, ADMIN.email, ADMIN.password);
      await page.goto(`${base}/portal/staff/applications/${applicationId}`);
      await page.waitForSelector(byTestId("reviewer-calibration"));
      await page.waitForSelector(byTestId("calibration-row"));
      expect(await page.textContent("#staff-applicant")).toBe("Alan Applicant");
      expect(await page.textContent(byTestId("blind-review"))).toContain("You see everything");
      expect(await page.textContent(byTestId("reviews-total"))).toContain(
        "Totals range from 1 to 5",
      );
      expect(await page.textContent(byTestId("reviews-recommendations"))).toBe(
        "Recommendations: Offer × 1 · Reject × 1.",
      );
      expect(await page.locator(`${byTestId("reviews-by-criterion")} tbody tr`).count()).toBe(3);
      expect(await page.textContent(byTestId("extra-review"))).toContain("no reviewer was free");
      // No interview slot opened yet: the invitation says so and links to a new one.
      await page.waitForSelector(byTestId("no-open-slots"));
      expect(await page.textContent(byTestId("no-open-slots"))).toContain(
        "There is no open interview slot still to come.",
      );
      expect(await page.getAttribute(`${byTestId("no-open-slots")} a`, "href")).toBe(
        "/portal/staff/interviews/new",
      );
      const rows = await page.locator(byTestId("calibration-row")).allTextContents();
      expect(rows).toHaveLength(2);
      expect(rows.find((r) => r.includes("Rita Reviewer"))).toContain("+4: more generous");
      expect(rows.find((r) => r.includes("Reza Reviewer"))).toContain("-4: stricter");
      await check(page, "admin");

      // The programme's calibration page, from the link: the table, the ranking, the flag.
      await activate(page, `${byTestId("reviewer-calibration")} a`);
      await page.waitForURL(/\/portal\/staff\/calibration\?programId=/);
      await page.waitForSelector(byTestId("calibration-table"));
      expect(await page.locator(`${byTestId("calibration-table")} tbody tr`).count()).toBe(2);
      expect(await page.textContent(byTestId("calibration-ranking"))).toContain("Alan Applicant");
      expect(await page.textContent(byTestId("calibration-ranking"))).toContain("3 (reviews: 2)");
      expect(await page.locator(`${byTestId("calibration-flagged")} li`).count()).toBe(1);
      await check(page, "calibration");
      // Normalised (Space on the checkbox): the raw score stays beside it.
      await tabTo(page, byTestId("ranking-normalised"));
      await page.keyboard.press("Space");
      await page.waitForSelector(`${byTestId("calibration-ranking")}[data-normalised="true"]`);
      expect(await page.textContent(byTestId("calibration-ranking"))).toContain(
        "normalised, 3 raw (reviews: 2)",
      );
      await check(page, "calibration-normalised");
      // The flag leads back to the application.
      await activate(page, `${byTestId("calibration-flagged")} a`);
      await page.waitForURL(`${base}/portal/staff/applications/${applicationId}`);
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);
  },
);
