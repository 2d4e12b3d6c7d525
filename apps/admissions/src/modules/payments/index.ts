import { clientGuards, HttpProblem, readBodyCapped, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import { NoteBody, Payment, ReasonBody, Receipt, RefundBody, WebhookAck } from "./model.ts";
import {
  getPayment,
  getReceipt,
  type PaymentsDeps,
  receiveStripeEvent,
  refreshPayment,
  refundPayment,
  settleManual,
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

const isWebhook = (url: string) => {
  const path = new URL(url).pathname;
  return path === STRIPE_WEBHOOK_PATH || path === STRIPE_WEBHOOK_PATH.slice(0, -1);
};

/**
 * One payment, by id, and the Stripe webhook. The webhook's signature covers the exact bytes
 * Stripe sent, but the platform parses JSON bodies before any route sees them; so that request
 * is cloned on arrival (this path only) and the clone's bytes, capped, are what is verified.
 */
export const payments = (deps: PaymentsRoutesDeps) => {
  const webhookSecret = deps.stripeWebhookSecret;
  const rawRequests = new WeakMap<Request, Request>();
  return new Elysia({ name: "payments", prefix: "/api/v1/payments" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.guard)
    .onRequest(({ request }) => {
      if (request.method === "POST" && isWebhook(request.url)) {
        // clone() is typed with undici's Request; at run time it is Bun's, like `request`.
        rawRequests.set(request, request.clone() as Request);
      }
    })
    .get("/:id/", ({ actor, params }) => getPayment(deps, actor, params.id), {
      auth: true,
      params: IdParams,
      response: { 200: Payment, ...problems("NOT_FOUND") },
      detail: { tags, summary: "One payment (its applicant, staff)", security: readSecurity },
    })
    .post("/:id/refresh/", ({ actor, params }) => refreshPayment(deps, actor, params.id), {
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
    .get("/:id/receipt/", ({ actor, params }) => getReceipt(deps, actor, params.id), {
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
        params: IdParams,
        ...jsonBody(NoteBody),
        response: {
          200: Payment,
          ...problems("FORBIDDEN", "NOT_FOUND", "ILLEGAL_PAYMENT_TRANSITION"),
        },
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
      "/:id/refunds/",
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
      "/webhooks/stripe/",
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
    );
};
