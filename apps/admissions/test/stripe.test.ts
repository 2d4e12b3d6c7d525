import { afterAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { STRIPE_API_VERSION } from "../src/modules/payments/internal/stripe.ts";
import { draftWithFee, newPayment, type PaymentJson, pay } from "./payments-support.ts";
import {
  STAND_IN_SECRET_KEY,
  signature,
  startStripeStandIn,
  stripeEvent,
  WEBHOOK_SECRET,
  webhookRequest,
} from "./stripe-stand-in.ts";
import { as, setupApp, signIn } from "./support.ts";

const stripe = await startStripeStandIn();
afterAll(() => stripe.stop());

const ctx = await setupApp({
  payments: {
    ...DEFAULT_SETTINGS.payments,
    stripe: {
      secretKey: STAND_IN_SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.apiBase,
      returnUrl: "https://apply.example.org/payments/return",
    },
  },
});
const { app } = ctx;
const admin = await signIn(ctx, "admin");

const body = async (res: Response) => (await res.json()) as PaymentJson;
const nowSeconds = () => Math.floor(ctx.clock.now() / 1000);
const paymentPath = (id: string, action = "") => `/api/v1/payments/${id}/${action}`;

/** A pending Stripe payment, with its session at the stand-in. */
async function stripePayment(fee = 7500) {
  const { applicant, draft } = await draftWithFee(ctx, admin, fee);
  const payment = await newPayment(ctx, applicant, draft.id, { provider: "stripe" });
  const sessionId = payment.checkoutUrl?.split("/").pop() ?? "";
  return { applicant, draft, payment, sessionId };
}

/** Delivers an event signed as Stripe signs it (now, by the test clock, unless told). */
async function deliver(payload: string, at = nowSeconds(), secret = WEBHOOK_SECRET) {
  return app.handle(webhookRequest(payload, signature(payload, at, secret)));
}

const current = async (id: string, who = admin) =>
  body(await app.handle(as(who, "GET", paymentPath(id))));

describe("Checkout Session over Stripe's HTTP API (a local stand-in)", () => {
  test("with Stripe configured, the fee lists card beside bank transfer", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const fee = await app.handle(as(applicant, "GET", `/api/v1/applications/${draft.id}/fee/`));
    expect(((await fee.json()) as { methods: string[] }).methods).toEqual(["manual", "stripe"]);
  });

  test("creating a payment opens a session with the documented form parameters", async () => {
    const { applicant, draft, payment } = await stripePayment(12_500);
    expect(payment).toMatchObject({ provider: "stripe", status: "pending", instructions: null });
    expect(payment.checkoutUrl).toStartWith("https://checkout.stripe.com/c/pay/cs_test_");
    const call = stripe.requests.findLast((r) => r.path === "/v1/checkout/sessions");
    expect(call?.method).toBe("POST");
    expect(call?.headers.get("authorization")).toBe(`Bearer ${STAND_IN_SECRET_KEY}`);
    expect(call?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(call?.headers.get("idempotency-key")).toBe(`checkout-${payment.id}`);
    const form = Object.fromEntries(call?.form ?? []);
    expect(form).toMatchObject({
      mode: "payment",
      client_reference_id: payment.id,
      customer_email: applicant.user.email,
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": "12500",
      "metadata[payment_id]": payment.id,
      "metadata[application_id]": draft.id,
      expires_at: String(Math.floor(Date.parse(payment.expiresAt) / 1000)),
    });
    expect(form.success_url).toBe(
      `https://apply.example.org/payments/return?payment=${payment.id}&result=success&session_id={CHECKOUT_SESSION_ID}`,
    );
  });

  test("every call goes through the SDK with the pinned API version (Stripe-Version)", async () => {
    const { payment, sessionId } = await stripePayment();
    await app.handle(as(admin, "POST", paymentPath(payment.id, "refresh")));
    const calls = stripe.requests.filter(
      (r) => r.path.includes(sessionId) || r.form.get("client_reference_id") === payment.id,
    );
    expect(calls.map((r) => r.method).sort()).toEqual(["GET", "POST"]);
    for (const call of calls) {
      expect(call.headers.get("stripe-version")).toBe(STRIPE_API_VERSION);
      expect(call.headers.get("user-agent")).toStartWith("Stripe/v1 NodeBindings/");
    }
    expect(STRIPE_API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}\.\w+$/);
  });

  test("Stripe failing: 502, nothing lost; a retry with the same key finishes the same payment", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const key = crypto.randomUUID();
    stripe.failNext(500);
    const failed = await pay(ctx, applicant, draft.id, { provider: "stripe" }, key);
    const problem = await problemOf(failed);
    expect(problem).toMatchObject({ status: 502, code: "PAYMENT_PROVIDER_ERROR" });
    // Stripe's own message goes to the log, not to the applicant.
    expect(JSON.stringify(problem)).not.toContain("Stripe's end");
    const retry = await pay(ctx, applicant, draft.id, { provider: "stripe" }, key);
    expect(retry.status).toBe(201);
    const payment = await body(retry);
    expect(payment.checkoutUrl).toStartWith("https://checkout.stripe.com/");
    const rows = await ctx.db.run(
      (sql) => sql`SELECT id FROM payments WHERE application_id = ${draft.id}`,
    );
    expect(rows).toHaveLength(1);
  });

  test("a client that lost the key: 409 PAYMENT_PENDING names the payment; refresh opens its checkout", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    stripe.failNext(503);
    expect((await pay(ctx, applicant, draft.id, { provider: "stripe" })).status).toBe(502);
    const conflict = (await problemOf(
      await pay(ctx, applicant, draft.id, { provider: "stripe" }),
    )) as { code: string; paymentId?: string };
    expect(conflict.code).toBe("PAYMENT_PENDING");
    const refreshed = await app.handle(
      as(applicant, "POST", paymentPath(conflict.paymentId ?? "", "refresh/")),
    );
    const payment = await body(refreshed);
    expect(payment).toMatchObject({ id: conflict.paymentId, status: "pending" });
    expect(payment.checkoutUrl).toStartWith("https://checkout.stripe.com/");
  });

  test("concurrent creations with one key: one payment, one session", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => pay(ctx, applicant, draft.id, { provider: "stripe" }, key)),
    );
    const payments = await Promise.all(answers.map(body));
    expect(new Set(payments.map((p) => p.id)).size).toBe(1);
    expect(new Set(payments.map((p) => p.checkoutUrl)).size).toBe(1);
    const sessions = [...stripe.sessions.values()].filter(
      (s) => s.client_reference_id === payments[0]?.id,
    );
    expect(sessions).toHaveLength(1);
  });
});

