import { clientGuards, HttpProblem, readBodyCapped, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problemResponses, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  ApplicationParams,
  FeeSummary,
  IdempotencyHeaders,
  NoteBody,
  Payment,
  PaymentCreate,
  PaymentListQuery,
  PaymentPage,
  PaymentParams,
  ReasonBody,
  Receipt,
  RefundBody,
  WebhookAck,
} from "./model.ts";
import {
  createPayment,
  getFee,
  getPayment,
  getReceipt,
  idempotencyKeyOf,
  listPayments,
  type PaymentsDeps,
  receiveStripeEvent,
  refreshPayment,
  refundPayment,
  settleManual,
  waiveFee,
} from "./service.ts";

export type PaymentsRoutesDeps = PaymentsDeps & {
  guard: AuthGuard;
  trustedProxies: TrustedProxies;
  /** Stripe's endpoint signing secret; null when Stripe is not enabled. */
  stripeWebhookSecret: string | null;
};

const tags = ["payments"];

const STRIPE_WEBHOOK_PATH = "/api/v1/payments/webhooks/stripe/";
/** Stripe's events are a few KiB; anything this large is not one. */
const MAX_EVENT_BYTES = 256 * 1024;

/** Paying an application's fee, and what staff do about fees. */
const applicationRoutes = (deps: PaymentsRoutesDeps) =>
  new Elysia({ name: "application-payments", prefix: "/api/v1/applications" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .post(
      "/:id/payments/",
      async ({ actor, params, body, headers, set }) => {
        const key = idempotencyKeyOf(headers["idempotency-key"]);
        const { payment, replayed } = await createPayment(deps, actor, params.id, body ?? {}, key);
        set.status = 201;
        set.headers.location = `/api/v1/payments/${payment.id}/`;
        if (replayed) set.headers["idempotent-replayed"] = "true";
        return payment;
      },
      {
        auth: ["applicant"],
        params: ApplicationParams,
        headers: IdempotencyHeaders,
        ...jsonBody(PaymentCreate),
        response: { 201: Payment, ...problemResponses(400, 401, 403, 404, 409, 415, 422, 502) },
        detail: {
          tags,
          summary: "Pay your application's fee (Idempotency-Key required)",
          description:
            "The amount and currency come from the program. The same Idempotency-Key and body return the same payment (header Idempotent-Replayed: true); the same key with another body is 422 IDEMPOTENCY_KEY_REUSED; no key is 400 IDEMPOTENCY_KEY_MISSING. `manual` (default) answers with a reference and instructions; `stripe` with a checkoutUrl to send the applicant to. 409: FEE_NOT_REQUIRED, FEE_WAIVED, FEE_ALREADY_PAID, PAYMENT_PENDING (with paymentId), APPLICATION_NOT_EDITABLE.",
          security: writeSecurity,
        },
      },
    )
    .get(
      "/:id/payments/",
      ({ actor, params, query, request }) =>
        listPayments(deps, actor, params.id, pageOf(query), request.url),
      {
        auth: true,
        params: ApplicationParams,
        query: PaymentListQuery,
        response: { 200: PaymentPage, ...problemResponses(401, 404, 422) },
        detail: {
          tags,
          summary: "An application's payments (its applicant, staff)",
          security: readSecurity,
        },
      },
    )
    .get("/:id/fee/", ({ actor, params }) => getFee(deps, actor, params.id), {
      auth: true,
      params: ApplicationParams,
      response: { 200: FeeSummary, ...problemResponses(401, 404) },
      detail: {
        tags,
        summary: "The fee and whether it is paid, waived or due",
        security: readSecurity,
      },
    })
    .post(
      "/:id/fee-waiver/",
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return waiveFee(deps, actor, params.id, body.reason, originOf(actor, clientIp).clientIp);
      },
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ReasonBody),
        response: { 201: FeeSummary, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Waive the fee, with a reason (staff)",
          description: "409 FEE_ALREADY_PAID, FEE_WAIVED, FEE_NOT_REQUIRED or PAYMENT_PENDING.",
          security: writeSecurity,
        },
      },
    );

