/**
 * The applicant portal end to end in Chromium, through the real gateway to the real admissions
 * app (a temporary SQLite file, or a fresh PostgreSQL database with TEST_DATABASE_URL, and Redis
 * with TEST_REDIS_URL) and a real SMTP server whose emails' links the applicant opens. The
 * applicant uses the keyboard only (Tab, Enter, Space, typing); the admissions office's part
 * (confirming the transfer, the review and the decision) goes through the API. Every page is
 * checked with axe-core and for CSP refusals or script errors, and screenshotted.
 */
import { describe, expect, test } from "bun:test";
import type { FileChooser } from "playwright-core";
import { BANK_ACCOUNT, pdf } from "./admissions.ts";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, tabTo, typeRegistration, typeSignIn } from "./keyboard.ts";
import { portalHarness } from "./portal-harness.ts";

if (!hasChromium) console.warn(`portal browser tests ${NO_CHROMIUM}`);

/** Chromium reports every non-2xx fetch as a console error: the expected ones are these. */
const EXPECTED = /status of (400|401|404|409|412)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "the applicant portal in Chromium" : `the applicant portal (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      admissionsEnv: () => BANK_ACCOUNT,
    });

    test("register, verify, the dashboard, apply, the task list section by section, check, send, accept — keyboard only", async () => {
      const { base, mailbox, admin } = ctx();
      const program = await admin.openProgram("Portal Testing");
      const email = `ada-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const page = await open();

      // Registration.
      await page.goto(`${base}/portal/register`);
      await page.waitForSelector(byTestId("register-submit"));
      await check(page, "register");
      await typeRegistration(page, {
        fullName: "Ada Lovelace",
        email,
        password: "applicant-password-1",
      });
      // "Check your email", as for an address that has an account: nothing signs in here.
      await page.waitForSelector(byTestId("registered"));
      expect(page.url()).toBe(`${base}/portal/register`);
      expect(await page.textContent(byTestId("registered"))).toContain(email);
      await check(page, "registered");

      // The email's link: the token is posted, then gone from the address bar; "Continue" goes
      // on to the applicant's applications (through the sign-in), never to account settings.
      const link = await mailbox.link(email, "email_verification");
      expect(link.startsWith(`${base}/account/verify-email?token=`)).toBe(true);
      await page.goto(link);
      await page.waitForSelector(byTestId("email-verified"));
      expect(page.url()).toBe(`${base}/account/verify-email`);
      await check(page, "verify-email");
      await activate(page, 'main a[href^="/portal/login"]');
      await page.waitForSelector(byTestId("login-email"));
      await typeSignIn(page, email, "applicant-password-1");

      // The dashboard, with nothing started yet: what to do first.
      await page.waitForURL(`${base}/portal/applications/`);
      await page.waitForSelector(byTestId("dashboard-find"));
      await check(page, "dashboard-empty");

      // The catalogue: each card says when to apply by; search, open the programme, apply.
      await activate(page, byTestId("dashboard-find"));
      await page.waitForSelector(byTestId("program-list"), { state: "attached" });
      await tabTo(page, byTestId("program-search"));
      await page.keyboard.type(program.code as string);
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="program-item"]').length === 1,
      );
      expect(await page.textContent(byTestId("program-deadline"))).toMatch(/^Apply by \w+ \d/);
      await check(page, "programs");
      await activate(page, `${byTestId("program-item")} a`);
      await page.waitForURL(`${base}/portal/programs/${program.id}`);
      await page.waitForSelector(byTestId("apply"));
      await check(page, "program");
      await activate(page, byTestId("apply"));
      await page.waitForURL(/\/portal\/applications\/[\w-]+$/);
      const applicationId = page.url().split("/").at(-1) ?? "";
      const taskList = page.url();

      // The task list: six sections, none started; the deadline said.
      await page.waitForSelector(byTestId("task-list"));
      const states = () =>
        page.$$eval('[data-testid="task-item"]', (items) =>
          items.map((item) => (item as HTMLElement).dataset.status),
        );
      expect(await states()).toEqual(Array(6).fill("not_started"));
      expect(await page.textContent(byTestId("application-deadline"))).toMatch(
        /^Send your application by/,
      );
      await check(page, "task-list");

      // The statement, on its own page, saved as typed; a change made elsewhere meanwhile is
      // a conflict to settle.
      await activate(page, byTestId("task-statement"));
      await page.waitForURL(`${taskList}/statement`);
      await tabTo(page, byTestId("personal-statement"));
      await page.keyboard.type("I have wanted to test portals since I was small.");
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="save-state"]')?.textContent?.includes("saved"),
      );
      const other = await open();
      await other.goto(`${taskList}/qualifications`);
      await other.waitForSelector(byTestId("prior-qualification"));
      await other.focus(byTestId("prior-qualification"));
      await other.keyboard.type("BSc Testing");
      await other.waitForFunction(() =>
        document.querySelector('[data-testid="save-state"]')?.textContent?.includes("saved"),
      );
      await other.close();
      await page.focus(byTestId("personal-statement"));
      await page.keyboard.type(" And still do, every day, with every page and every form I meet.");
      await page.waitForSelector(byTestId("save-conflict"));
      await check(page, "section-statement-conflict");
      await activate(page, byTestId("conflict-keep-mine"));
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="save-state"]')?.textContent?.includes("saved"),
      );
      await activate(page, byTestId("save-and-return"));
      await page.waitForURL(taskList);
      await page.waitForSelector(byTestId("task-list"));
      // The statement is written (100 characters and more); the other tab's qualification
      // started that section.
      expect(await states()).toEqual([
        "not_started",
        "in_progress",
        "completed",
        "not_started",
        "not_started",
        "not_started",
      ]);

      // The required document, uploaded from the keyboard (Space opens the file chooser).
      // Listened for long before the Space: Playwright turns its interception of file choosers
      // on asynchronously when a listener is added, and a Space that outran it opened the
      // browser's own chooser instead (headless: nothing), one run in a few.
      await activate(page, byTestId("task-documents"));
      await page.waitForURL(`${taskList}/documents`);
      await page.waitForSelector(byTestId("document-upload"));
      const chooser = new Promise<FileChooser>((resolve) => page.once("filechooser", resolve));
      await page.waitForLoadState("networkidle");
      await tabTo(page, byTestId("document-upload"));
      await page.keyboard.press("Space");
      await (await chooser).setFiles({
        name: "transcript.pdf",
        mimeType: "application/pdf",
        buffer: pdf(),
      });
      await page.waitForSelector('[data-testid="checklist"] li[data-status="uploaded"]');
      await check(page, "section-documents");
      await activate(page, byTestId("section-return"));
      await page.waitForURL(taskList);

      // The fee, by bank transfer: the institution's account and the payment's own reference;
      // no card button (Stripe is not configured here). The office confirms the transfer.
      await activate(page, byTestId("task-fee"));
      await page.waitForURL(`${taskList}/fee`);
      await page.waitForSelector(byTestId("pay"));
      expect(await page.$(byTestId("pay-stripe"))).toBeNull();
      await activate(page, byTestId("pay"));
      await page.waitForSelector(byTestId("bank-details"));
      expect(await page.textContent(byTestId("bank-iban"))).toBe("GB33 BUKB 2020 1555 5555 55");
      expect(await page.textContent(byTestId("bank-account-name"))).toBe("University of Example");
      const reference = (await page.textContent(byTestId("bank-reference"))) ?? "";
      expect(reference).toMatch(/^ADM-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(await page.textContent(byTestId("bank-amount"))).toContain("50");
      await check(page, "section-fee-transfer");
      const payments = await admin.call<{ results: { id: string; reference: string }[] }>(
        "GET",
        `/applications/${applicationId}/payments/`,
      );
      expect(payments.results[0]?.reference).toBe(reference);
      const paymentId = payments.results[0]?.id ?? "";
      await admin.call("POST", `/payments/${paymentId}/confirm/`, { note: "Transfer received" });
      await page.reload();
      await page.waitForSelector(byTestId("receipt-link"));
      await activate(page, byTestId("section-return"));
      await page.waitForURL(taskList);
      await page.waitForFunction(
        () =>
          document.querySelectorAll('[data-testid="task-item"][data-status="completed"]').length ===
          3,
      );

      // Check your answers (each with its change link), then send: the confirmation page.
      await activate(page, byTestId("check-link"));
      await page.waitForURL(`${taskList}/check`);
      await page.waitForSelector(byTestId("check-answers"));
      expect(await page.textContent(byTestId("check-answers"))).toContain("transcript.pdf");
      expect(
        await page.$$eval('[data-testid="check-answers"] .summary-action a', (a) => a.length),
      ).toBeGreaterThan(8);
      await check(page, "check-answers");
      await activate(page, byTestId("submit-application"));
      await page.waitForURL(`${taskList}/submitted`);
      await page.waitForSelector(byTestId("confirm-submission"));
      // The reference is the one the emails give: the application's id.
      expect(await page.textContent(byTestId("application-reference"))).toBe(applicationId);
      await check(page, "confirm-submission");

      // The office reviews and offers, with a condition (through the API).
      await admin.call("POST", `/applications/${applicationId}/transitions/`, {
        to: "under_review",
      });
      await admin.call("POST", `/applications/${applicationId}/decision/`, {
        decision: "conditional_offer",
        conditions: ["Final grade of at least B"],
        reason: "A strong application",
      });
      await page.goto(taskList);
      await page.waitForSelector(byTestId("offer"));
      expect(await page.textContent(byTestId("offer-conditions"))).toContain(
        "Final grade of at least B",
      );
      // The signed offer letter is the API's PDF, fetched with the session.
      const letter = await page.evaluate(
        async (href) => {
          const res = await fetch(href);
          return { status: res.status, type: res.headers.get("content-type") };
        },
        (await page.getAttribute(byTestId("offer-letter"), "href")) ?? "",
      );
      expect(letter).toEqual({ status: 200, type: "application/pdf" });
      await check(page, "application-offer");
      await activate(page, byTestId("accept-offer"));
      await page.waitForSelector('[data-testid="application-status"][data-status="accepted"]');
      // The history in words: created, sent, under review, offered, accepted.
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="timeline"] li').length === 5,
      );
      expect(await page.textContent(byTestId("timeline"))).toContain("You sent your application.");
      expect(await page.textContent(byTestId("timeline"))).toContain(
        "Note from the admissions office: “A strong application”",
      );
      expect(await page.textContent(byTestId("timeline"))).toContain("You accepted the offer.");
      await check(page, "application-accepted");

      // The receipt, from the letters.
      await activate(page, byTestId("receipt-link"));
      await page.waitForSelector(byTestId("receipt"));
      expect(await page.textContent(byTestId("receipt-amount"))).toContain("50");
      await check(page, "receipt");

      // The dashboard: the application, its status and its next step.
      await page.goto(`${base}/portal/applications/`);
      await page.waitForSelector(byTestId("application-list"));
      expect(await page.getAttribute(byTestId("dashboard-application"), "data-status")).toBe(
        "accepted",
      );
      expect(await page.textContent(byTestId("next-step"))).toContain("Send evidence");
      await check(page, "dashboard");
      expect(errors).toEqual([]);
      await page.close();
    }, 240_000);

    test("forgotten password: the emailed link sets a new one, then sign in with it", async () => {
      const { base, mailbox } = ctx();
      const email = `grace-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const register = await fetch(`${base}/api/v1/auth/register/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "first-password-1", fullName: "Grace Hopper" }),
      });
      expect(register.status).toBe(202);
      await ctx().context.clearCookies();
      const page = await open();
      await page.goto(`${base}/account/forgot-password`);
      await page.waitForSelector(byTestId("forgot-email"));
      await check(page, "forgot-password");
      await tabTo(page, byTestId("forgot-email"));
      await page.keyboard.type(email);
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("reset-requested"));

      const link = await mailbox.link(email, "password_reset_requested");
      await page.goto(link);
      await page.waitForSelector(byTestId("reset-password"));
      expect(page.url()).toBe(`${base}/account/reset-password`);
      await check(page, "reset-password");
      await tabTo(page, byTestId("reset-password"));
      await page.keyboard.type("second-password-2");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("reset-done"));

      // The same link a second time is refused, in words.
      await page.goto(link);
      await tabTo(page, byTestId("reset-password"));
      await page.keyboard.type("third-password-3");
      await page.keyboard.press("Enter");
      await page.waitForSelector(".problem");
      expect(await page.textContent(".problem")).toContain("expired or has already been used");

      await page.goto(`${base}/portal/login`);
      await page.waitForSelector(byTestId("login-email"));
      await check(page, "login");
      await typeSignIn(page, email, "first-password-1");
      await page.waitForSelector(byTestId("login-problem"));
      await page.fill(byTestId("login-password"), "");
      await tabTo(page, byTestId("login-password"));
      await page.keyboard.type("second-password-2");
      await page.keyboard.press("Enter");
      await page.waitForURL(`${base}/portal/applications/`);

      // Signing out, from the keyboard, ends the session: the account page then asks to sign in.
      await activate(page, byTestId("logout"));
      await page.waitForURL(`${base}/portal/`);
      await page.goto(`${base}/portal/account`);
      await page.waitForURL(`${base}/portal/login?next=%2Fportal%2Faccount`);
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test("a sign-in with a hostile next stays on the portal, whatever form the next takes", async () => {
      const { base, context } = ctx();
      const email = `hedy-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const password = "hedy-password-1";
      const register = await fetch(`${base}/api/v1/auth/register/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password, fullName: "Hedy Lamarr" }),
      });
      expect(register.status).toBe(202);
      const page = await open();
      // Any request the page makes off the portal's origin: a redirect that escaped.
      const elsewhere: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).origin !== base) elsewhere.push(request.url());
      });
      for (const next of [
        "/\\evil.example/",
        "\\\\evil.example/",
        "/\t/evil.example/",
        "/%09/evil.example/",
        "//evil.example/",
        "/ /evil.example/",
        "https:evil.example/",
        "javascript:alert(document.domain)",
      ]) {
        await context.clearCookies();
        await page.goto(`${base}/portal/login?next=${encodeURIComponent(next)}`);
        await page.waitForSelector(byTestId("login-email"));
        await typeSignIn(page, email, password);
        await page.waitForURL(`${base}/portal/applications/`);
      }
      // Signed in, the page offers a link onwards instead: it goes to the same safe place.
      await page.goto(`${base}/portal/login?next=${encodeURIComponent("/\\evil.example/")}`);
      const onwards = page.locator("main a", { hasText: "Continue" });
      await onwards.waitFor();
      expect(await onwards.getAttribute("href")).toBe("/portal/applications/");
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);

    test("in French: the switch, the shell and the pages speak it; the Stripe return page without a payment", async () => {
      const { base, context } = ctx();
      await context.clearCookies();
      const page = await open();
      // Chromium stores a cookie that a script sets out of process, so a navigation started at
      // once can leave without it (playwright#16945; seen here as a 30 s wait for lang=en). Here
      // such cookies land half a second late, always: a switch that set its cookie from script
      // and reloaded would reload in the old language every time, not once in a while.
      await page.addInitScript(() => {
        const jar = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
        Object.defineProperty(Document.prototype, "cookie", {
          configurable: true,
          get() {
            return jar?.get?.call(this);
          },
          set(value: string) {
            setTimeout(() => jar?.set?.call(this, value), 500);
          },
        });
      });
      await page.goto(`${base}/portal/login`);
      await page.waitForSelector(byTestId("language-fr"));
      await activate(page, byTestId("language-fr"));
      await page.waitForFunction(() => document.documentElement.lang === "fr");
      // Back on the page the switch was pressed on.
      expect(page.url()).toBe(`${base}/portal/login`);
      await page.waitForSelector(byTestId("login-submit"));
      expect(await page.textContent("main h1")).toBe("Connexion");
      expect(await page.textContent(byTestId("login-submit"))).toBe("Se connecter");
      await check(page, "login-fr");
      // Stripe's return page, signed out: sign in first, then back to it with its query.
      await page.goto(`${base}/payments/return?payment=p1&result=cancel`);
      await page.waitForURL(
        `${base}/portal/login?next=${encodeURIComponent("/payments/return?payment=p1&result=cancel")}`,
      );
      // The pages the emails link to, opened in French with links that no longer work: what
      // went wrong said in French (check() also fails on any English message on them).
      const stale = "a-link-used-long-ago";
      for (const [path, shown] of [
        [`/account/verify-email?token=${stale}`, "email-verified-problem"],
        [`/account/confirm-email-change?token=${stale}`, "email-changed-problem"],
        [`/references/write?token=${stale}`, "reference-problem"],
      ] as const) {
        await page.goto(`${base}${path}`);
        await page.waitForSelector(byTestId(shown));
        expect(await page.textContent(byTestId(shown))).toContain("Ce lien a expiré");
        expect(await page.textContent("html")).not.toContain("Invalid, expired or used");
        await check(page, `${shown}-fr`);
      }
      for (const [path, ready] of [
        [`/account/reset-password?token=${stale}`, "reset-submit"],
        ["/account/forgot-password", "forgot-submit"],
      ] as const) {
        await page.goto(`${base}${path}`);
        await page.waitForSelector(byTestId(ready));
        await check(page, `${ready}-fr`);
      }
      await page.goto(`${base}/portal/`);
      await page.waitForSelector(byTestId("program-list"), { state: "attached" });
      await check(page, "programs-fr");
      await activate(page, byTestId("language-en"));
      await page.waitForFunction(() => document.documentElement.lang === "en");
      expect(page.url()).toBe(`${base}/portal/`);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
