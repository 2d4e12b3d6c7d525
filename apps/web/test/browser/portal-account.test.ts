/**
 * The applicant's account pages in Chromium, through the real gateway to the real admissions
 * app (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL, as portal.test.ts):
 * the profile (a 422 shown by its field, then saved, then in the history), the security page
 * (this sign-in marked, another one ended), the data page (the ZIP downloaded, erasure asked
 * for, after which the account cannot sign in). Keyboard only; axe-core on every state; no CSP
 * refusal or script error; screenshots at both widths.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { activate, byTestId, tabTo, typeRegistration, typeSignIn } from "./keyboard.ts";
import { portalHarness } from "./portal-harness.ts";

/** Chromium reports every non-2xx fetch as a console error: the expected ones are these. */
const EXPECTED = /status of (401|403|422)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "the applicant's account pages in Chromium" : `account pages (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, post, errors } = portalHarness({ expected: EXPECTED });

    /** An applicant made through the API, then signed in from the login page by keyboard. */
    const signIn = async (name: string) => {
      const { base, context } = ctx();
      const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const password = `${name}-password-1`;
      const res = await post("/auth/register/", { email, password, fullName: name });
      expect(res.status).toBe(202);
      await context.clearCookies();
      const page = await open();
      await page.goto(`${base}/portal/login`);
      await typeSignIn(page, email, password);
      await page.waitForURL(`${base}/portal/applications/`);
      return { page, email, password };
    };

    test("registration says the same for a new address and a taken one, in English and in French; the taken one's owner is told", async () => {
      const { base, context, mailbox } = ctx();
      const owner = `owner-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      expect(
        (
          await post("/auth/register/", {
            email: owner,
            password: "owner-password-1",
            fullName: "Owner",
          })
        ).status,
      ).toBe(202);
      await mailbox.link(owner, "email_verification");

      /** What the registration page says once the form is sent, the address left out. */
      const answerFor = async (email: string, lang: "en" | "fr") => {
        await context.clearCookies();
        await context.addCookies([{ name: "portal_lang", value: lang, url: base }]);
        const page = await open();
        await page.goto(`${base}/portal/register`);
        await page.waitForSelector(byTestId("register-submit"));
        await typeRegistration(page, {
          fullName: "Ada Lovelace",
          email,
          password: "applicant-password-1",
        });
        await page.waitForSelector(byTestId("registered"));
        expect(page.url()).toBe(`${base}/portal/register`);
        const text = (await page.textContent(byTestId("registered"))) ?? "";
        expect(text).toContain(email);
        await check(page, `registered-${lang}`);
        await page.close();
        return text.replace(email, "<address>");
      };

      for (const lang of ["en", "fr"] as const) {
        const fresh = `new-${lang}-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
        const said = await answerFor(fresh, lang);
        expect(await answerFor(owner.toUpperCase(), lang)).toBe(said);
        expect(said).toContain(lang === "en" ? "Check your email" : "Consultez votre messagerie");
      }
      // The owner was told twice (one attempt per language), with the way to sign in or reset.
      const notice = await mailbox.mail(owner, "account_exists");
      const until = Date.now() + 20_000;
      while (mailbox.count(owner, "account_exists") < 2 && Date.now() < until) await Bun.sleep(100);
      expect(notice.text).toContain(`${base}/portal/login`);
      expect(notice.text).toContain(`${base}/account/forgot-password`);
      expect(mailbox.count(owner, "account_exists")).toBe(2);
      expect(errors).toEqual([]);
    }, 90_000);

    test("profile: a wrong phone number is shown by its field, then the profile is saved and in the history", async () => {
      const { base } = ctx();
      const { page } = await signIn("Mary");
      // From the portal's navigation to the account, then its profile page, by keyboard.
      await activate(page, '.portal-nav a[href="/portal/account"]');
      await page.waitForURL(`${base}/portal/account`);
      await activate(page, byTestId("account-link-profile"));
      await page.waitForURL(`${base}/account/profile`);
      await page.waitForSelector(byTestId("profile-form"));
      await check(page, "profile");

      await tabTo(page, byTestId("profile-legalName"));
      await page.keyboard.type("Mary Somerville");
      await tabTo(page, byTestId("profile-dateOfBirth"));
      await page.keyboard.type("2001-05-20");
      await tabTo(page, byTestId("profile-phone"));
      await page.keyboard.type("12345");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#profile-phone-error");
      expect(await page.getAttribute(byTestId("profile-phone"), "aria-invalid")).toBe("true");
      expect(await page.getAttribute(byTestId("profile-phone"), "aria-describedby")).toContain(
        "profile-phone-error",
      );
      await check(page, "profile-invalid");

      // The error summary has the focus; its link takes the keyboard back to the field.
      await activate(page, '[data-testid="error-summary"] a[href="#profile-phone"]');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("profile-phone");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("+44 20 7123 4567");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("profile-saved"));
      expect(await page.$("#profile-phone-error")).toBeNull();
      expect(await page.inputValue(byTestId("profile-phone"))).toBe("+442071234567");
      await page.waitForSelector(`${byTestId("profile-history")} li`);
      const history = await page.textContent(byTestId("profile-history"));
      expect(history).toContain("Legal name");
      expect(history).toContain("Phone");
      await check(page, "profile-saved");

      // Read back after a reload: the API kept it.
      await page.reload();
      await page.waitForSelector(byTestId("profile-form"));
      expect(await page.inputValue(byTestId("profile-legalName"))).toBe("Mary Somerville");
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);

    test("security: this sign-in is marked; another one is ended from the keyboard", async () => {
      const { base } = ctx();
      const { page, email, password } = await signIn("Emmy");
      // A second sign-in, from "another device": the API with a bearer token.
      const other = await post("/auth/login/", { email, password });
      expect(other.status).toBe(200);
      const { accessToken } = (await other.json()) as { accessToken: string };
      const me = () =>
        fetch(`${base}/api/v1/auth/me/`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect((await me()).status).toBe(200);

      await page.goto(`${base}/account/security`);
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="session"]').length === 2,
      );
      expect(await page.$$('[data-testid="session"][data-current="true"]')).toHaveLength(1);
      await check(page, "security");

      await activate(page, byTestId("end-session"));
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="session"]').length === 1,
      );
      expect(await page.$$('[data-testid="session"][data-current="true"]')).toHaveLength(1);
      expect((await me()).status).toBe(401);
      await check(page, "security-one-session");
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);

    test("data: the download is a ZIP; erasure asks twice, then the account cannot sign in", async () => {
      const { base } = ctx();
      const { page, email, password } = await signIn("Sophie");
      await page.goto(`${base}/account/data`);
      await page.waitForSelector(byTestId("export"));
      await check(page, "data");

      const downloading = page.waitForEvent("download");
      await activate(page, byTestId("export"));
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/\.zip$/);
      expect(download.url().startsWith("blob:")).toBe(true);
      const bytes = readFileSync(await download.path());
      expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
      await page.waitForSelector(byTestId("export-done"));
      await page.waitForSelector('[data-testid="data-request"][data-kind="export"]');
      await check(page, "data-exported");

      // A wrong password first: refused in words, nothing erased.
      await tabTo(page, byTestId("erasure-password"));
      await page.keyboard.type("not-my-password");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("erasure-confirm-note"));
      await check(page, "data-erasure-confirm");
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("erasure-problem"));
      expect(await page.textContent(byTestId("erasure-problem"))).toContain("not right");

      await tabTo(page, byTestId("erasure-password"));
      await page.keyboard.type(password);
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("erasure-confirm-note"));
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("erasure-done"));
      await check(page, "data-erased");

      const again = await post("/auth/login/", { email, password });
      expect(again.status).toBe(401);
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);

    test("data: with an application in progress, erasure waits; the applicant cancels it", async () => {
      const { base, mailbox, admin } = ctx();
      const { page, email, password } = await signIn("Hypatia");
      // An application submitted through the API (a programme with no fee and no documents).
      const program = await admin.call("POST", "/catalog/programs/", {
        code: `E-${crypto.randomUUID().slice(0, 6).toUpperCase()}`,
        name: "Erasure Waiting",
        level: "master",
        department: "School of Testing",
        durationMonths: 12,
        applicationFee: { amount: 0, currency: "EUR" },
      });
      const now = Date.now();
      const intake = await admin.call("POST", `/catalog/programs/${program.id}/intakes/`, {
        term: "Spring 2032",
        opensAt: new Date(now - 86_400_000).toISOString(),
        deadline: new Date(now + 30 * 86_400_000).toISOString(),
        capacity: 5,
      });
      const link = new URL(await mailbox.link(email, "email_verification"));
      const token = link.searchParams.get("token");
      expect((await post("/account/email-verification/confirm/", { token })).status).toBe(204);
      const login = await post("/auth/login/", { email, password });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const bearer = { authorization: `Bearer ${accessToken}` };
      const created = await post("/applications/", { intakeId: intake.id }, bearer);
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      expect((await post(`/applications/${id}/submit/`, {}, bearer)).status).toBe(200);

      await page.goto(`${base}/account/data`);
      await tabTo(page, byTestId("erasure-password"));
      await page.keyboard.type(password);
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("erasure-confirm-note"));
      await page.keyboard.press("Enter");
      await page.waitForSelector('[data-testid="data-request"][data-status="pending"]');
      expect(await page.$(byTestId("erasure-password"))).toBeNull();
      await check(page, "data-erasure-pending");

      await activate(page, byTestId("cancel-request"));
      await page.waitForSelector('[data-testid="data-request"][data-status="cancelled"]');
      await page.waitForSelector(byTestId("erasure-password"));
      await check(page, "data-erasure-cancelled");
      // Still an account: it signs in.
      expect((await post("/auth/login/", { email, password })).status).toBe(200);
      expect(errors).toEqual([]);
      await page.close();
    }, 90_000);
  },
);
