/**
 * The office's integrations and data in Chromium, keyboard only, through the real gateway to the
 * real admissions app (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL):
 * a webhook endpoint (an http:// address refused in words, the secret shown once, a delivery
 * logged, the secret rotated, turned off); a waiting erasure rejected with a note; the audit
 * log's chain verified; a reviewer's own two-factor enrolment from the QR code's secret.
 * axe-core on every state, screenshots at both widths.
 */
import { describe, expect, test } from "bun:test";
import * as OTPAuth from "otpauth";
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

if (!hasChromium) console.warn(`portal office integrations browser tests ${NO_CHROMIUM}`);

/**
 * Expected: the sign-in page's CSRF probe (401), the wrong authenticator code (403) and the
 * refused endpoint's 422.
 */
const EXPECTED = /status of (401|403|422)/;

describe.skipIf(!hasChromium)(
  hasChromium
    ? "the office's integrations in Chromium"
    : `the office's integrations (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, errors } = portalHarness({
      expected: EXPECTED,
      screenshotPrefix: "portal-office",
    });

    test("a webhook endpoint: refused, created with its secret once, a delivery, rotated, off", async () => {
      const { base, admin, mailbox, context } = ctx();
      const programme = await officeProgramme(admin, "Hook Testing");
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base);
      await activate(page, 'a[href="/portal/staff/webhooks"]');
      await page.waitForSelector(byTestId("webhook-new"));
      await check(page, "webhooks-empty");
      await activate(page, byTestId("webhook-new"));
      await page.waitForSelector(byTestId("webhook-form"));
      // The address field has the focus.
      // The focus is put there once the form has rendered: waited for, not raced.
      await page.waitForFunction((id) => document.activeElement?.id === id, "webhook-url");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("http://hooks.example.com/admissions");
      await activate(page, byTestId("webhook-save"));
      await page.waitForSelector(`${byTestId("webhook-problem")} a[href="#webhook-url"]`);
      expect(await page.textContent(byTestId("webhook-form"))).not.toContain("pattern");
      await check(page, "webhook-refused");
      await retype(page, "#webhook-url", "https://hooks.example.com/admissions");
      await activate(page, byTestId("webhook-save"));
      await page.waitForSelector(byTestId("webhook-secret"));
      const secret = (await page.textContent(byTestId("webhook-secret"))) ?? "";
      expect(secret).toMatch(/whsec_/);
      await page.waitForSelector(byTestId("webhook"));
      await check(page, "webhook-created");

      // An event after it was made: an applicant starts an application.
      const person = await applicant(base, mailbox, "Hedy Hook");
      await person.as("POST", "/applications/", { intakeId: programme.intakeId });
      await activate(page, `${byTestId("webhook")} a`);
      await page.waitForSelector(byTestId("webhook-deliveries"));
      expect(await page.textContent(byTestId("webhook-deliveries"))).toContain(
        "application.created",
      );
      // The secret is never shown again on the endpoint's page.
      expect(await page.textContent("main")).not.toContain(secret.match(/whsec_\S+/)?.[0] ?? "-");
      await activate(page, byTestId("webhook-rotate"));
      await page.waitForSelector(byTestId("webhook-secret"));
      expect(await page.textContent(byTestId("webhook-secret"))).toMatch(/whsec_/);
      await activate(page, byTestId("webhook-toggle"));
      await page.waitForSelector(`${byTestId("webhook-state")}[data-enabled="false"]`);
      await check(page, "webhook");
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);

    test("a waiting erasure rejected with a note; the audit log in words, its chain verified", async () => {
      const { base, admin, mailbox, context } = ctx();
      const programme = await officeProgramme(admin, "Rights Testing");
      const kurt = await pendingTransfer(base, mailbox, programme.intakeId, "Kurt Rights");
      await admin.call("POST", `/payments/${kurt.paymentId}/confirm/`, { received: 5000 });
      await kurt.as("POST", `/applications/${kurt.applicationId}/submit/`);
      // Submitted, so the erasure waits for an admin.
      await kurt.as("POST", "/data-rights/erasure/", { password: kurt.password, reason: "Moving" });

      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base);
      await activate(page, 'a[href="/portal/staff/data-requests"]');
      await page.waitForSelector(`${byTestId("data-request")}:has-text("Kurt Rights")`);
      await check(page, "data-requests");
      await activate(page, byTestId("request-reject"));
      await page.waitForSelector(byTestId("request-reject-form"));
      // An empty note is refused in words.
      await activate(page, byTestId("request-reject-form-submit"));
      await page.waitForSelector(`${byTestId("request-reject-form")} .field-error`);
      await retype(page, "#request-reject-form-reason", "An application is under review.");
      await activate(page, byTestId("request-reject-form-submit"));
      await page.waitForSelector(byTestId("request-notice"));
      const requests = await admin.call<{ results: { status: string }[] }>(
        "GET",
        "/data-rights/requests/?status=rejected",
      );
      expect(requests.results.map((r) => r.status)).toEqual(["rejected"]);

      await activate(page, 'a[href="/portal/staff/audit"]');
      await page.waitForSelector(byTestId("audit-entry"));
      const log = (await page.textContent(byTestId("audit-log"))) ?? "";
      // Whose application, and a sentence that names its own subject without saying it twice.
      expect(log).toContain("Kurt Rights's application");
      expect(log).toContain("Erasure of Kurt Rights rejected, by Administrator.");
      expect(log).not.toContain("Kurt Rights: Erasure of Kurt Rights");
      expect(log).not.toMatch(/data\.erasure_rejected|payment\.confirmed/);
      await activate(page, byTestId("audit-verify"));
      await page.waitForSelector(`${byTestId("audit-verified")}[data-ok="true"]`);
      await check(page, "audit-verified");
      // Only what the administrator did: Kurt's own request is no longer listed.
      await tabTo(page, "#audit-actor");
      await page.keyboard.type("Administrator");
      await activate(page, byTestId("audit-filter"));
      await page.waitForFunction(
        () =>
          !document.querySelector('[data-testid="audit-log"]')?.textContent?.includes("by Kurt"),
      );
      const mine = await page.$$eval('[data-testid="audit-entry"]', (rows) =>
        rows.map((r) => r.textContent ?? ""),
      );
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((text) => text.includes("by Administrator"))).toBe(true);
      await check(page, "audit-filtered");
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);

    test("a reviewer turns on two-factor sign-in from the QR code's secret; codes shown once", async () => {
      const { base, admin, context } = ctx();
      const reviewer = await staffMember(admin, "Tim Totp");
      await context.clearCookies();
      const page = await open();
      await staffSignIn(page, ctx().base, reviewer.email, "a-long-reviewer-password");
      await activate(page, 'a[href="/portal/staff/security"]');
      await page.waitForSelector(byTestId("mfa-enrol"));
      await check(page, "security");
      await activate(page, byTestId("mfa-enrol"));
      await page.waitForSelector(`${byTestId("mfa-qr")}`);
      await check(page, "security-enrol");
      const secret = ((await page.textContent(byTestId("mfa-secret"))) ?? "").replaceAll(" ", "");
      // A wrong code first: refused in words, nothing turned on.
      await retype(page, "#mfa-code", "000000");
      await activate(page, byTestId("mfa-confirm"));
      await page.waitForSelector(
        `${byTestId("mfa-enrolment")} .problem, ${byTestId("mfa-enrolment")} [role="alert"]`,
      );
      const totp = new OTPAuth.TOTP({
        secret: OTPAuth.Secret.fromBase32(secret),
        digits: 6,
        period: 30,
      });
      await retype(page, "#mfa-code", totp.generate());
      await activate(page, byTestId("mfa-confirm"));
      await page.waitForSelector(byTestId("mfa-recovery-codes"));
      expect(await page.$$eval(`${byTestId("mfa-recovery-codes")} li`, (li) => li.length)).toBe(10);
      await check(page, "security-codes");
      // Turned on: the password alone no longer signs the reviewer in.
      const login = await fetch(`${base}/api/v1/auth/login/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: reviewer.email, password: "a-long-reviewer-password" }),
      });
      expect(login.status).toBe(401);
      expect(((await login.json()) as { code: string }).code).toBe("MFA_REQUIRED");
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
