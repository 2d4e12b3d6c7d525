/**
 * One whole admissions cycle in Chromium, every step in the page and by keyboard, through the
 * real gateway to the real admissions app (SQLite, or PostgreSQL + Redis with
 * TEST_DATABASE_URL / TEST_REDIS_URL): the admin makes a reviewer's account, a programme, its
 * intake (and a later one to defer to), rubric and pool; an applicant registers, verifies the
 * email, applies, uploads, pays by transfer; the admin confirms the transfer at the desk; the
 * applicant sends the application; the admin assigns the reviewer; the reviewer scores with
 * the documents beside the rubric; the admin opens an interview slot and invites; the
 * applicant confirms; once it has started the admin records its outcome and makes a
 * conditional offer; the applicant accepts and sends the condition's evidence; the admin
 * settles it; the applicant asks to defer and the admin approves. Only the admin's own account
 * comes from outside the pages (the app's `create-admin`). axe at both widths on every state
 * stopped at, screenshots of each; each step read back in the page and through the API.
 */
import { describe, expect, test } from "bun:test";
import { ADMIN, BANK_ACCOUNT, pdf } from "./admissions.ts";
import { hasChromium, NO_CHROMIUM, type Page } from "./chromium.ts";
import {
  applicantTurn,
  chooseFile,
  daysFromNow,
  newIntake,
  newProgramme,
  newReviewer,
  rubricAndPool,
  staffTurn,
} from "./cycle-people.ts";
import { activate, byTestId, pressFor, tabTo, typeRegistration } from "./keyboard.ts";
import { retype } from "./office-setup.ts";
import { previewLoaded, staffHarness, typeDateTime } from "./staff-pages.ts";
import { onePagePdf, png } from "./staff-setup.ts";

if (!hasChromium) console.warn(`portal cycle browser test ${NO_CHROMIUM}`);

/**
 * Expected failed statuses: the sign-in pages' probes while signed out (401) and the new
 * programme's rubric, read before it has one (404).
 */
const EXPECTED = /status of (401|404)/;

const textOf = async (page: Page, id: string) => (await page.textContent(byTestId(id))) ?? "";
const statusIs = (status: string) => `[data-testid="application-status"][data-status="${status}"]`;

