/**
 * The staff half of the portal in Chromium, through the real gateway to the real admissions app
 * (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL). The applicant's part
 * is set up through the API (staff-setup.ts); a reviewer then scores the application and an
 * admin decides it, both keyboard only (Tab, Enter, typing). Every page is checked with axe-core
 * and for CSP refusals or script errors, and screenshotted at desktop and phone width.
 */
import { describe, expect, test } from "bun:test";
import { Secret, TOTP } from "otpauth";
import { ADMIN } from "./admissions.ts";
import { hasChromium, NO_CHROMIUM, type Page } from "./chromium.ts";
import { activate, byTestId, pressFor, recordFocus, tabTo, typeSignIn } from "./keyboard.ts";
import { portalHarness } from "./portal-harness.ts";
import { previewLoaded, staffSignIn } from "./staff-pages.ts";
import { REVIEWER, reviewReadyApplication } from "./staff-setup.ts";

if (!hasChromium) console.warn(`portal staff browser tests ${NO_CHROMIUM}`);

/** Chromium reports every non-2xx fetch as a console error: expected are signed-out 401, the refused bulk move 409 and the off-scale 422. */
const EXPECTED = /status of (401|409|422)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "the staff portal in Chromium" : `the staff portal (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-staff",
      preparePage: recordFocus,
      // Chromium's own PDF viewer (an extension, in the preview's frame) is not our code.
      notOurs: (error) => error.stack?.includes("chrome-extension://") ?? false,
    });

    const signIn = (page: Page, email: string, password: string) =>
      staffSignIn(page, ctx().base, email, password);

    test("a reviewer scores an application, then an admin decides it with the seats in view — keyboard only", async () => {
      const { base, context, admin, mailbox } = ctx();
      const { applicationId, reviewerEmail } = await reviewReadyApplication(base, admin, mailbox);
      await context.clearCookies();
      const page = await open();

      // The reviewer: sign-in, the queue (their one assignment), the application.
      await page.goto(`${base}/portal/staff/login`);
      await page.waitForSelector(byTestId("login-email"));
      await check(page, "login");
      await signIn(page, reviewerEmail, REVIEWER.password);
      expect(await page.locator(byTestId("queue-item")).count()).toBe(1);
      expect(await page.textContent(byTestId("staff-queue"))).toContain("Alan Applicant");
      await check(page, "queue-reviewer");
      await activate(page, `${byTestId("queue-item")} a`);
      await page.waitForURL(`${base}/portal/staff/applications/${applicationId}`);

      // The documents, listed by type beside the rubric, each fetched only once it is opened.
      await page.waitForSelector(`${byTestId("documents-panel")} ${byTestId("document")}`);
      expect(await page.locator(byTestId("document-preview")).count()).toBe(0);
      const opener = (media: string) =>
        `${byTestId("document")}[data-media-type="${media}"] ${byTestId("document-open")}`;
      // The transcript: Chromium's PDF viewer in a frame, of a blob: URL.
      await activate(page, opener("application/pdf"));
      await previewLoaded(page);
      const pdf = await page.getAttribute(`${byTestId("document")} iframe`, "src");
      expect(pdf?.startsWith("blob:")).toBe(true);
      expect(await page.getAttribute(`${byTestId("document")} iframe`, "title")).toBe("Transcript");
      // The CV: the image replaces the PDF (one viewer at a time), from a blob: URL too.
      await activate(page, opener("image/png"));
      await page.waitForSelector(`${byTestId("document")}[data-media-type="image/png"] img`);
      expect(await page.locator(`${byTestId("document")} iframe`).count()).toBe(0);
      const image = await page.getAttribute(`${byTestId("document")} img`, "src");
      expect(image?.startsWith("blob:")).toBe(true);
      expect(
        await page.$eval(
          `${byTestId("document")} img`,
          (img) => (img as HTMLImageElement).naturalWidth,
        ),
      ).toBe(1);
      // No decision form for a reviewer.
      expect(await page.locator(byTestId("decision")).count()).toBe(0);
      await page.waitForSelector(byTestId("score-form"));
      await check(page, "application-reviewer");

      // Scoring: an off-scale score is refused beside its field, then corrected.
      await tabTo(page, byTestId("score-academic_record"));
      await page.keyboard.type("9");
      await tabTo(page, byTestId("score-statement"));
      await page.keyboard.type("5");
      await tabTo(page, byTestId("review-comment"));
      await page.keyboard.type("A clear, well-argued statement.");
      await activate(page, byTestId("save-review"));
      await page.waitForSelector(byTestId("review-problem"));
      await page.focus(byTestId("score-academic_record"));
      await page.keyboard.press("Backspace");
      await page.keyboard.type("4");
      await activate(page, byTestId("save-review"));
      await page.waitForSelector(byTestId("review-saved"));
      // Σ score × weight / Σ weight = (4×3 + 5×1) / 4 = 4.25
      expect(await page.textContent(byTestId("review-saved"))).toContain("4.25");
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="review"]').length === 1,
      );
      await check(page, "application-scored");
      await activate(page, byTestId("logout"));
      await page.waitForURL(`${base}/portal/staff/login`);

      // The admin: every application awaiting a decision, this one with its review.
      await signIn(page, ADMIN.email, ADMIN.password);
      await check(page, "queue-admin");
      // The search is the API's: nothing matches a made-up name; the applicant's finds it again.
      await tabTo(page, byTestId("queue-search"));
      await page.keyboard.type("Nobody Byname");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="queue-count"]')?.textContent === "Applications: 0.",
      );
      expect(await page.locator(byTestId("queue-item")).count()).toBe(0);
      await check(page, "queue-admin-search-none");
      await tabTo(page, byTestId("queue-search"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type("alan applicant");
      await page.keyboard.press("Enter");
      await page.waitForSelector(`${byTestId("queue-item")} a[href$="${applicationId}"]`);
      await activate(page, `${byTestId("queue-item")} a[href$="${applicationId}"]`);
      await page.waitForSelector('[data-testid="seats"][data-available="10"]');
      expect(await page.textContent(byTestId("reviews"))).toContain("4.25");
      await check(page, "application-admin");
      // An offer (the first choice, already selected), with a reason.
      expect(await page.isChecked(byTestId("decision-offer"))).toBe(true);
      await tabTo(page, byTestId("decision-reason"));
      await page.keyboard.type("Strong scores from the review.");
      await activate(page, byTestId("decide"));
      await page.waitForSelector(byTestId("decided"));
      await page.waitForSelector('[data-testid="seats"][data-available="9"][data-held="1"]');
      await page.waitForSelector('[data-testid="application-status"][data-status="offered"]');
      await page.waitForSelector(byTestId("decision-closed"));
      await check(page, "application-decided");
      const after = await admin.call<{ status: string }>("GET", `/applications/${applicationId}/`);
      expect(after.status).toBe("offered");

      // The office's other pages: statistics (a chart), the CSV, the audit log, the outbox.
      await activate(page, 'a[href="/portal/staff/stats"]');
      await page.waitForSelector(byTestId("stats-chart"));
      expect(await page.locator(`${byTestId("stats-chart")} rect`).count()).toBeGreaterThan(0);
      await check(page, "stats");
      const csv = await page.evaluate(
        async (url) => {
          const res = await fetch(url);
          return { type: res.headers.get("content-type") ?? "", text: await res.text() };
        },
        (await page.getAttribute(byTestId("export-csv"), "href")) ?? "",
      );
      expect(csv.type).toContain("text/csv");
      expect(csv.text).toContain(applicationId);
      await activate(page, 'a[href="/portal/staff/audit"]');
      await page.waitForSelector(byTestId("audit-entry"));
      // In words: whose application, the move between two statuses, by whom; never the code.
      const log = await page.textContent(byTestId("audit-log"));
      expect(log).toContain("Alan Applicant's application");
      expect(log).toContain("Under review → Offer made, by Grace Hopper");
      expect(log).not.toContain("application.transition");
      await check(page, "audit");
      await activate(page, 'a[href="/portal/staff/outbox"]');
      await page.waitForSelector(byTestId("outbox-email"));
      await check(page, "outbox");

      // Staff accounts: a new reviewer, from the keyboard; then the first reviewer turned off.
      await activate(page, 'a[href="/portal/staff/users"]');
      await page.waitForSelector(byTestId("staff-user"));
      const before = await page.locator(byTestId("staff-user")).count();
      await check(page, "users");
      await tabTo(page, "#new-staff-name");
      await page.keyboard.type("Nora Newcomer");
      await tabTo(page, "#new-staff-email");
      await page.keyboard.type(`nora-${crypto.randomUUID().slice(0, 8)}@portal-test.example`);
      await tabTo(page, "#new-staff-password");
      await page.keyboard.type("a-long-initial-password");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("staff-created"));
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="staff-user"]').length === n + 1,
        before,
      );
      await activate(page, 'button[aria-label="Turn off Rita Reviewer\'s account"]');
      await page.waitForSelector('[data-testid="staff-user"][data-active="false"]');
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);

    test("an admin waitlists an application, then offers the first in line a seat from the waiting list", async () => {
      const { base, context, admin, mailbox } = ctx();
      const { applicationId, intakeId } = await reviewReadyApplication(base, admin, mailbox);
      await context.clearCookies();
      const page = await open();
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.goto(`${base}/portal/staff/applications/${applicationId}`);
      await page.waitForSelector('[data-testid="seats"][data-available="10"]');
      // The radio group from the keyboard: Tab into it, arrows to "waiting list".
      await tabTo(page, byTestId("decision-offer"));
      // One arrow at a time, each waited for: the form re-renders on each choice (a conditional
      // offer adds its field). If one is lost, the failure lists where the focus went.
      await pressFor(page, "ArrowDown", `${byTestId("decision-conditional_offer")}:checked`);
      await page.waitForSelector(byTestId("decision-conditions"));
      await pressFor(page, "ArrowDown", `${byTestId("decision-waitlist")}:checked`);
      expect(await page.isChecked(byTestId("decision-waitlist"))).toBe(true);
      await activate(page, byTestId("decide"));
      await page.waitForSelector('[data-testid="application-status"][data-status="waitlisted"]');
      await page.waitForSelector('[data-testid="seats"][data-available="10"]');
      await activate(page, `a[href="/portal/staff/intakes/${intakeId}/waitlist"]`);
      await page.waitForSelector(byTestId("waitlist-item"));
      expect(await page.textContent(byTestId("waitlist"))).toContain("Alan Applicant");
      await check(page, "waitlist");
      await activate(page, byTestId("promote"));
      await page.waitForSelector(byTestId("promoted"));
      await page.waitForSelector('[data-testid="seats"][data-available="9"]');
      // The list and the seats are read again apart: the seats can come back first.
      await page.waitForSelector(byTestId("waitlist-item"), { state: "detached" });
      expect(await page.locator(byTestId("waitlist-item")).count()).toBe(0);
      const after = await admin.call<{ status: string }>("GET", `/applications/${applicationId}/`);
      expect(after.status).toBe("offered");
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test("bulk: a refused move changes nothing and says why; then both applications move together", async () => {
      const { base, context, admin, mailbox } = ctx();
      const first = await reviewReadyApplication(base, admin, mailbox);
      const second = await reviewReadyApplication(base, admin, mailbox);
      await context.clearCookies();
      const page = await open();
      await signIn(page, ADMIN.email, ADMIN.password);
      for (const { applicationId } of [first, second]) {
        await tabTo(page, `tr:has(a[href$="${applicationId}"]) ${byTestId("queue-select")}`);
        await page.keyboard.press("Space");
      }
      expect(await page.textContent(byTestId("bulk-actions"))).toContain("2 selected");
      // Both are under review already: moving them there is refused, for each, and nothing moves.
      await activate(page, byTestId("bulk-submit"));
      await page.waitForSelector(byTestId("bulk-refusals"));
      expect(await page.locator(`${byTestId("bulk-refusals")} li`).count()).toBe(2);
      const unchanged = await admin.call<{ status: string }>(
        "GET",
        `/applications/${first.applicationId}/`,
      );
      expect(unchanged.status).toBe("under_review");
      await check(page, "bulk-refused");
      await tabTo(page, "#bulk-to");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      expect(await page.$eval("#bulk-to", (el) => (el as HTMLSelectElement).value)).toBe(
        "rejected",
      );
      await activate(page, byTestId("bulk-submit"));
      await page.waitForSelector(byTestId("bulk-done"));
      expect(await page.textContent(byTestId("bulk-done"))).toContain("2 applications moved");
      for (const { applicationId } of [first, second]) {
        const after = await admin.call<{ status: string }>(
          "GET",
          `/applications/${applicationId}/`,
        );
        expect(after.status).toBe("rejected");
        // The queue is read again: neither awaits a decision any more.
        await page.waitForSelector(`a[href$="${applicationId}"]`, { state: "detached" });
      }
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test("a reviewer with MFA on is asked for the code after the password, and signs in with it", async () => {
      const { base, context, admin } = ctx();
      const email = `mia-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const password = "a-long-reviewer-password";
      await admin.call("POST", "/staff/users/", {
        email,
        fullName: "Mia Multifactor",
        password,
        role: "reviewer",
      });
      // MFA enrolled through the API, as the account page would.
      const login = await fetch(`${base}/api/v1/auth/login/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const bearer = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
      const started = await fetch(`${base}/api/v1/mfa/totp/`, { method: "POST", headers: bearer });
      const { secret } = (await started.json()) as { secret: string };
      const code = (ms: number) =>
        TOTP.generate({ secret: Secret.fromBase32(secret), digits: 6, period: 30, timestamp: ms });
      const confirmed = await fetch(`${base}/api/v1/mfa/totp/confirm/`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ code: code(Date.now()) }),
      });
      expect(confirmed.status).toBe(200);

      await context.clearCookies();
      const page = await open();
      // A hostile next (a backslash browsers read as "//"): after the code, the queue all the same.
      await page.goto(
        `${base}/portal/staff/login?next=${encodeURIComponent("/\\evil.example/portal/staff/")}`,
      );
      await typeSignIn(page, email, password);
      // The code field appears with the focus in it.
      await page.waitForSelector(byTestId("login-otp"));
      await page.waitForFunction(() => document.activeElement?.id === "staff-login-otp");
      await check(page, "login-mfa");
      // The next 30-second step: the one used to confirm would be refused as a replay.
      await page.keyboard.type(code(Date.now() + 30_000));
      await page.keyboard.press("Enter");
      await page.waitForURL(`${base}/portal/staff/`);
      await page.waitForSelector(byTestId("staff-queue"));
      // Nothing is assigned to this reviewer: the empty queue says so.
      await page.waitForSelector(byTestId("queue-empty"));
      expect(await page.textContent(byTestId("staff-role"))).toBe("Reviewer");
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