describe("the webhook", () => {
  test("checkout.session.completed (paid): succeeded, with a receipt; the payment intent kept", async () => {
    const { payment, sessionId } = await stripePayment();
    const res = await deliver(stripeEvent("checkout.session.completed", stripe.pay(sessionId)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, duplicate: false });
    const after = await current(payment.id);
    expect(after.status).toBe("succeeded");
    expect(after.receiptNumber).toMatch(/^R-\d{6}$/);
    const [row] = await ctx.db.run(
      (sql) => sql`SELECT provider_payment_id FROM payments WHERE id = ${payment.id}`,
    );
    expect(row.provider_payment_id).toStartWith("pi_test_");
  });

  test("each event id is processed once: a redelivery changes nothing, no second receipt", async () => {
    const { payment, sessionId } = await stripePayment();
    const event = stripeEvent("checkout.session.completed", stripe.pay(sessionId));
    await deliver(event);
    const first = await current(payment.id);
    const counter = async () =>
      (await ctx.db.run((sql) => sql`SELECT last_value FROM receipt_counter`))[0].last_value;
    const before = Number(await counter());
    for (let i = 0; i < 3; i++) {
      const again = await deliver(event);
      expect(await again.json()).toEqual({ received: true, duplicate: true });
    }
    expect(await current(payment.id)).toEqual(first);
    expect(Number(await counter())).toBe(before);
  });

  test("forged: wrong secret, tampered payload, no or garbled header → 400, nothing changes", async () => {
    const { payment, sessionId } = await stripePayment();
    const payload = stripeEvent("checkout.session.completed", stripe.pay(sessionId));
    const at = nowSeconds();
    const attempts = [
      webhookRequest(payload, signature(payload, at, "whsec_someone_else")),
      webhookRequest(payload.replace('"paid"', '"paid" '), signature(payload, at)),
      webhookRequest(payload, null),
      webhookRequest(payload, "t=abc,v1=xyz"),
      webhookRequest(payload, `t=${at}`),
      webhookRequest(payload, signature(payload, at).replace("v1=", "v0=")),
    ];
    for (const request of attempts) {
      const res = await app.handle(request);
      expect((await problemOf(res)).code).toBe("WEBHOOK_SIGNATURE_INVALID");
    }
    expect((await current(payment.id)).status).toBe("pending");
  });

  test("a captured event replayed after the 5-minute tolerance is refused; within it, accepted", async () => {
    const { payment, sessionId } = await stripePayment();
    const payload = stripeEvent("checkout.session.completed", stripe.pay(sessionId));
    const stale = await deliver(payload, nowSeconds() - 301);
    expect((await problemOf(stale)).code).toBe("WEBHOOK_SIGNATURE_INVALID");
    const future = await deliver(payload, nowSeconds() + 301);
    expect((await problemOf(future)).code).toBe("WEBHOOK_SIGNATURE_INVALID");
    expect((await current(payment.id)).status).toBe("pending");
    const recent = await deliver(payload, nowSeconds() - 290);
    expect(recent.status).toBe(200);
    expect((await current(payment.id)).status).toBe("succeeded");
  });

  test("a header with several v1 signatures (secret rotation) passes when one matches", async () => {
    const { payment, sessionId } = await stripePayment();
    const payload = stripeEvent("checkout.session.completed", stripe.pay(sessionId));
    const at = nowSeconds();
    const old = signature(payload, at, "whsec_old").split(",")[1];
    const res = await app.handle(webhookRequest(payload, `${signature(payload, at)},${old}`));
    expect(res.status).toBe(200);
    expect((await current(payment.id)).status).toBe("succeeded");
  });

  test("expired and async-failed sessions close the payment; a new one may start", async () => {
    const expired = await stripePayment();
    await deliver(stripeEvent("checkout.session.expired", stripe.expire(expired.sessionId)));
    expect((await current(expired.payment.id)).status).toBe("expired");
    expect(
      (await pay(ctx, expired.applicant, expired.draft.id, { provider: "stripe" })).status,
    ).toBe(201);

    const failing = await stripePayment();
    const session = stripe.sessions.get(failing.sessionId);
    const unpaid = { ...session, status: "complete", payment_status: "unpaid" };
    await deliver(stripeEvent("checkout.session.completed", unpaid));
    expect((await current(failing.payment.id)).status).toBe("pending");
    await deliver(stripeEvent("checkout.session.async_payment_failed", unpaid));
    expect((await current(failing.payment.id)).status).toBe("failed");
  });

  test("a delayed method: completed (unpaid) leaves it pending; async_payment_succeeded settles it", async () => {
    const { payment, sessionId } = await stripePayment();
    const session = stripe.sessions.get(sessionId);
    await deliver(stripeEvent("checkout.session.completed", { ...session, status: "complete" }));
    expect((await current(payment.id)).status).toBe("pending");
    const settled = stripe.pay(sessionId);
    await deliver(stripeEvent("checkout.session.async_payment_succeeded", settled));
    expect((await current(payment.id)).status).toBe("succeeded");
  });

  test("an event whose amount or session does not match the payment is not trusted", async () => {
    const { payment, sessionId } = await stripePayment(7500);
    const session = stripe.pay(sessionId);
    await deliver(stripeEvent("checkout.session.completed", { ...session, amount_total: 1 }));
    await deliver(stripeEvent("checkout.session.completed", { ...session, currency: "usd" }));
    await deliver(stripeEvent("checkout.session.completed", { ...session, id: "cs_test_other" }));
    expect((await current(payment.id)).status).toBe("pending");
  });

  test("events about sessions that are not ours, and other event types, are acknowledged", async () => {
    const stranger = { id: "cs_test_x", status: "complete", payment_status: "paid" };
    const res = await deliver(stripeEvent("checkout.session.completed", stranger));
    expect(res.status).toBe(200);
    const other = await deliver(stripeEvent("customer.created", { id: "cus_1" }));
    expect(other.status).toBe(200);
  });
});

