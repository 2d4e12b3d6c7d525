/**
 * The account page's credentials in Chromium, through the real gateway to the real admissions
 * app (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL) and a real SMTP
 * server: a new email address confirmed from the link mailed to it (the link refused a second
 * time), a password changed (a wrong current one refused first), which ends the other sign-ins,
 * and every other sign-in ended with one button. Keyboard only; axe-core on every state; no
 * CSP refusal or script error; screenshots at both widths. (The forgotten-password link is in
 * portal.test.ts; ending one other sign-in from the security page in portal-account.test.ts.)
 */
import { describe, expect, test } from "bun:test";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, tabTo, typeSignIn } from "./keyboard.ts";
import { portalHarness } from "./portal-harness.ts";

/** Chromium reports every non-2xx fetch as a console error: the expected ones are these. */
const EXPECTED = /status of (400|401|403|422)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "changing the account's credentials in Chromium" : `credentials (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, post, errors } = portalHarness({ expected: EXPECTED });

    /** A sign-in from "another device": the API, with a bearer token; and a probe of it. */
    const otherDevice = async (email: string, password: string) => {
      const login = await post("/auth/login/", { email, password });
      expect(login.status).toBe(200);
      const { accessToken } = (await login.json()) as { accessToken: string };
      return async () =>
        (
          await fetch(`${ctx().base}/api/v1/auth/me/`, {
            headers: { authorization: `Bearer ${accessToken}` },
          })
        ).status;
    };
    /** An applicant made through the API, signed in from the login page, on the account page. */
    const signIn = async (name: string) => {
      const { base, context } = ctx();
      const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const password = `${name}-password-1`;
      expect((await post("/auth/register/", { email, password, fullName: name })).status).toBe(202);
      await context.clearCookies();
      const page = await open();
      await page.goto(`${base}/portal/login?next=%2Fportal%2Faccount`);
      await typeSignIn(page, email, password);
      await page.waitForURL(`${base}/portal/account`);
      await page.waitForSelector(byTestId("sessions"));
      return { page, email, password };
    };

    test("email: the link mailed to the new address changes it, once; sign in with it", async () => {
      const { base, mailbox } = ctx();
      const { page, email, password } = await signIn("Rosalind");
      const newEmail = `franklin-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      await check(page, "account-signed-in");

      // A wrong password first: refused in words, nothing sent.
      await tabTo(page, byTestId("new-email"));
      await page.keyboard.type(newEmail);
      await tabTo(page, byTestId("email-change-password"));
      await page.keyboard.type("not-my-password");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("email-change-problem"));
      await check(page, "account-email-change-refused");
      // The error summary takes the focus (it is read first); back to the password to retype it.
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
        "error-summary",
      );
      await tabTo(page, byTestId("email-change-password"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type(password);
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("email-change-sent"));
      await check(page, "account-email-change-sent");
      // Until the link is opened the old address still signs in.
      expect((await post("/auth/login/", { email, password })).status).toBe(200);

      const link = await mailbox.link(newEmail, "email_change_verification");
      expect(link.startsWith(`${base}/account/confirm-email-change?token=`)).toBe(true);
      await page.goto(link);
      await page.waitForSelector(byTestId("email-changed"));
      expect(page.url()).toBe(`${base}/account/confirm-email-change`);
      await check(page, "confirm-email-change");

      // The same link again is refused, in words.
      await page.goto(link);
      await page.waitForSelector(byTestId("email-changed-problem"));
      await check(page, "confirm-email-change-used");

      expect((await post("/auth/login/", { email, password })).status).toBe(401);
      expect((await post("/auth/login/", { email: newEmail, password })).status).toBe(200);
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);

    test("password: a wrong current one is refused; the change ends every other sign-in", async () => {
      const { base } = ctx();
      const { page, email, password } = await signIn("Dorothy");
      const other = await otherDevice(email, password);
      expect(await other()).toBe(200);

      await tabTo(page, byTestId("current-password"));
      await page.keyboard.type("not-my-password");
      await tabTo(page, byTestId("new-password"));
      await page.keyboard.type("Dorothy-password-2");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("password-problem"));
      await check(page, "account-password-refused");
      expect(await other()).toBe(200);

      // The new password stays typed; the current one is typed again over the wrong one.
      await tabTo(page, byTestId("current-password"));
      await page.keyboard.press("Control+A");
      await page.keyboard.type(password);
      await tabTo(page, byTestId("new-password"));
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("password-changed"));
      await check(page, "account-password-changed");
      expect(await other()).toBe(401);
      // This sign-in stays: the page still reads the account.
      await page.reload();
      await page.waitForSelector('[data-testid="session"][data-current="true"]');
      expect(page.url()).toBe(`${base}/portal/account`);
      expect((await post("/auth/login/", { email, password })).status).toBe(401);
      expect((await post("/auth/login/", { email, password: "Dorothy-password-2" })).status).toBe(
        200,
      );
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);

    test("sessions: every other sign-in ended with one button, this one kept", async () => {
      const { base } = ctx();
      const { page, email, password } = await signIn("Barbara");
      const first = await otherDevice(email, password);
      const second = await otherDevice(email, password);
      await page.reload();
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="session"]').length === 3,
      );
      await check(page, "account-three-sessions");

      await activate(page, byTestId("end-other-sessions"));
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="session"]').length === 1,
      );
      expect(await page.$$('[data-testid="session"][data-current="true"]')).toHaveLength(1);
      expect(await page.$(byTestId("end-other-sessions"))).toBeNull();
      expect([await first(), await second()]).toEqual([401, 401]);
      await check(page, "account-one-session");

      // Ending this one signs out: the account then asks to sign in.
      await activate(page, byTestId("end-this-session"));
      await page.waitForURL(`${base}/portal/login`);
      await page.goto(`${base}/portal/account`);
      await page.waitForURL(`${base}/portal/login?next=%2Fportal%2Faccount`);
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);
  },
);
