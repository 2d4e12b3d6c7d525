import { clientGuards, HttpProblem, readBodyCapped, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, withHeaders, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { ApplicationParams, IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import {
  ConfirmBody,
  DeskPage,
  DeskQuery,
  FeeSummary,
  IdempotencyHeaders,
  Payment,
  PaymentCreate,
  PaymentListQuery,
  PaymentPage,
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
  listDesk,
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
const application = "/applications/:id";

const STRIPE_WEBHOOK_PATH = "/api/v1/payments/webhooks/stripe/";
/** Stripe's events are a few KiB; anything this large is not one. */
const MAX_EVENT_BYTES = 256 * 1024;

const isWebhook = (url: string) => {
  const path = new URL(url).pathname;
  return path === STRIPE_WEBHOOK_PATH || path === STRIPE_WEBHOOK_PATH.slice(0, -1);
};

/**
 * An application's fee (its standing, a waiver) and payments (paying it, the list), one
 * payment by id (settled, refunded, its receipt), and the Stripe webhook. The webhook's signature covers the exact bytes
 * Stripe sent, but the platform parses JSON bodies before any route sees them; so that request
 * is cloned on arrival (this path only) and the clone's bytes, capped, are what is verified.
 */
export const payments = (deps: PaymentsRoutesDeps) => {
  const webhookSecret = deps.stripeWebhookSecret;
  const rawRequests = new WeakMap<Request, Request>();
  return new Elysia({ name: "payments", prefix: "/api/v1" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .onRequest(({ request }) => {
      if (request.method === "POST" && isWebhook(request.url)) {
        // clone() is typed with undici's Request; at run time it is Bun's, like `request`.
        rawRequests.set(request, request.clone() as Request);
      }
    })
    .post(
      `${application}/payments/`,
      async ({ actor, params, body, headers, set }) => {
        const created = await createPayment(
          deps,
          actor,
          params.id,
          body ?? {},
          idempotencyKeyOf(headers["idempotency-key"]),
        );
        set.status = 201;
        set.headers.location = `/api/v1/payments/${created.payment.id}/`;
        if (created.replayed) set.headers["idempotent-replayed"] = "true";
        return created.payment;
      },
      {
        auth: ["applicant"],
        params: ApplicationParams,
        headers: IdempotencyHeaders,
        ...jsonBody(PaymentCreate),
        response: {
          201: withHeaders(Payment, "Location", "Idempotent-Replayed"),
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "BAD_REQUEST",
            "IDEMPOTENCY_KEY_MISSING",
            "IDEMPOTENCY_KEY_REUSED",
            "APPLICATION_NOT_EDITABLE",
            "FEE_NOT_REQUIRED",
            "FEE_WAIVED",
            "FEE_ALREADY_PAID",
            "PAYMENT_PENDING",
            "PAYMENT_PROVIDER_ERROR",
          ),
        },
        detail: {
          tags,
          summary: "Pay your application's fee (Idempotency-Key required)",
          // Required, though a request without it is answered 400 IDEMPOTENCY_KEY_MISSING (a
          // code of its own) rather than by the schema's 422.
          parameters: [{ name: "idempotency-key", in: "header", required: true }],
          description:
            "The amount and currency come from the program. The same Idempotency-Key and body return the same payment (header Idempotent-Replayed: true); the same key with another body is 422 IDEMPOTENCY_KEY_REUSED; no key is 400 IDEMPOTENCY_KEY_MISSING. `manual` (default) answers with a reference and instructions; `stripe` with a checkoutUrl to send the applicant to. 409: FEE_NOT_REQUIRED, FEE_WAIVED, FEE_ALREADY_PAID, PAYMENT_PENDING (with paymentId), APPLICATION_NOT_EDITABLE.",
          security: writeSecurity,
        },
      },
    )
    .get(
      `${application}/payments/`,
      ({ actor, params, query, request }) =>
        listPayments(deps, actor, params.id, pageOf(query), request.url),
      {
        auth: true,
        params: ApplicationParams,
        query: PaymentListQuery,
        response: { 200: PaymentPage, ...problems("NOT_FOUND") },
        detail: {
          tags,
          summary: "An application's payments (its applicant, staff)",
          security: readSecurity,
        },
      },
    )
    .get(
      "/staff/payments/",
      ({ query, request }) => listDesk(deps, query, pageOf(query), request.url),
      {
        auth: ["admin"],
        query: DeskQuery,
        response: { 200: DeskPage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary:
            "The payments desk (admins): payments with their applicants, to confirm or refund",
          description:
            "Default: pending payments, the longest waiting first. `search` finds a reference however a bank statement prints it (any case, spaces or hyphens) or an applicant by name or email. References past their expiry are expired before the list is read.",
          security: readSecurity,
        },
      },
    )
    .get("/payments/:id/", ({ actor, params }) => getPayment(deps, actor, params.id), {
      auth: true,
      params: IdParams,
      response: { 200: Payment, ...problems("NOT_FOUND") },
      detail: { tags, summary: "One payment (its applicant, staff)", security: readSecurity },
    })
    .post("/payments/:id/refresh/", ({ actor, params }) => refreshPayment(deps, actor, params.id), {
      auth: true,
      params: IdParams,
      response: { 200: Payment, ...problems("NOT_FOUND", "PAYMENT_PROVIDER_ERROR") },
      detail: {
        tags,
        summary: "Ask the provider how the payment stands now (after the Checkout redirect)",
        description:
          "Settles a Stripe payment from the Checkout Session's state without waiting for the webhook; whichever comes first wins, the other changes nothing.",
        security: writeSecurity,
      },
    })
    .get("/payments/:id/receipt/", ({ actor, params }) => getReceipt(deps, actor, params.id), {
      auth: true,
      params: IdParams,
      response: { 200: Receipt, ...problems("NOT_FOUND", "RECEIPT_NOT_AVAILABLE") },
      detail: {
        tags,
        summary: "The receipt of a successful payment (409 RECEIPT_NOT_AVAILABLE otherwise)",
        security: readSecurity,
      },
    })
    .post(
      "/payments/:id/confirm/",
      ({ actor, clientIp, params, body }) =>
        settleManual(
          deps,
          actor,
          params.id,
          { to: "succeeded", note: body?.note?.trim() || null, received: body?.received ?? null },
          originOf(actor, clientIp).clientIp,
        ),
      {
        auth: STAFF,
        params: IdParams,
        ...jsonBody(ConfirmBody),
        response: {
          200: Payment,
          ...problems("FORBIDDEN", "NOT_FOUND", "ILLEGAL_PAYMENT_TRANSITION", "PAYMENT_SHORT"),
        },
        detail: {
          tags,
          summary: "Confirm a manual payment was received (staff): succeeded, with a receipt",
          description:
            "`received`: what the statement shows, in minor units. Less than the amount is 409 PAYMENT_SHORT (`expected`, `received`, `shortBy`) and nothing changes; more confirms it and keeps the surplus as the payment's `received`, for staff to return by transfer.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/payments/:id/fail/",
      ({ actor, clientIp, params, body }) =>
        settleManual(
          deps,
          actor,
          params.id,
          { to: "failed", reason: body.reason.trim() },
          originOf(actor, clientIp).clientIp,
        ),
      {
        auth: STAFF,
        params: IdParams,
        ...jsonBody(ReasonBody),
        response: {
          200: Payment,
          ...problems("FORBIDDEN", "NOT_FOUND", "ILLEGAL_PAYMENT_TRANSITION"),
        },
        detail: {
          tags,
          summary: "Record a manual payment as failed (staff)",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/payments/:id/refunds/",
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return refundPayment(deps, actor, params.id, body, originOf(actor, clientIp).clientIp);
      },
      {
        auth: STAFF,
        params: IdParams,
        ...jsonBody(RefundBody),
        response: {
          201: Payment,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "REFUND_EXCEEDS_PAID",
            "ILLEGAL_PAYMENT_TRANSITION",
            "PAYMENT_PROVIDER_ERROR",
          ),
        },
        detail: {
          tags,
          summary: "Refund all or part of a payment (staff), never more than was paid",
          description:
            "409 REFUND_EXCEEDS_PAID past what is left; 409 ILLEGAL_PAYMENT_TRANSITION unless succeeded or refunded.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/payments/webhooks/stripe/",
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
        response: {
          200: WebhookAck,
          ...problems(
            "NOT_FOUND",
            "MALFORMED_JSON",
            "BAD_REQUEST",
            "WEBHOOK_SIGNATURE_INVALID",
            "PAYLOAD_TOO_LARGE",
          ),
        },
        detail: {
          tags,
          summary: "Stripe webhook (signed with Stripe-Signature)",
          description:
            "Verifies Stripe's documented signature (HMAC-SHA256 over `t.payload` with the endpoint secret, 5-minute tolerance) and applies checkout.session.completed, .async_payment_succeeded, .async_payment_failed and .expired. Each event id is processed once.",
          security: [],
        },
      },
    )
    .get(`${application}/fee/`, ({ actor, params }) => getFee(deps, actor, params.id), {
      auth: true,
      params: ApplicationParams,
      response: { 200: FeeSummary, ...problems("NOT_FOUND") },
      detail: {
        tags,
        summary: "The fee and whether it is paid, waived or due",
        security: readSecurity,
      },
    })
    .post(
      `${application}/fee-waiver/`,
      async ({ actor, clientIp, params, body, set }) => {
        set.status = 201;
        return waiveFee(deps, actor, params.id, body.reason, originOf(actor, clientIp).clientIp);
      },
      {
        auth: STAFF,
        params: ApplicationParams,
        ...jsonBody(ReasonBody),
        response: {
          201: FeeSummary,
          ...problems(
            "FORBIDDEN",
            "NOT_FOUND",
            "FEE_ALREADY_PAID",
            "FEE_WAIVED",
            "FEE_NOT_REQUIRED",
            "PAYMENT_PENDING",
          ),
        },
        detail: {
          tags,
          summary: "Waive the fee, with a reason (staff)",
          description: "409 FEE_ALREADY_PAID, FEE_WAIVED, FEE_NOT_REQUIRED or PAYMENT_PENDING.",
          security: writeSecurity,
        },
      },
    );
};