describe("the redirect back from Checkout and the webhook, in either order", () => {
  test("webhook first: when the applicant lands, the payment is already paid; refresh changes nothing", async () => {
    const { applicant, payment, sessionId } = await stripePayment();
    await deliver(stripeEvent("checkout.session.completed", stripe.pay(sessionId)));
    const landed = await body(
      await app.handle(as(applicant, "POST", paymentPath(payment.id, "refresh/"))),
    );
    expect(landed.status).toBe("succeeded");
    expect(await current(payment.id, applicant)).toEqual(landed);
  });

  test("redirect first: refresh asks Stripe and settles it; the late webhook is a no-op", async () => {
    const { applicant, payment, sessionId } = await stripePayment();
    const session = stripe.pay(sessionId);
    const landed = await body(
      await app.handle(as(applicant, "POST", paymentPath(payment.id, "refresh/"))),
    );
    expect(landed.status).toBe("succeeded");
    const late = await deliver(stripeEvent("checkout.session.completed", session));
    expect(await late.json()).toEqual({ received: true, duplicate: false });
    expect(await current(payment.id, applicant)).toEqual(landed);
  });

  test("refresh before the customer paid: still pending", async () => {
    const { applicant, payment } = await stripePayment();
    const res = await app.handle(as(applicant, "POST", paymentPath(payment.id, "refresh/")));
    expect((await body(res)).status).toBe("pending");
  });
});

