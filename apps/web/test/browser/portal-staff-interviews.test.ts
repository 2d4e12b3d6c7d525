/**
 * Interviews in Chromium through the gateway (SQLite, or PostgreSQL + Redis with
 * TEST_DATABASE_URL / TEST_REDIS_URL), keyboard only: an admin opens a slot (refused empty, in
 * words; a clash with the reviewer's other interview warned of as it is filled in), invites an
 * application under review to it, moves it (and is refused a move onto the busy time), cancels
 * the other one; a panel member records an interview's outcome once it has started. axe at
 * both widths on every state, screenshots of each, one page in French.
 */
import { describe, expect, test } from "bun:test";
import { ADMIN } from "./admissions.ts";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, tabTo } from "./keyboard.ts";
import { staffHarness, staffSignIn, tomorrowAt, typeDateTime } from "./staff-pages.ts";
import { REVIEWER, reviewReadyApplication } from "./staff-setup.ts";

if (!hasChromium) console.warn(`portal staff interviews browser tests ${NO_CHROMIUM}`);

/** Expected failed statuses: signed out 401, the clash's 409, the empty slot's and off-scale score's 422. */
const EXPECTED = /status of (401|404|409|422)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "interviews in Chromium" : `interviews (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = staffHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-staff-interviews",
    });

    test("an admin opens a slot with the clash warned of, invites, moves and cancels — keyboard only", async () => {
      const { base, context, admin, mailbox } = ctx();
      const { applicationId, reviewerId, reviewerEmail } = await reviewReadyApplication(
        base,
        admin,
        mailbox,
        { programName: "Interviewing" },
      );
      // The reviewer is already on an interview tomorrow from 10:00 to 11:00.
      const busy = await admin.call<{ id: string }>("POST", "/interviews/", {
        startsAt: tomorrowAt(10).toISOString(),
        durationMinutes: 60,
        location: "Room 1",
        panel: [reviewerId],
      });
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, base, ADMIN.email, ADMIN.password);
      await activate(page, 'a[href="/portal/staff/interviews"]');
      await page.waitForSelector(byTestId("interview-row"));
      await check(page, "list");

      // A new slot, saved empty: the summary names each field in words.
      await activate(page, byTestId("interview-slot-new"));
      await page.waitForURL(`${base}/portal/staff/interviews/new`);
      await page.waitForSelector(byTestId("panel-member"));
      await activate(page, byTestId("interview-slot-save"));
      await page.waitForSelector(`${byTestId("slot-problem")}.error-summary`);
      const refused = (await page.textContent(byTestId("slot-problem"))) ?? "";
      expect(refused).toContain("There is a problem");
      expect(refused).toContain("Enter a date and time in the future");
      expect(refused).not.toMatch(/must|Expected|pattern/);
      await check(page, "new-refused");

      // 10:30 for an hour, in Room 4, with the reviewer: the clash is warned of before saving.
      await tabTo(page, byTestId("slot-start"));
      await typeDateTime(page, tomorrowAt(10, 30));
      await tabTo(page, byTestId("slot-duration"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type("60");
      await tabTo(page, byTestId("slot-location"));
      await page.keyboard.type("Room 4");
      await tabTo(page, `${byTestId("panel-member")}[data-user-id="${reviewerId}"]`);
      await page.keyboard.press("Space");
      await page.waitForSelector(byTestId("interview-clash"));
      const clash = (await page.textContent(byTestId("interview-clash"))) ?? "";
      expect(clash).toContain("Rita Reviewer is on another interview");
      expect(await page.getAttribute(`${byTestId("interview-clash")} a`, "href")).toBe(
        `/portal/staff/interviews/${busy.id}`,
      );
      await check(page, "new-clash");
      // Back to back at 11:00: no clash any more, and it is saved.
      await tabTo(page, byTestId("slot-start"));
      await typeDateTime(page, tomorrowAt(11));
      await page.waitForSelector(byTestId("interview-clash"), { state: "detached" });
      await activate(page, byTestId("interview-slot-save"));
      await page.waitForURL(/\/portal\/staff\/interviews\/[0-9a-f-]{36}\?saved=created$/);
      await page.waitForSelector(byTestId("interview-saved"));
      const slotId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
      expect(await page.textContent(byTestId("interview-status"))).toBe("Open");
      await check(page, "created");

      // The application invited to it (the second open slot by time: one arrow down).
      await page.goto(`${base}/portal/staff/applications/${applicationId}`);
      await page.waitForSelector(byTestId("interview-invite"));
      await tabTo(page, "#invite-slot");
      await page.keyboard.press("ArrowDown");
      expect(await page.$eval("#invite-slot", (el) => (el as HTMLSelectElement).value)).toBe(
        slotId,
      );
      await activate(page, byTestId("interview-invite"));
      await page.waitForSelector('[data-testid="application-status"][data-status="interviewing"]');
      await page.waitForSelector(`${byTestId("application-interview")} [data-status="invited"]`);
      expect(await page.locator(byTestId("interview-invite")).count()).toBe(0);
      await check(page, "application-invited");
      const application = await admin.call<{ status: string }>(
        "GET",
        `/applications/${applicationId}/`,
      );
      expect(application.status).toBe("interviewing");

      // Moved to 14:00 from its page; the applicant will confirm again.
      await activate(page, `a[href="/portal/staff/interviews/${slotId}"]`);
      await page.waitForSelector(byTestId("interview-reschedule"));
      await tabTo(page, byTestId("slot-start"));
      await typeDateTime(page, tomorrowAt(14));
      await activate(page, byTestId("interview-reschedule-save"));
      await page.waitForSelector(byTestId("interview-saved"));
      expect(await page.textContent(byTestId("interview-saved"))).toContain(
        "The interview is moved",
      );
      const moved = await admin.call<{ startsAt: string; status: string }>(
        "GET",
        `/interviews/${slotId}/`,
      );
      expect(moved.startsAt).toBe(tomorrowAt(14).toISOString());
      expect(moved.status).toBe("invited");
      await check(page, "rescheduled");
      // Onto the reviewer's busy hour: warned, and the API refuses it in words.
      await tabTo(page, byTestId("slot-start"));
      await typeDateTime(page, tomorrowAt(10));
      await page.waitForSelector(byTestId("interview-clash"));
      await activate(page, byTestId("interview-reschedule-save"));
      await page.waitForSelector(`${byTestId("slot-problem")}[data-code="INTERVIEW_CLASH"]`);
      expect(await page.textContent(byTestId("slot-problem"))).toContain(
        "already on another interview at that time",
      );
      await check(page, "reschedule-clash");

      // The busy slot cancelled: a second press, then it frees the panel.
      await page.goto(`${base}/portal/staff/interviews/${busy.id}`);
      await page.waitForSelector(byTestId("interview-cancel"));
      await tabTo(page, "#cancel-note");
      await page.keyboard.type("Room unavailable");
      await activate(page, byTestId("interview-cancel"));
      await page.waitForSelector(byTestId("interview-cancel-confirm"));
      await check(page, "cancel-confirm");
      await activate(page, byTestId("interview-cancel"));
      await page.waitForSelector(`${byTestId("interview-status")}:text("Cancelled")`);
      expect(await page.locator(byTestId("interview-cancel")).count()).toBe(0);
      await check(page, "cancelled");

      // The list, in French: the still-to-come interview, its state in words.
      await page.goto(`${base}/portal/staff/interviews`);
      await page.waitForSelector(byTestId("interview-row"));
      await activate(page, byTestId("language-fr"));
      await page.waitForSelector('html[lang="fr"]');
      await page.waitForSelector(byTestId("interview-row"));
      expect(await page.textContent("h1")).toBe("Entretiens");
      expect(await page.textContent(byTestId("interviews"))).toContain(
        "Invité, pas encore confirmé",
      );
      await check(page, "list-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForSelector('html[lang="en"]');

      // The reviewer's own list: the interviews whose panel they sit on.
      await activate(page, byTestId("logout"));
      await page.waitForURL(`${base}/portal/staff/login`);
      await staffSignIn(page, base, reviewerEmail, REVIEWER.password);
      await activate(page, 'a[href="/portal/staff/interviews"]');
      await page.waitForSelector(byTestId("interview-row"));
      expect(await page.isChecked(byTestId("interviews-mine"))).toBe(true);
      // Their invited interview and the cancelled one, both still ahead; the cancelled says so.
      expect(await page.locator(byTestId("interview-row")).count()).toBe(2);
      expect(
        await page.locator(`${byTestId("interview-row")}[data-status="cancelled"]`).count(),
      ).toBe(1);
      expect(await page.locator(byTestId("interview-slot-new")).count()).toBe(0);
      await check(page, "list-reviewer");
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);

    test("a panel member records the outcome once the interview has started, refused off the scale first", async () => {
      const { base, context, admin, mailbox } = ctx();
      const { applicationId } = await reviewReadyApplication(base, admin, mailbox, {
        programName: "Interview Outcomes",
      });
      const me = await admin.call<{ id: string }>("GET", "/auth/me/");
      // A slot a few seconds ahead with the admin on its panel, the application invited to it.
      const startsAt = Date.now() + 4_000;
      const slot = await admin.call<{ id: string }>("POST", "/interviews/", {
        startsAt: new Date(startsAt).toISOString(),
        durationMinutes: 30,
        meetingUrl: "https://meet.example.org/outcome",
        panel: [me.id],
      });
      await admin.call("POST", `/interviews/${slot.id}/invite/`, { applicationId });
      // It has started: the panel may score it (no assertion on time, only the wait for it).
      await Bun.sleep(Math.max(0, startsAt - Date.now() + 500));
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, base, ADMIN.email, ADMIN.password);
      await page.goto(`${base}/portal/staff/applications/${applicationId}`);
      await page.waitForSelector(byTestId("interview-outcome"));
      expect(await page.textContent(byTestId("interview-details"))).toContain(
        "Video call (meet.example.org)",
      );
      await tabTo(page, byTestId("interview-score-input"));
      await page.keyboard.type("9");
      await tabTo(page, byTestId("interview-comment-input"));
      await page.keyboard.type("Clear and well prepared.");
      await activate(page, byTestId("interview-outcome-save"));
      await page.waitForSelector(`${byTestId("interview-outcome-problem")}.error-summary`);
      expect(await page.textContent(byTestId("interview-outcome-problem"))).toContain(
        "Enter a whole number from 1 to 5",
      );
      await check(page, "outcome-refused");
      await tabTo(page, byTestId("interview-score-input"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type("4");
      await activate(page, byTestId("interview-outcome-save"));
      await page.waitForSelector(byTestId("interview-outcome-saved"));
      await page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid="interview-score"]')
            ?.textContent?.startsWith("Interview: 4") ?? false,
      );
      expect(await page.textContent(byTestId("interview-scores"))).toContain("4");
      await check(page, "outcome");
      const interview = await admin.call<{ scores: { score: number; comment: string }[] }>(
        "GET",
        `/interviews/${slot.id}/`,
      );
      expect(interview.scores).toEqual([
        expect.objectContaining({ score: 4, comment: "Clear and well prepared." }),
      ]);
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test("a filter nothing matches, and an interview that does not exist, said in words", async () => {
      const { base, context, admin } = ctx();
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, base, ADMIN.email, ADMIN.password);
      await activate(page, 'a[href="/portal/staff/interviews"]');
      await page.waitForSelector(byTestId("interviews-count"));
      // Nobody has asked for another time: that state, chosen by arrow keys, lists none. Each
      // press asks the API; the answer for "invited" (the interview scored above, still on) is
      // held back until after the last, and must not replace it when it comes.
      const { results: invited } = await admin.call<{ results: unknown[] }>(
        "GET",
        `/interviews/?status=invited&from=${encodeURIComponent(new Date().toISOString())}`,
      );
      expect(invited.length).toBeGreaterThan(0);
      await page.route(/\/api\/v1\/interviews\/\?.*status=invited/, async (route) => {
        await Bun.sleep(1_500);
        await route.continue();
      });
      const lateAnswer = page.waitForResponse(/\/api\/v1\/interviews\/\?.*status=invited/);
      await tabTo(page, "#interviews-status");
      for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
      expect(await page.$eval("#interviews-status", (el) => (el as HTMLSelectElement).value)).toBe(
        "reschedule_requested",
      );
      await page.waitForSelector(`${byTestId("interviews-count")}:text("Interviews: 0.")`);
      await lateAnswer;
      await page.evaluate(() => new Promise(requestAnimationFrame));
      expect(await page.textContent(byTestId("interviews-count"))).toBe("Interviews: 0.");
      expect(await page.textContent("main")).toContain("No interview matches.");
      expect(await page.locator(byTestId("interview-row")).count()).toBe(0);
      expect(await page.locator("nav.pager").count()).toBe(0);
      await check(page, "list-empty");
      // An interview id nobody made: the API's 404 in the office's words, no form.
      await page.goto(`${base}/portal/staff/interviews/${crypto.randomUUID()}`);
      await page.waitForSelector(":text('This was not found, or is not yours to see.')");
      expect(await page.locator(byTestId("interview-details")).count()).toBe(0);
      await check(page, "not-found");
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