/** One payment, by id. */
const paymentRoutes = (deps: PaymentsRoutesDeps) =>
  new Elysia({ name: "payments", prefix: "/api/v1/payments" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .get("/:id/", ({ actor, params }) => getPayment(deps, actor, params.id), {
      auth: true,
      params: PaymentParams,
      response: { 200: Payment, ...problemResponses(401, 404) },
      detail: { tags, summary: "One payment (its applicant, staff)", security: readSecurity },
    })
    .post("/:id/refresh/", ({ actor, params }) => refreshPayment(deps, actor, params.id), {
      auth: true,
      params: PaymentParams,
      response: { 200: Payment, ...problemResponses(401, 403, 404, 502) },
      detail: {
        tags,
        summary: "Ask the provider how the payment stands now (after the Checkout redirect)",
        description:
          "Settles a Stripe payment from the Checkout Session's state without waiting for the webhook; whichever comes first wins, the other changes nothing.",
        security: writeSecurity,
      },
    })
    .get("/:id/receipt/", ({ actor, params }) => getReceipt(deps, actor, params.id), {
      auth: true,
      params: PaymentParams,
      response: { 200: Receipt, ...problemResponses(401, 404, 409) },
      detail: {
        tags,
        summary: "The receipt of a successful payment (409 RECEIPT_NOT_AVAILABLE otherwise)",
        security: readSecurity,
      },
    })
    .post(
      "/:id/confirm/",
      ({ actor, clientIp, params, body }) =>
        settleManual(
          deps,
          actor,
          params.id,
          "succeeded",
          body?.note?.trim() || null,
          originOf(actor, clientIp).clientIp,
        ),
      {
        auth: STAFF,
        params: PaymentParams,
        ...jsonBody(NoteBody),
        response: { 200: Payment, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Confirm a manual payment was received (staff): succeeded, with a receipt",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:id/fail/",
      ({ actor, clientIp, params, body }) =>
        settleManual(
          deps,
          actor,
          params.id,
          "failed",
          body.reason.trim(),
          originOf(actor, clientIp).clientIp,
        ),
      {
        auth: STAFF,
        params: PaymentParams,
        ...jsonBody(ReasonBody),
        response: { 200: Payment, ...problemResponses(400, 401, 403, 404, 409, 415, 422) },
        detail: {
          tags,
          summary: "Record a manual payment as failed (staff)",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/:id/refunds/",
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return refundPayment(deps, actor, params.id, body, originOf(actor, clientIp).clientIp);
      },
      {
        auth: STAFF,
        params: PaymentParams,
        ...jsonBody(RefundBody),
        response: { 201: Payment, ...problemResponses(400, 401, 403, 404, 409, 415, 422, 502) },
        detail: {
          tags,
          summary: "Refund all or part of a payment (staff), never more than was paid",
          description:
            "409 REFUND_EXCEEDS_PAID past what is left; 409 ILLEGAL_PAYMENT_TRANSITION unless succeeded or refunded.",
          security: writeSecurity,
        },
      },
    );

const isWebhook = (url: string) => {
  const path = new URL(url).pathname;
  return path === STRIPE_WEBHOOK_PATH || path === STRIPE_WEBHOOK_PATH.slice(0, -1);
};

/**
 * The Stripe webhook endpoint. The signature covers the exact bytes Stripe sent, but the
 * platform parses JSON bodies before any route sees them; so the request is cloned on arrival
 * (this path only) and the clone's bytes, capped, are what is verified.
 */
const stripeWebhook = (deps: PaymentsDeps, webhookSecret: string | null) => {
  const rawRequests = new WeakMap<Request, Request>();
  return new Elysia({ name: "stripe-webhook" })
    .onRequest(({ request }) => {
      if (request.method === "POST" && isWebhook(request.url)) {
        // clone() is typed with undici's Request; at run time it is Bun's, like `request`.
        rawRequests.set(request, request.clone() as Request);
      }
    })
    .post(
      STRIPE_WEBHOOK_PATH,
      async ({ request }) => {
        const raw = rawRequests.get(request);
        if (!webhookSecret || !raw) {
          throw new HttpProblem("NOT_FOUND", { detail: "Stripe payments are not enabled here" });
        }
        const payload = new TextDecoder().decode(await readBodyCapped(raw, MAX_EVENT_BYTES));
        return receiveStripeEvent(
          deps,
          webhookSecret,
          payload,
          request.headers.get("stripe-signature"),
        );
      },
      {
        response: { 200: WebhookAck, ...problemResponses(400, 404, 413, 415) },
        detail: {
          tags: ["payments"],
          summary: "Stripe webhook (signed with Stripe-Signature)",
          description:
            "Verifies Stripe's documented signature (HMAC-SHA256 over `t.payload` with the endpoint secret, 5-minute tolerance) and applies checkout.session.completed, .async_payment_succeeded, .async_payment_failed and .expired. Each event id is processed once.",
          security: [],
        },
      },
    );
};

export const payments = (deps: PaymentsRoutesDeps) =>
  new Elysia({ name: "payments-all" })
    .use(applicationRoutes(deps))
    .use(paymentRoutes(deps))
    .use(stripeWebhook(deps, deps.stripeWebhookSecret));
