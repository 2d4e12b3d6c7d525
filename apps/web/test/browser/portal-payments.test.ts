/**
 * The fee paid by card in Chromium: the portal sends the applicant to Stripe Checkout (a fake
 * Stripe on loopback, fake-stripe.ts, which the admissions app's `stripe` SDK talks to), the
 * applicant first leaves it without paying, comes back to the return page, returns to Checkout
 * from the application and pays; the fake delivers the signed webhook through the gateway and
 * sends the browser back to the return page, which shows the payment received, with its
 * receipt. Real gateway, real admissions app (SQLite, or PostgreSQL + Redis with
 * TEST_DATABASE_URL / TEST_REDIS_URL), keyboard only, axe-core on every portal page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, NO_CHROMIUM, screenshots } from "./chromium.ts";
import { FAKE_STRIPE, startFakeStripe } from "./fake-stripe.ts";
import { activate, byTestId, typeSignIn } from "./keyboard.ts";
import { portalHarness } from "./portal-harness.ts";

/** Chromium reports every non-2xx fetch as a console error: the login page's signed-out 401s. */
const EXPECTED = /status of 401/;

describe.skipIf(!hasChromium)(
  hasChromium
    ? "the fee paid by card (Stripe Checkout) in Chromium"
    : `card payment (${NO_CHROMIUM})`,
  () => {
    let stripe: Awaited<ReturnType<typeof startFakeStripe>> | undefined;
    // Started before the harness's stack: the admissions app is pointed at it.
    beforeAll(async () => {
      if (hasChromium) stripe = await startFakeStripe();
    });
    const harness = portalHarness({
      expected: EXPECTED,
      admissionsEnv: (base) => {
        if (!stripe) throw new Error("the fake Stripe did not start");
        stripe.deliverTo(base);
        return {
          ADMISSIONS_STRIPE_SECRET_KEY: FAKE_STRIPE.secretKey,
          ADMISSIONS_STRIPE_WEBHOOK_SECRET: FAKE_STRIPE.webhookSecret,
          ADMISSIONS_STRIPE_API_BASE: stripe.apiBase,
        };
      },
    });
    afterAll(() => stripe?.stop());
    const { open, check, post: api, errors } = harness;
    const ctx = () => {
      if (!stripe) throw new Error("the fake Stripe did not start");
      return { ...harness.ctx(), stripe };
    };

    test("pay by card: leave Checkout, come back to it, pay; the return page confirms, the receipt follows — keyboard only", async () => {
      const { base, context, mailbox, admin, stripe } = ctx();
      // The applicant and a draft application, through the API.
      const program = await admin.openProgram("Card Payments");
      const email = `katherine-${crypto.randomUUID().slice(0, 8)}@portal-test.example`;
      const password = "applicant-password-1";
      expect(
        (await api("/auth/register/", { email, password, fullName: "Katherine Johnson" })).status,
      ).toBe(202);
      const token = new URL(await mailbox.link(email, "email_verification")).searchParams.get(
        "token",
      );
      expect((await api("/account/email-verification/confirm/", { token })).status).toBe(204);
      const login = await api("/auth/login/", { email, password });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const detail = await admin.call<{ intakes: { id: string }[] }>(
        "GET",
        `/catalog/programs/${program.id}/`,
      );
      const created = await api(
        "/applications/",
        { intakeId: detail.intakes[0]?.id },
        { authorization: `Bearer ${accessToken}` },
      );
      expect(created.status).toBe(201);
      const { id: applicationId } = (await created.json()) as { id: string };

      // Signed in from the login page, by keyboard, then to the application's fee section:
      // with Stripe configured, card is offered beside the transfer.
      const feePage = `/portal/applications/${applicationId}/fee`;
      await context.clearCookies();
      const page = await open();
      await page.goto(`${base}/portal/login?next=${encodeURIComponent(feePage)}`);
      await typeSignIn(page, email, password);
      await page.waitForURL(`${base}${feePage}`);
      await page.waitForSelector(byTestId("pay-stripe"));
      expect(await page.$(byTestId("pay"))).not.toBeNull();
      expect(await page.textContent(byTestId("fee-status"))).toContain("still to pay");
      await check(page, "payment-unpaid");

      // To Checkout; the applicant leaves it without paying.
      await activate(page, byTestId("pay-stripe"));
      await page.waitForURL(new RegExp(`^${stripe.apiBase}/checkout/cs_test_\\w+$`));
      expect(await page.textContent("h1")).toBe("Pay EUR 50.00");
      await screenshots(page, "portal-payment-checkout");
      await activate(page, byTestId("fake-stripe-cancel"));
      await page.waitForURL(/\/payments\/return\?payment=[\w-]+&result=cancelled$/);
      await page.waitForSelector(byTestId("payment-cancelled"));
      await page.waitForSelector('[data-testid="payment-result"][data-status="pending"]');
      await check(page, "payment-return-cancelled");
      expect(stripe.deliveries).toEqual([]);

      // Back to the fee section: the pending payment leads to the same Checkout session.
      await activate(page, byTestId("return-application"));
      await page.waitForURL(`${base}${feePage}`);
      await page.waitForSelector(byTestId("continue-checkout"));
      await check(page, "payment-pending-card");
      await activate(page, byTestId("continue-checkout"));
      await page.waitForURL(new RegExp(`^${stripe.apiBase}/checkout/cs_test_\\w+$`));
      expect(stripe.sessions.size).toBe(1);

      // Paid: the signed event reaches the app through the gateway, then the browser comes back.
      await activate(page, byTestId("fake-stripe-pay"));
      await page.waitForURL(
        /\/payments\/return\?payment=[\w-]+&result=success&session_id=cs_test_\w+$/,
      );
      expect(stripe.deliveries).toEqual([{ type: "checkout.session.completed", status: 200 }]);
      await page.waitForSelector('[data-testid="payment-result"][data-status="succeeded"]');
      expect(await page.textContent(byTestId("payment-result"))).toContain("payment is received");
      await check(page, "payment-return-paid");

      // The receipt, from the return page.
      await activate(page, byTestId("return-receipt"));
      await page.waitForSelector(byTestId("receipt"));
      expect(await page.textContent(byTestId("receipt-amount"))).toContain("50");
      await check(page, "payment-receipt-card");

      // The fee section: paid, the payment listed with its receipt number.
      await page.goto(`${base}${feePage}`);
      await page.waitForSelector(byTestId("receipt-link"));
      expect(await page.textContent(byTestId("fee-status"))).toContain("is paid");
      expect(await page.$(byTestId("pay-stripe"))).toBeNull();
      await check(page, "payment-paid");

      // The office sees the same: one Stripe payment, succeeded, with a receipt.
      const payments = await admin.call<{
        results: { provider: string; status: string; receiptNumber: string | null }[];
      }>("GET", `/applications/${applicationId}/payments/`);
      expect(payments.results).toHaveLength(1);
      expect(payments.results[0]).toMatchObject({ provider: "stripe", status: "succeeded" });
      expect(payments.results[0]?.receiptNumber).toBeTruthy();
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
