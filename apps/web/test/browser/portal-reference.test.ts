/**
 * The referee's page in Chromium, through the real gateway to the real admissions app (SQLite,
 * or PostgreSQL + Redis with TEST_DATABASE_URL / TEST_REDIS_URL, as portal.test.ts): the link
 * from the email that arrived over SMTP opens the page without an account, the token leaves the
 * address bar, the reference is written and sent by keyboard, and the same link opened again
 * says it was used. Before that, the applicant names the referee on the application page, by
 * keyboard (a duplicate and a bad address refused, a referee removed); after, the page shows
 * the reference received, never its text. axe-core on every state; no CSP refusal or script
 * error.
 */
import { describe, expect, test } from "bun:test";
import { hasChromium, NO_CHROMIUM } from "./chromium.ts";
import { byTestId, tabTo, typeSignIn } from "./keyboard.ts";
import { portalHarness } from "./portal-harness.ts";

/**
 * Chromium reports every non-2xx fetch as a console error: the 422s, the duplicate referee's
 * 409 and the used link's 400 are expected.
 */
const EXPECTED = /status of (400|401|409|422)/;

describe.skipIf(!hasChromium)(
  hasChromium ? "the referee's page in Chromium" : `referee's page (${NO_CHROMIUM})`,
  () => {
    const { ctx, open, check, post: api, errors } = portalHarness({ expected: EXPECTED });

    test("the emailed link opens the form; the reference is sent once, by keyboard", async () => {
      const { base, mailbox, admin } = ctx();
      const program = await admin.call("POST", "/catalog/programs/", {
        code: `R-${crypto.randomUUID().slice(0, 6).toUpperCase()}`,
        name: "References Studies",
        level: "master",
        department: "School of Testing",
        durationMonths: 12,
        applicationFee: { amount: 0, currency: "EUR" },
      });
      const now = Date.now();
      const intake = await admin.call("POST", `/catalog/programs/${program.id}/intakes/`, {
        term: "Autumn 2032",
        opensAt: new Date(now - 86_400_000).toISOString(),
        deadline: new Date(now + 30 * 86_400_000).toISOString(),
        capacity: 5,
      });
      // The applicant, through the API: registered, verified by the emailed link, a draft.
      const email = `ada-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const password = "Ada-password-1";
      const registered = await api("/auth/register/", {
        email,
        password,
        fullName: "Ada Lovelace",
      });
      expect(registered.status).toBe(202);
      const verify = new URL(await mailbox.link(email, "email_verification"));
      const confirm = { token: verify.searchParams.get("token") };
      expect((await api("/account/email-verification/confirm/", confirm)).status).toBe(204);
      const login = await api("/auth/login/", { email, password });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const bearer = { authorization: `Bearer ${accessToken}` };
      const draft = await api("/applications/", { intakeId: intake.id }, bearer);
      const { id } = (await draft.json()) as { id: string };
      // The applicant names the referee on the application's references page, by keyboard: a second named
      // with the same address is refused beside the form; a third is named, then removed.
      const referee = `babbage-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      await ctx().context.clearCookies();
      const portal = await open();
      await portal.goto(`${base}/portal/login`);
      await typeSignIn(portal, email, password);
      await portal.waitForURL(`${base}/portal/applications/`);
      await portal.goto(`${base}/portal/applications/${id}/referees`);
      await portal.waitForSelector(byTestId("referee-name"));
      const nameReferee = async (name: string, address: string, relationship: string) => {
        await tabTo(portal, byTestId("referee-name"));
        await portal.keyboard.type(name);
        await tabTo(portal, byTestId("referee-email"));
        await portal.keyboard.type(address);
        await tabTo(portal, byTestId("referee-relationship"));
        await portal.keyboard.type(relationship);
        await portal.keyboard.press("Enter");
      };
      await nameReferee("Charles Babbage", referee, "Tutor");
      await portal.waitForSelector(`${byTestId("referee")}[data-status="requested"]`);
      expect(await portal.textContent(byTestId("referees-notice"))).toContain("Charles Babbage");
      expect(await portal.inputValue(byTestId("referee-name"))).toBe("");
      await check(portal, "referees");
      await nameReferee("Charles Babbage", referee, "Tutor, again");
      await portal.waitForSelector(byTestId("referee-problem"));
      expect(await portal.textContent(byTestId("referee-problem"))).toContain("already named");
      await nameReferee("Nobody", "not-an-address", "None");
      await portal.waitForSelector("#referee-email-error");
      expect(await portal.getAttribute(byTestId("referee-email"), "aria-invalid")).toBe("true");
      await check(portal, "referees-invalid");
      await tabTo(portal, byTestId("referee-email"));
      await portal.keyboard.type(
        `de-morgan-${crypto.randomUUID().slice(0, 8)}@portal-test.example`,
      );
      await portal.keyboard.press("Enter");
      await portal.waitForFunction(
        (selector) => document.querySelectorAll(selector).length === 2,
        byTestId("referee"),
      );
      // Tab reaches the second referee's button last of the two: remove "Nobody".
      await tabTo(portal, `${byTestId("referee")}:nth-child(2) ${byTestId("remove-referee")}`);
      await portal.keyboard.press("Enter");
      await portal.waitForFunction(
        (selector) => document.querySelectorAll(selector).length === 1,
        byTestId("referee"),
      );
      expect(await portal.textContent(byTestId("referees-notice"))).toContain("Nobody");
      expect(await portal.textContent(byTestId("referee-list"))).toContain("Charles Babbage");

      // The referee: the link from the email, no account.
      const link = await mailbox.link(referee, "reference_requested");
      expect(link.startsWith(`${base}/references/write?token=`)).toBe(true);
      const page = await open();
      await page.goto(link);
      await page.waitForSelector(byTestId("reference-form"));
      expect(page.url()).toBe(`${base}/references/write`);
      const intro = await page.textContent(byTestId("reference-intro"));
      expect(intro).toContain("Ada Lovelace");
      expect(intro).toContain("References Studies");
      await check(page, "reference");

      await tabTo(page, byTestId("reference-text"));
      await page.keyboard.type("Too short.");
      await tabTo(page, byTestId("reference-submit"));
      await page.keyboard.press("Enter");
      await page.waitForSelector("#reference-text-error");
      await check(page, "reference-invalid");

      await tabTo(page, byTestId("reference-text"));
      await page.keyboard.type(
        " Ada was the most original student I have taught; I recommend her without reserve.",
      );
      await tabTo(page, byTestId("reference-submit"));
      await page.keyboard.press("Enter");
      await page.waitForSelector(byTestId("reference-done"));
      expect(await page.$(byTestId("reference-form"))).toBeNull();
      await check(page, "reference-done");

      // The same link again: used.
      const again = await open();
      await again.goto(link);
      await again.waitForSelector(byTestId("reference-problem"));
      expect(await again.$(byTestId("reference-form"))).toBeNull();
      await check(again, "reference-used");

      // The applicant sees the status, not the content: on the page, and in the API.
      await portal.reload();
      await portal.waitForSelector(`${byTestId("referee")}[data-status="received"]`);
      expect(await portal.$(byTestId("remove-referee"))).toBeNull();
      expect(await portal.textContent(byTestId("referees"))).not.toContain("most original");
      await check(portal, "referees-received");
      const list = await fetch(`${base}/api/v1/references/?applicationId=${id}`, {
        headers: bearer,
      });
      const body = await list.text();
      expect(body).toContain('"status":"received"');
      expect(body).not.toContain("most original");
      expect(errors).toEqual([]);
      await page.close();
      await again.close();
      await portal.close();
    }, 90_000);
  },
);
