/**
 * The applicant's journey where it goes wrong and after it is sent, in Chromium through the
 * real gateway (both databases in `bun run check`), keyboard only, axe on every state, in
 * English and in French: errors said in words with a summary linking to each field; a file of
 * the wrong kind refused in words, a document replaced and removed; after submission, the
 * interview confirmed (and its calendar file), another time asked for, the offer accepted, a
 * condition's evidence uploaded, a deferral asked for, and the application withdrawn. The
 * institution's own name, logo, colour and address are configured.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FileChooser, Page } from "playwright-core";
import { BANK_ACCOUNT, pdf } from "./admissions.ts";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { sentApplication } from "./journey-setup.ts";
import { activate, byTestId, tabTo, typeSignIn } from "./keyboard.ts";
import { portalHarness } from "./portal-harness.ts";

if (!hasChromium) console.warn(`portal journey browser tests ${NO_CHROMIUM}`);

const logo = join(mkdtempSync(join(tmpdir(), "portal-logo-")), "crest.svg");
writeFileSync(
  logo,
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="#5a2d82"/></svg>',
);

/**
 * Expected failures: the 422s, 413 and 415 the tests cause, conflicts, the signed-out pages'
 * 401s, and the save the first test cuts off on the network (net::ERR_FAILED).
 */
const EXPECTED = /status of (400|401|404|409|412|413|415|422)|net::ERR_FAILED/;

/** Waits for the file chooser a Space opens (listened for before the Space: see portal.test.ts). */
async function chooseFile(
  page: Page,
  selector: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const chooser = new Promise<FileChooser>((resolve) => page.once("filechooser", resolve));
  await page.waitForLoadState("networkidle");
  await tabTo(page, selector);
  await page.keyboard.press("Space");
  await (await chooser).setFiles(file);
}

const textOf = async (page: Page, id: string) => (await page.textContent(byTestId(id))) ?? "";