describe("refunds through Stripe", () => {
  async function paidStripe() {
    const made = await stripePayment(10_000);
    await deliver(stripeEvent("checkout.session.completed", stripe.pay(made.sessionId)));
    return made;
  }

  test("a partial refund is sent to /v1/refunds with the payment intent and an idempotency key", async () => {
    const { payment } = await paidStripe();
    const res = await app.handle(
      as(admin, "POST", paymentPath(payment.id, "refunds/"), { amount: 4_000, reason: "Partial" }),
    );
    expect(res.status).toBe(201);
    const refunded = await body(res);
    expect(refunded).toMatchObject({ status: "refunded", refunded: { amount: 4_000 } });
    expect(refunded.refunds[0]?.status).toBe("succeeded");
    const call = stripe.requests.findLast((r) => r.path === "/v1/refunds");
    expect(call?.form.get("amount")).toBe("4000");
    expect(call?.form.get("payment_intent")).toStartWith("pi_test_");
    expect(call?.headers.get("idempotency-key")).toBe(`refund-${refunded.refunds[0]?.id}`);
  });

  test("Stripe refusing the refund: 502, and the amount is released again", async () => {
    const { payment } = await paidStripe();
    stripe.failNext(402);
    const res = await app.handle(
      as(admin, "POST", paymentPath(payment.id, "refunds/"), { reason: "Try" }),
    );
    expect((await problemOf(res)).code).toBe("PAYMENT_PROVIDER_ERROR");
    const after = await current(payment.id);
    expect(after).toMatchObject({ status: "succeeded", refunded: { amount: 0 } });
    expect(after.refunds.map((r) => r.status)).toEqual(["failed"]);
  });

  test("Stripe payments are settled by Stripe: staff cannot confirm or fail them (409)", async () => {
    const { payment } = await stripePayment();
    for (const action of ["confirm/", "fail/"]) {
      const res = await app.handle(
        as(admin, "POST", paymentPath(payment.id, action), { reason: "x" }),
      );
      expect((await problemOf(res)).code).toBe("ILLEGAL_PAYMENT_TRANSITION");
    }
  });
});

describe("without Stripe configured", () => {
  test("the webhook endpoint is 404 and stripe payments are refused (422)", async () => {
    const plain = await setupApp();
    const payload = stripeEvent("checkout.session.completed", { id: "cs_x" });
    const res = await plain.app.handle(webhookRequest(payload, signature(payload, nowSeconds())));
    expect(res.status).toBe(404);
    const staff = await signIn(plain, "admin");
    const { applicant, draft } = await draftWithFee(plain, staff);
    expect((await pay(plain, applicant, draft.id, { provider: "stripe" })).status).toBe(422);
  });
});
