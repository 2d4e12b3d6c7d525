import type { Logger } from "@platform/server";
import Stripe from "stripe";
import { problem } from "../../../problems.ts";
import type { CheckoutRequest, PaymentProvider, SessionState } from "./providers.ts";

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** https://api.stripe.com, or a local stand-in in tests. */
  apiBase: string;
  /** Where Checkout sends the applicant back; `payment`, `result` and `session_id` are added. */
  returnUrl: string;
};

type StripeSession = {
  id?: unknown;
  url?: unknown;
  status?: unknown;
  payment_status?: unknown;
  payment_intent?: unknown;
  amount_total?: unknown;
  currency?: unknown;
  client_reference_id?: unknown;
};

const str = (value: unknown) => (typeof value === "string" ? value : null);

/** A Checkout Session object (API response or webhook `data.object`) as our SessionState. */
export function sessionStateOf(session: StripeSession): SessionState | null {
  const sessionId = str(session.id);
  const status = str(session.status);
  const paymentStatus = str(session.payment_status);
  if (!sessionId || !status || !paymentStatus) return null;
  if (!["open", "complete", "expired"].includes(status)) return null;
  if (!["paid", "unpaid", "no_payment_required"].includes(paymentStatus)) return null;
  // payment_intent is an id, or the expanded object when the caller asked for it.
  const intent = session.payment_intent;
  const intentId =
    str(intent) ??
    (intent && typeof intent === "object" ? str((intent as { id?: unknown }).id) : null);
  return {
    sessionId,
    paymentId: str(session.client_reference_id),
    status: status as SessionState["status"],
    paymentStatus: paymentStatus as SessionState["paymentStatus"],
    providerPaymentId: intentId,
    amount: typeof session.amount_total === "number" ? session.amount_total : null,
    currency: str(session.currency)?.toUpperCase() ?? null,
  };
}

/** `{CHECKOUT_SESSION_ID}` must reach Stripe literally: it fills it in on redirect. */
function returnUrl(base: string, paymentId: string, result: "success" | "cancelled") {
  const joiner = base.includes("?") ? "&" : "?";
  const url = `${base}${joiner}payment=${encodeURIComponent(paymentId)}&result=${result}`;
  return result === "success" ? `${url}&session_id={CHECKOUT_SESSION_ID}` : url;
}

/** The API version every call pins (Stripe-Version): the one this SDK release is typed for. */
export const STRIPE_API_VERSION = "2026-10-28.endive" satisfies Stripe.LatestApiVersion;

/** The SDK client for a configured account; `apiBase` may point at a stand-in (tests). */
export function stripeClient(settings: StripeSettings, fetchImpl: typeof fetch = fetch): Stripe {
  const base = new URL(settings.apiBase);
  return new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: base.hostname,
    port: base.port || (base.protocol === "https:" ? 443 : 80),
    protocol: base.protocol === "http:" ? "http" : "https",
    httpClient: Stripe.createFetchHttpClient(fetchImpl),
    timeout: 15_000,
    // A failed call is the client's to retry (every POST carries an idempotency key); the SDK
    // retrying inside a request would hold the applicant's request open for its backoff.
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

/**
 * Stripe through its official SDK (`stripe`, the API version pinned above): an idempotency key
 * on every POST so a retried call returns the first result. Provider failures become 502
 * PAYMENT_PROVIDER_ERROR; Stripe's own message goes to the log, not to the client.
 */
export function stripeProvider(
  settings: StripeSettings,
  logger: Logger,
  fetchImpl: typeof fetch = fetch,
): PaymentProvider {
  const stripe = stripeClient(settings, fetchImpl);

  async function call<T>(path: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (err instanceof Stripe.errors.StripeConnectionError) {
        logger.error("stripe unreachable", { path, err });
        throw problem("PAYMENT_PROVIDER_ERROR", {
          detail: "The payment provider could not be reached; try again shortly",
        });
      }
      const refused = err instanceof Stripe.errors.StripeError ? err : null;
      logger.error("stripe refused", {
        path,
        status: refused?.statusCode ?? null,
        error: refused ? { type: refused.type, message: refused.message } : err,
      });
      throw problem("PAYMENT_PROVIDER_ERROR", {
        detail: "The payment provider refused the request; try again later",
      });
    }
  }

  const malformed = (what: string) => {
    logger.error("stripe answer malformed", { what });
    return problem("PAYMENT_PROVIDER_ERROR", {
      detail: "The payment provider gave an unexpected answer",
    });
  };

  return {
    name: "stripe",
    async begin(request: CheckoutRequest) {
      const session = await call("/v1/checkout/sessions", () =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            client_reference_id: request.paymentId,
            customer_email: request.customerEmail,
            success_url: returnUrl(settings.returnUrl, request.paymentId, "success"),
            cancel_url: returnUrl(settings.returnUrl, request.paymentId, "cancelled"),
            expires_at: Math.floor(request.expiresAtMs / 1000),
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: request.amount,
                  product_data: { name: request.description },
                },
              },
            ],
            metadata: {
              payment_id: request.paymentId,
              application_id: request.applicationId,
              reference: request.reference,
            },
            payment_intent_data: {
              metadata: { payment_id: request.paymentId, reference: request.reference },
            },
          },
          // One session per payment, however often creation is retried.
          { idempotencyKey: `checkout-${request.paymentId}` },
        ),
      );
      const sessionId = str(session.id);
      const url = str(session.url);
      if (!sessionId || !url) throw malformed("checkout session without id or url");
      return { sessionId, url };
    },
    async lookup(sessionId) {
      const session = await call("/v1/checkout/sessions/{id}", () =>
        stripe.checkout.sessions.retrieve(sessionId),
      );
      const state = sessionStateOf(session);
      if (!state) throw malformed("checkout session without status");
      return state;
    },
    async refund(payment, amount, key) {
      const intent = payment.providerPaymentId;
      if (!intent) throw malformed("refund of a payment with no payment intent");
      const refund = await call("/v1/refunds", () =>
        stripe.refunds.create(
          { payment_intent: intent, amount, metadata: { payment_id: payment.id } },
          { idempotencyKey: `refund-${key}` },
        ),
      );
      const refundId = str(refund.id);
      const status = str(refund.status);
      if (!refundId || !status) throw malformed("refund without id or status");
      if (status === "failed" || status === "canceled") {
        logger.error("stripe refund failed", { refundId, status });
        throw problem("PAYMENT_PROVIDER_ERROR", {
          detail: "The payment provider refused the refund",
        });
      }
      return { refundId, settled: status === "succeeded" };
    },
  };
}