describe.skipIf(!hasChromium)(
  hasChromium ? "the applicant's journey in Chromium" : `the applicant's journey (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      screenshotPrefix: "journey",
      admissionsEnv: () => BANK_ACCOUNT,
      webEnv: {
        WEB_INSTITUTION_NAME: "University of Example",
        WEB_INSTITUTION_LOGO: logo,
        WEB_PRIMARY_COLOUR: "#5a2d82",
        WEB_CONTACT_EMAIL: "admissions@example.ac.uk",
      },
    });

    test("errors in words, linked from a summary; the sections; documents refused, replaced and removed — English, then French", async () => {
      const { base, admin } = ctx();
      const program = await admin.openProgram("Journey Errors");
      const page = await open();

      // Registration with a malformed address and a short password: one summary at the top,
      // focused, a link to each field, and the fields' own sentences; no schema words.
      await page.goto(`${base}/portal/register`);
      await page.waitForSelector(byTestId("register-submit"));
      expect(await page.title()).toBe("Create an account · University of Example");
      await tabTo(page, byTestId("register-name"));
      await page.keyboard.type("Grace Hopper");
      await tabTo(page, byTestId("register-email"));
      await page.keyboard.type("grace@");
      await tabTo(page, byTestId("register-password"));
      await page.keyboard.type("short");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("error-summary"));
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
        "error-summary",
      );
      const summary = await textOf(page, "error-summary");
      expect(summary).toContain("There is a problem");
      expect(summary).toContain(
        "Enter an email address in the correct format, like name@example.com.",
      );
      expect(summary).toContain("Your password must be 10 to 128 characters.");
      expect(summary).not.toContain("Expected");
      await check(page, "register-errors");
      // Following a link in the summary puts the focus in its field.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("register-email");

      // A real account, then sign in and apply.
      const email = `grace-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      await page.fill(byTestId("register-email"), "");
      await page.keyboard.type(email);
      await page.fill(byTestId("register-password"), "");
      await tabTo(page, byTestId("register-password"));
      await page.keyboard.type("applicant-password-1");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("registered"));
      await page.goto(`${base}/portal/login`);
      await page.waitForSelector(byTestId("login-email"));
      await typeSignIn(page, email, "applicant-password-1");
      await page.waitForURL(`${base}/portal/applications/`);
      await page.goto(`${base}/portal/programs/${program.id}`);
      await activate(page, byTestId("apply"));
      await page.waitForURL(/\/portal\/applications\/[\w-]+$/);
      const taskList = page.url();
      await page.waitForSelector(byTestId("task-list"));

      // "Your details": a phone number not in the form asked for, said beside it and in the
      // summary; corrected, saved, and the section is under way.
      await activate(page, byTestId("task-details"));
      await page.waitForSelector(byTestId("profile-phone"));
      await tabTo(page, byTestId("profile-legalName"));
      await page.keyboard.type("Grace Brewster Hopper");
      await tabTo(page, byTestId("profile-phone"));
      await page.keyboard.type("12345");
      await activate(page, byTestId("save-and-return"));
      await page.waitForSelector(byTestId("error-summary"));
      expect(await textOf(page, "error-summary")).toContain(
        "Phone: Enter the number with its country code, like +44 20 7123 4567.",
      );
      expect(await page.textContent("#profile-phone-error")).toBe(
        "Enter the number with its country code, like +44 20 7123 4567.",
      );
      await check(page, "section-details-error");
      await page.fill(byTestId("profile-phone"), "");
      await tabTo(page, byTestId("profile-phone"));
      await page.keyboard.type("+442071234567");
      await activate(page, byTestId("save-and-return"));
      await page.waitForURL(taskList);
      await page.waitForSelector('[data-testid="task-item"][data-status="in_progress"]');

      // Qualifications: a year that is not one is refused in words by the autosave.
      await activate(page, byTestId("task-qualifications"));
      // Its page loaded before tabbing (a Tab during the navigation would land on the old page).
      await page.waitForURL(`${taskList}/qualifications`);
      await page.waitForSelector(byTestId("graduation-year"));
      await tabTo(page, byTestId("graduation-year"));
      await page.keyboard.type("20x4");
      await page.waitForSelector(byTestId("error-summary"));
      // Saved as typed, so the summary leaves the focus where the applicant is typing.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("graduation-year");
      expect(await page.textContent("#graduation-year-error")).toBe(
        "Enter the year as 4 figures, like 2024.",
      );
      await check(page, "section-qualifications-error");
      await page.fill(byTestId("graduation-year"), "");
      await tabTo(page, byTestId("graduation-year"));
      await page.keyboard.type("2024");
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="save-state"]')?.textContent?.includes("saved"),
      );
      expect(await page.$(byTestId("error-summary"))).toBeNull();
      // The network fails as the next change is saved: said in words, what was typed kept, the
      // focus left in the field; once it is back, the next change saves.
      const cutOff = /\/api\/v1\/applications\/[\w-]+\/$/;
      await page.route(cutOff, (route) =>
        route.request().method() === "PATCH" ? route.abort("failed") : route.continue(),
      );
      await tabTo(page, byTestId("prior-institution"));
      await page.keyboard.type("University of Pennsylvania");
      await page.waitForSelector(byTestId("save-problem"));
      expect(await textOf(page, "save-problem")).toContain(
        "We could not reach the server. Check your internet connection, then try again.",
      );
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("prior-institution");
      await check(page, "section-qualifications-offline");
      await page.unroute(cutOff);
      await page.keyboard.type(" (Moore School)");
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="save-state"]')?.textContent?.includes("saved"),
      );
      expect(await page.$(byTestId("save-problem"))).toBeNull();
      expect(await page.inputValue(byTestId("prior-institution"))).toBe(
        "University of Pennsylvania (Moore School)",
      );
      await activate(page, byTestId("save-and-return"));
      await page.waitForURL(taskList);

      // Documents: a file that is not a PDF, PNG or JPEG, and one too large, refused in words;
      // then a transcript,
      // another that replaces it, and "remove".
      await activate(page, byTestId("task-documents"));
      await page.waitForSelector(byTestId("document-upload"));
      await chooseFile(page, byTestId("document-upload"), {
        name: "notes.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("These are only notes, not a PDF at all."),
      });
      await page.waitForSelector(byTestId("upload-problem"));
      expect(await textOf(page, "upload-problem")).toContain(
        "This file is not a PDF, PNG or JPEG. Save it in one of those formats and choose it again.",
      );
      await check(page, "section-documents-refused");
      // A file over the 10 MB limit: said in words too, with what to do.
      const large = Buffer.alloc(10 * 1024 * 1024 + 1024, 0x20);
      large.write("%PDF-1.7\n");
      await chooseFile(page, byTestId("document-upload"), {
        name: "scan.pdf",
        mimeType: "application/pdf",
        buffer: large,
      });
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="upload-problem"]')?.textContent?.includes("10 MB"),
      );
      expect(await textOf(page, "upload-problem")).toContain("Choose a smaller file");
      await chooseFile(page, byTestId("document-upload"), {
        name: "first.pdf",
        mimeType: "application/pdf",
        buffer: pdf(),
      });
      await page.waitForSelector('[data-testid="checklist"] li[data-status="uploaded"]');
      await chooseFile(page, byTestId("document-upload"), {
        name: "second.pdf",
        mimeType: "application/pdf",
        buffer: pdf(),
      });
      await page.waitForFunction(() =>
        document
          .querySelector('[data-testid="upload-status"]')
          ?.textContent?.includes("second.pdf is uploaded and replaces first.pdf."),
      );
      expect(await page.$$eval(byTestId("document"), (rows) => rows.length)).toBe(1);
      await check(page, "section-documents-replaced");
      await activate(page, byTestId("document-remove"));
      await page.waitForSelector('[data-testid="checklist"] li[data-status="missing"]');
      expect(await textOf(page, "upload-status")).toBe("second.pdf is removed.");

      // In French: the task list, each section, the summary's sentences, check your answers.
      await activate(page, byTestId("language-fr"));
      await page.waitForFunction(() => document.documentElement.lang === "fr");
      await page.waitForSelector(byTestId("checklist"));
      expect(await page.title()).toBe("Documents · University of Example");
      await check(page, "section-documents-fr");
      await chooseFile(page, byTestId("document-upload"), {
        name: "notes.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("Toujours pas un PDF."),
      });
      await page.waitForSelector(byTestId("upload-problem"));
      expect(await textOf(page, "upload-problem")).toContain("Il y a un problème");
      expect(await textOf(page, "upload-problem")).toContain(
        "n’est ni un PDF, ni un PNG, ni un JPEG",
      );
      await check(page, "section-documents-refused-fr");
      await page.goto(taskList);
      await page.waitForSelector(byTestId("task-list"));
      expect(await page.textContent("main h1")).toBe("Votre candidature");
      await check(page, "task-list-fr");
      for (const section of ["details", "statement", "referees", "fee", "check"]) {
        await page.goto(`${taskList}/${section}`);
        await page.waitForSelector(byTestId("section-back"));
        await page.waitForLoadState("networkidle");
        await check(page, `section-${section}-fr`);
      }
      await page.goto(`${taskList}/qualifications`);
      await page.waitForSelector(byTestId("graduation-year"));
      await page.fill(byTestId("graduation-year"), "");
      await tabTo(page, byTestId("graduation-year"));
      await page.keyboard.type("1800");
      await page.waitForSelector(byTestId("error-summary"));
      expect(await page.textContent("#graduation-year-error")).toBe(
        "Saisissez une année à partir de 1900.",
      );
      await check(page, "section-qualifications-error-fr");
      await page.goto(`${base}/portal/applications/`);
      await page.waitForSelector(byTestId("dashboard-application"));
      expect(await textOf(page, "next-step")).toContain("Terminez votre candidature");
      await check(page, "dashboard-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForFunction(() => document.documentElement.lang === "en");
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);

    test("after it is sent: the interview, the offer, a condition's evidence, a deferral, withdrawing — keyboard only", async () => {
      const { base, admin, mailbox, context } = ctx();
      const sent = await sentApplication(base, admin, mailbox, "Journey After");
      const id = sent.applicationId;
      await context.clearCookies();
      const page = await open();
      await page.goto(`${base}/portal/login`);
      await page.waitForSelector(byTestId("login-email"));
      await typeSignIn(page, sent.email, sent.password);
      await page.waitForURL(`${base}/portal/applications/`);

      // Sent and waiting: the application says there is nothing to do yet, in words.
      await page.goto(`${base}/portal/applications/${id}`);
      await page.waitForSelector('[data-testid="application-status"][data-status="submitted"]');
      expect(await textOf(page, "next-step")).toContain("Nothing to do for now");
      await check(page, "after-submitted");

      // The office invites the applicant to an interview (through the API).
      const me = await admin.call<{ id: string }>("GET", "/auth/me/");
      await admin.call("POST", `/applications/${id}/transitions/`, { to: "under_review" });
      const slot = await admin.call("POST", "/interviews/", {
        startsAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
        durationMinutes: 30,
        meetingUrl: "https://meet.example.org/journey",
        panel: [me.id],
      });
      await admin.call("POST", `/interviews/${slot.id}/invite/`, { applicationId: id });
      await page.reload();
      await page.waitForSelector('[data-testid="interview-slot"][data-status="invited"]');
      expect(await textOf(page, "interview-slot")).toContain("https://meet.example.org/journey");
      expect(await textOf(page, "next-step")).toContain("Confirm your interview");
      await check(page, "after-interview-invited");
      await activate(page, byTestId("interview-confirm"));
      await page.waitForSelector('[data-testid="interview-slot"][data-status="confirmed"]');
      expect(await textOf(page, "interview-done")).toBe("Thank you: your interview is confirmed.");
      // The calendar file, fetched with the session: the same event as the invitation's.
      const ics = await page.evaluate(
        async (href) => {
          const res = await fetch(href);
          return { type: res.headers.get("content-type"), text: await res.text() };
        },
        (await page.getAttribute(byTestId("interview-calendar"), "href")) ?? "",
      );
      expect(ics.type).toBe("text/calendar; charset=utf-8; method=PUBLISH");
      expect(ics.text).toContain(`UID:${slot.id}@admissions`);
      // Then another time, with a note.
      await activate(page, byTestId("interview-reschedule"));
      await tabTo(page, byTestId("interview-note"));
      await page.keyboard.type("I sit an exam that morning.");
      await activate(page, byTestId("interview-send-request"));
      await page.waitForSelector(
        '[data-testid="interview-slot"][data-status="reschedule_requested"]',
      );
      await check(page, "after-interview-requested");

      // A conditional offer; its letter; accepted; the condition's evidence uploaded.
      await admin.call("POST", `/applications/${id}/decision/`, {
        decision: "conditional_offer",
        conditions: ["Final grade of at least B in Mathematics"],
      });
      await page.reload();
      await page.waitForSelector(byTestId("offer-letter"));
      await activate(page, byTestId("accept-offer"));
      await page.waitForSelector('[data-testid="application-status"][data-status="accepted"]');
      await page.waitForSelector(byTestId("condition-evidence"));
      await chooseFile(page, byTestId("condition-evidence"), {
        name: "grades.pdf",
        mimeType: "application/pdf",
        buffer: pdf(),
      });
      await page.waitForFunction(() =>
        document
          .querySelector('[data-testid="condition-status"]')
          ?.textContent?.includes("grades.pdf is sent as evidence."),
      );
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="condition"]')?.textContent?.includes("Evidence sent"),
      );
      await check(page, "after-condition-evidence");
      const conditions = await admin.call<{
        conditions: { id: string; evidenceDocumentId: string }[];
      }>("GET", `/applications/${id}/conditions/`);
      expect(conditions.conditions[0]?.evidenceDocumentId).toBeTruthy();

      // A deferral to the later intake (the radio chosen by keyboard).
      await activate(page, byTestId("deferral-link"));
      await page.waitForURL(`${base}/portal/applications/${id}/deferral`);
      await page.waitForSelector(byTestId("deferral-intake"));
      await tabTo(page, byTestId("deferral-intake"));
      await page.keyboard.press("Space");
      await tabTo(page, byTestId("deferral-reason"));
      await page.keyboard.type("A year of military service.");
      await activate(page, byTestId("deferral-request"));
      await page.waitForSelector(byTestId("deferral-sent"));
      expect(await page.getAttribute(byTestId("deferral"), "data-status")).toBe("requested");
      await check(page, "after-deferral");

      // In French, the page after submission is all French.
      await activate(page, byTestId("language-fr"));
      await page.waitForFunction(() => document.documentElement.lang === "fr");
      await page.goto(`${base}/portal/applications/${id}`);
      await page.waitForSelector(byTestId("timeline"));
      await page.waitForLoadState("networkidle");
      expect(await textOf(page, "timeline")).toContain("Vous avez accepté l’offre.");
      await check(page, "after-accepted-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForFunction(() => document.documentElement.lang === "en");

      // Withdrawing, on its own page: said what it means, then done.
      await page.waitForSelector(byTestId("withdraw-link"));
      await activate(page, byTestId("withdraw-link"));
      await page.waitForURL(`${base}/portal/applications/${id}/withdraw`);
      await page.waitForSelector(byTestId("withdraw"));
      await check(page, "withdraw");
      await activate(page, byTestId("withdraw"));
      await page.waitForSelector(byTestId("withdrawn"));
      await page.goto(`${base}/portal/applications/${id}`);
      await page.waitForSelector('[data-testid="application-status"][data-status="withdrawn"]');
      expect(await textOf(page, "timeline")).toContain("You withdrew your application.");
      expect(await page.$(byTestId("withdraw-link"))).toBeNull();
      await check(page, "after-withdrawn");
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);

    test("an offer declined, in French: a second press to be sure, then said in the timeline", async () => {
      const { base, admin, mailbox, context } = ctx();
      const sent = await sentApplication(base, admin, mailbox, "Journey Decline");
      const id = sent.applicationId;
      await admin.call("POST", `/applications/${id}/transitions/`, { to: "under_review" });
      await admin.call("POST", `/applications/${id}/decision/`, { decision: "offer" });
      await context.clearCookies();
      const page = await open();
      await page.goto(`${base}/portal/login`);
      await page.waitForSelector(byTestId("login-email"));
      await typeSignIn(page, sent.email, sent.password);
      await page.waitForURL(`${base}/portal/applications/`);
      await activate(page, byTestId("language-fr"));
      await page.waitForFunction(() => document.documentElement.lang === "fr");
      await page.goto(`${base}/portal/applications/${id}`);
      await page.waitForSelector(byTestId("decline-offer"));
      // The first press only asks again; nothing is sent yet.
      await activate(page, byTestId("decline-offer"));
      await page.waitForSelector(byTestId("decline-offer-confirm"));
      expect(await textOf(page, "decline-offer-confirm")).toBe("Oui, la refuser définitivement");
      const still = await admin.call<{ status: string }>("GET", `/applications/${id}/`);
      expect(still.status).toBe("offered");
      await check(page, "offer-decline-confirm-fr");
      await activate(page, byTestId("decline-offer-confirm"));
      await page.waitForSelector('[data-testid="application-status"][data-status="declined"]');
      expect(await textOf(page, "application-status")).toBe("Offre refusée");
      expect(await textOf(page, "next-step")).toBe("Pas d’autre étape : vous avez refusé l’offre.");
      await page.waitForFunction(() =>
        document
          .querySelector('[data-testid="timeline"]')
          ?.textContent?.includes("Vous avez refusé l’offre."),
      );
      expect(await page.$(byTestId("withdraw-link"))).toBeNull();
      await check(page, "offer-declined-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForFunction(() => document.documentElement.lang === "en");
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);
  },
);