describe.skipIf(!hasChromium)(
  hasChromium ? "one whole admissions cycle in Chromium" : `the whole cycle (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = staffHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-cycle",
      admissionsEnv: () => BANK_ACCOUNT,
    });

    test("programme, application, transfer, review, interview, conditional offer, acceptance, conditions, deferral — keyboard only", async () => {
      const { base, context, mailbox, admin } = ctx();
      const tag = crypto.randomUUID().slice(0, 6);
      const code = `CYC${tag.toUpperCase().replaceAll(/[^A-Z]/g, "X")}`;
      const page = await open();
      const application = (id: string) => `/portal/staff/applications/${id}`;
      const asStaff = (who: { email: string; password: string }) =>
        staffTurn(context, page, base, who);

      // 1. The admin: a reviewer's account, the programme, its intake and a later one, the
      // rubric and the reviewer in its pool.
      await asStaff(ADMIN);
      const reviewer = await newReviewer(page, {
        fullName: "Rosalind Cycle",
        email: `rosalind-${tag}@portal-test.example`,
      });
      await check(page, "staff-users");
      const programmeId = await newProgramme(page, code, "Cycle Studies");
      await newIntake(page, {
        term: "Autumn 2031",
        opens: daysFromNow(-1),
        deadline: daysFromNow(365),
        places: 40,
      });
      await newIntake(page, {
        term: "Autumn 2032",
        opens: daysFromNow(366),
        deadline: daysFromNow(730),
        places: 40,
      });
      expect(
        await page.$$eval('[data-testid="intake"]', (rows) =>
          rows.map((row) => (row as HTMLElement).dataset.open),
        ),
      ).toEqual(["true", "false"]);
      const reviewerId = await rubricAndPool(page, "Rosalind Cycle");
      await check(page, "programme");
      const programme = await admin.call<{
        requiredDocuments: string[];
        applicationFee: unknown;
        intakes: { id: string; term: string }[];
      }>("GET", `/catalog/programs/${programmeId}/`);
      expect(programme.requiredDocuments.sort()).toEqual(["cv", "transcript"]);
      expect(programme.applicationFee).toEqual({ amount: 5000, currency: "EUR" });
      const laterIntake = programme.intakes.find((i) => i.term === "Autumn 2032")?.id ?? "";

      // 2. The applicant: registers, opens the email's link, signs in, finds the programme.
      await context.clearCookies();
      const applicant = {
        fullName: "Ada Cycle",
        email: `ada-${tag}@portal-test.example`,
        password: "applicant-password-1",
      };
      const asApplicant = (next: string, ready: string) =>
        applicantTurn(context, page, base, applicant, next, ready);
      await page.goto(`${base}/portal/register`);
      await page.waitForSelector(byTestId("register-submit"));
      await typeRegistration(page, applicant);
      await page.waitForSelector(byTestId("registered"));
      await page.goto(await mailbox.link(applicant.email, "email_verification"));
      await page.waitForSelector(byTestId("email-verified"));
      await asApplicant("/portal/", byTestId("program-list"));
      await tabTo(page, byTestId("program-search"));
      await page.keyboard.type(code);
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="program-item"]').length === 1,
      );
      await activate(page, `${byTestId("program-item")} a`);
      await page.waitForURL(`${base}/portal/programs/${programmeId}`);
      // One intake is open: one way to apply, named by its term.
      await page.waitForSelector(byTestId("apply"));
      expect(await textOf(page, "apply")).toContain("Autumn 2031");
      expect(await page.locator(byTestId("apply")).count()).toBe(1);
      await activate(page, byTestId("apply"));
      await page.waitForURL(/\/portal\/applications\/[\w-]+$/);
      const applicationId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      const taskList = page.url();
      await page.waitForSelector(byTestId("task-list"));
      await check(page, "task-list");

      // The statement, then the transcript (a PDF) and the CV (a PNG), then the fee by transfer.
      await activate(page, byTestId("task-statement"));
      await page.waitForURL(`${taskList}/statement`);
      await tabTo(page, byTestId("personal-statement"));
      await page.keyboard.type(
        "Cycles fascinate me: a year of admissions from the first programme to the last deferral.",
      );
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="save-state"]')?.textContent?.includes("saved"),
      );
      await activate(page, byTestId("save-and-return"));
      await page.waitForURL(taskList);
      await activate(page, byTestId("task-documents"));
      await page.waitForURL(`${taskList}/documents`);
      await page.waitForSelector(byTestId("document-upload"));
      expect(await page.inputValue(byTestId("document-type"))).toBe("transcript");
      await chooseFile(page, byTestId("document-upload"), {
        name: "transcript.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from(onePagePdf()),
      });
      await page.waitForSelector('[data-testid="checklist"] li[data-status="uploaded"]');
      await tabTo(page, byTestId("document-type"));
      await page.keyboard.type("CV");
      expect(await page.inputValue(byTestId("document-type"))).toBe("cv");
      await chooseFile(page, byTestId("document-upload"), {
        name: "cv.png",
        mimeType: "image/png",
        buffer: Buffer.from(png()),
      });
      await page.waitForFunction(
        () =>
          document.querySelectorAll('[data-testid="checklist"] li[data-status="uploaded"]')
            .length === 2,
      );
      await check(page, "documents");
      await activate(page, byTestId("section-return"));
      await page.waitForURL(taskList);
      await activate(page, byTestId("task-fee"));
      await page.waitForURL(`${taskList}/fee`);
      await activate(page, byTestId("pay"));
      await page.waitForSelector(byTestId("bank-details"));
      const reference = await textOf(page, "bank-reference");
      expect(reference).toMatch(/^ADM-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(await textOf(page, "bank-iban")).toBe("GB33 BUKB 2020 1555 5555 55");
      expect(await textOf(page, "bank-account-name")).toBe("University of Example");
      expect(await textOf(page, "bank-amount")).toContain("50");
      expect(await textOf(page, "fee-status")).toContain("still to pay");
      await check(page, "fee-transfer");

      // 3. The admin confirms the transfer at the desk, found by its reference.
      await asStaff(ADMIN);
      await activate(page, 'a[href="/portal/staff/payments"]');
      await page.waitForSelector(byTestId("payments-desk"));
      await retype(page, byTestId("desk-search"), reference);
      await page.keyboard.press("Enter");
      await page.waitForFunction((ref) => {
        const rows = document.querySelectorAll('[data-testid="payment-row"]');
        return rows.length === 1 && rows[0]?.textContent?.includes(ref);
      }, reference);
      expect(await textOf(page, "payment-row")).toContain("Ada Cycle");
      await activate(page, `${byTestId("payment-row")} ${byTestId("payment-choose")}`);
      await page.waitForSelector(byTestId("confirm-form"));
      expect(await page.inputValue("#confirm-received")).toBe("50.00");
      await activate(page, byTestId("payment-confirm"));
      await page.waitForSelector(byTestId("payment-done"));
      expect(await textOf(page, "payment-done")).toContain("Payment confirmed");
      // Nothing else waits at the desk.
      await page.waitForSelector(byTestId("payment-row"), { state: "detached" });
      await check(page, "desk-confirmed");
      const paid = await admin.call<{ results: { status: string; reference: string }[] }>(
        "GET",
        `/applications/${applicationId}/payments/`,
      );
      expect(paid.results).toEqual([expect.objectContaining({ status: "succeeded", reference })]);

      // The applicant sees the fee paid, checks the answers and sends the application.
      await asApplicant(`/portal/applications/${applicationId}/fee`, byTestId("receipt-link"));
      expect(await textOf(page, "fee-status")).toContain("is paid");
      await activate(page, byTestId("section-return"));
      await page.waitForURL(taskList);
      await activate(page, byTestId("check-link"));
      await page.waitForURL(`${taskList}/check`);
      await page.waitForSelector(byTestId("check-answers"));
      expect(await textOf(page, "check-answers")).toContain("transcript.pdf");
      expect(await textOf(page, "check-answers")).toContain("cv.png");
      await activate(page, byTestId("submit-application"));
      await page.waitForURL(`${taskList}/submitted`);
      await page.waitForSelector(byTestId("confirm-submission"));
      expect(await textOf(page, "application-reference")).toBe(applicationId);

      // The admin assigns the reviewer on the application's page: it goes under review.
      await asStaff(ADMIN);
      await page.goto(`${base}${application(applicationId)}`);
      await page.waitForSelector(statusIs("submitted"));
      await tabTo(page, byTestId("assign-reviewer"));
      await page.keyboard.type("Rosalind");
      expect(await page.inputValue(byTestId("assign-reviewer"))).toBe(reviewerId);
      await activate(page, byTestId("assign-save"));
      await page.waitForSelector(`${byTestId("assignee")}:has-text("Rosalind Cycle")`);
      await page.waitForSelector(statusIs("under_review"));
      await check(page, "assigned");

      // 4. The reviewer: the application from their queue, the documents beside the rubric.
      await asStaff(reviewer);
      await activate(page, `${byTestId("queue-item")} a`);
      await page.waitForURL(`${base}${application(applicationId)}`);
      await page.waitForSelector(byTestId("score-form"));
      const documents = await page.locator(byTestId("documents-panel")).boundingBox();
      const rubric = await page.locator(byTestId("score-form")).boundingBox();
      expect(documents && rubric && documents.x + documents.width <= rubric.x).toBe(true);
      expect(await page.locator(byTestId("document-open")).allTextContents()).toEqual([
        "Transcript",
        "CV",
      ]);
      await activate(page, `${byTestId("document")}[data-media-type="application/pdf"] button`);
      await previewLoaded(page);
      await tabTo(page, byTestId("score-academic_record"));
      await page.keyboard.type("4");
      await tabTo(page, byTestId("score-motivation"));
      await page.keyboard.type("5");
      await activate(page, byTestId("save-review"));
      await page.waitForSelector(byTestId("review-saved"));
      expect(await textOf(page, "review-saved")).toContain("4.25");
      // The reviewers' list on the same page follows: reviewed, no longer awaited.
      await page.waitForSelector(`${byTestId("assignee")}:has-text("reviewed.")`);
      await check(page, "reviewed");

      // 5. The admin reads the score in the summary, opens an interview slot a minute or so
      // ahead (the API takes only times to come; a panel scores one once it has started)
      // with themself on its panel, and invites the application to it.
      await asStaff(ADMIN);
      await page.goto(`${base}${application(applicationId)}`);
      await page.waitForSelector(byTestId("reviews-total"));
      expect(await textOf(page, "reviews-total")).toBe(
        "Weighted total: 4.25 (the mean of the reviews; reviews: 1).",
      );
      const me = await admin.call<{ id: string }>("GET", "/auth/me/");
      await activate(page, 'a[href="/portal/staff/interviews"]');
      await page.waitForURL(`${base}/portal/staff/interviews`);
      await page.waitForSelector(byTestId("interview-slot-new"));
      await activate(page, byTestId("interview-slot-new"));
      await page.waitForURL(`${base}/portal/staff/interviews/new`);
      await page.waitForSelector(byTestId("panel-member"));
      // The form takes whole minutes: the first one at least 20 s ahead leaves the invitation
      // and the applicant's confirmation time to come before it starts (they took 2.3 s on a
      // quiet machine), and the wait after them short.
      const startsAt = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
      await tabTo(page, byTestId("slot-start"));
      await typeDateTime(page, startsAt);
      await tabTo(page, byTestId("slot-duration"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type("30");
      await tabTo(page, byTestId("slot-location"));
      await page.keyboard.type("Room 12");
      await tabTo(page, `${byTestId("panel-member")}[data-user-id="${me.id}"]`);
      await page.keyboard.press("Space");
      await activate(page, byTestId("interview-slot-save"));
      await page.waitForURL(/\/portal\/staff\/interviews\/[0-9a-f-]{36}\?saved=created$/);
      const slotId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      expect(await textOf(page, "interview-status")).toBe("Open");
      await page.goto(`${base}${application(applicationId)}`);
      await page.waitForSelector(byTestId("interview-invite"));
      expect(await page.inputValue("#invite-slot")).toBe(slotId);
      await activate(page, byTestId("interview-invite"));
      await page.waitForSelector(statusIs("interviewing"));
      await page.waitForSelector(`${byTestId("application-interview")} [data-status="invited"]`);
      await check(page, "invited");

      // The applicant confirms it.
      await asApplicant(
        `/portal/applications/${applicationId}`,
        '[data-testid="interview-slot"][data-status="invited"]',
      );
      expect(await textOf(page, "interview-slot")).toContain("Room 12");
      await activate(page, byTestId("interview-confirm"));
      await page.waitForSelector('[data-testid="interview-slot"][data-status="confirmed"]');
      await check(page, "interview-confirmed");

      // Once it has started (a wait, not an assertion), the admin records the outcome.
      await asStaff(ADMIN);
      await Bun.sleep(Math.max(0, startsAt.getTime() - Date.now() + 1_000));
      await page.goto(`${base}${application(applicationId)}`);
      await page.waitForSelector(byTestId("interview-outcome"));
      await tabTo(page, byTestId("interview-score-input"));
      await page.keyboard.type("4");
      await tabTo(page, byTestId("interview-comment-input"));
      await page.keyboard.type("Thoughtful answers on every question.");
      await activate(page, byTestId("interview-outcome-save"));
      await page.waitForSelector(byTestId("interview-outcome-saved"));
      await page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid="interview-score"]')
            ?.textContent?.startsWith("Interview: 4") ?? false,
      );
      await check(page, "interview-outcome");
      const interview = await admin.call<{ status: string; scores: { score: number }[] }>(
        "GET",
        `/interviews/${slotId}/`,
      );
      expect(interview.scores.map((s) => s.score)).toEqual([4]);

      // 6. A conditional offer, from the decision's radio group by arrow keys.
      await tabTo(page, byTestId("decision-offer"));
      await pressFor(page, "ArrowDown", `${byTestId("decision-conditional_offer")}:checked`);
      await tabTo(page, byTestId("decision-conditions"));
      await page.keyboard.type("Final transcript showing a first");
      await activate(page, byTestId("decide"));
      await page.waitForSelector(byTestId("condition-row"));
      await page.waitForSelector(statusIs("conditionally_offered"));
      expect(await textOf(page, "offer-respond-by")).toContain("To be answered by");
      await check(page, "offer-conditional");

      // 7. The applicant reads the letter, accepts, and sends the condition's evidence.
      await asApplicant(`/portal/applications/${applicationId}`, byTestId("offer-letter"));
      expect(await textOf(page, "offer-conditions")).toContain("Final transcript showing a first");
      const letter = await page.evaluate(
        async (href) => {
          const res = await fetch(href);
          // Read to its end: a body left unread keeps the request open (and the page busy).
          const head = new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5));
          return { status: res.status, type: res.headers.get("content-type"), head };
        },
        (await page.getAttribute(byTestId("offer-letter"), "href")) ?? "",
      );
      expect(letter).toEqual({ status: 200, type: "application/pdf", head: "%PDF-" });
      await activate(page, byTestId("accept-offer"));
      await page.waitForSelector(statusIs("accepted"));
      await page.waitForSelector(byTestId("condition-evidence"));
      await chooseFile(page, byTestId("condition-evidence"), {
        name: "final-transcript.pdf",
        mimeType: "application/pdf",
        buffer: pdf(),
      });
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="condition"]')?.textContent?.includes("Evidence sent"),
      );
      await check(page, "evidence-sent");

      // 8. The admin settles the condition as met, the evidence chosen for them: unconditional.
      await asStaff(ADMIN);
      await page.goto(`${base}${application(applicationId)}`);
      await page.waitForSelector(`${byTestId("condition-row")}[data-status="pending"]`);
      await activate(page, `${byTestId("condition-row")} ${byTestId("condition-evidence")}`);
      await previewLoaded(page, byTestId("condition-row"));
      await activate(page, byTestId("condition-settle"));
      await page.waitForSelector(byTestId("offer-unconditional"));
      await page.waitForSelector(`${byTestId("condition-row")}[data-status="met"]`);
      // Accepted: the offer's answer deadline is past its use.
      expect(await page.locator(byTestId("offer-respond-by")).count()).toBe(0);
      await check(page, "offer-unconditional");
      const conditions = await admin.call<{
        conditions: { status: string; evidenceDocumentId: string | null }[];
      }>("GET", `/applications/${applicationId}/conditions/`);
      expect(conditions.conditions).toEqual([
        expect.objectContaining({ status: "met", evidenceDocumentId: expect.any(String) }),
      ]);

      // 9. The applicant asks to start in Autumn 2032 instead.
      await asApplicant(`/portal/applications/${applicationId}`, byTestId("deferral-link"));
      await activate(page, byTestId("deferral-link"));
      await page.waitForURL(`${base}/portal/applications/${applicationId}/deferral`);
      await page.waitForSelector(byTestId("deferral-intake"));
      await tabTo(page, byTestId("deferral-intake"));
      await page.keyboard.press("Space");
      await tabTo(page, byTestId("deferral-reason"));
      await page.keyboard.type("A year of caring for my family.");
      await activate(page, byTestId("deferral-request"));
      await page.waitForSelector(byTestId("deferral-sent"));
      expect(await page.getAttribute(byTestId("deferral"), "data-status")).toBe("requested");
      await check(page, "deferral-requested");

      // The admin finds it in the office's list and approves it: the place moves.
      await asStaff(ADMIN);
      await activate(page, 'a[href="/portal/staff/deferrals"]');
      await page.waitForSelector(`${byTestId("staff-deferral-seats")}[data-available]`);
      expect(await textOf(page, "staff-deferral")).toContain("Autumn 2031 → Autumn 2032");
      await activate(page, `${byTestId("staff-deferral")} a`);
      await page.waitForSelector(byTestId("deferral-approve"));
      await activate(page, byTestId("deferral-approve"));
      await page.waitForSelector(byTestId("deferral-decided"));
      await page.waitForSelector(`${byTestId("deferral")}[data-status="approved"]`);
      await check(page, "deferral-approved");
      const moved = await admin.call<{ status: string; intake: { id: string } }>(
        "GET",
        `/applications/${applicationId}/`,
      );
      expect(moved).toMatchObject({ status: "accepted", intake: { id: laterIntake } });

      // The applicant's page says the new start.
      await asApplicant(`/portal/applications/${applicationId}`, byTestId("timeline"));
      expect(await textOf(page, "timeline")).toContain("Autumn 2032");
      await check(page, "deferred");
      expect(errors).toEqual([]);
      await page.close();
    }, 900_000);
  },
);
