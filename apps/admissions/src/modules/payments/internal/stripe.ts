import type { Logger } from "@platform/server";
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

interface Form {
  [key: string]: string | number | Form | Form[];
}

/** Stripe's form encoding of nested parameters: `line_items[0][price_data][currency]=eur`. */
export function formEncode(params: Form, prefix = "", out = new URLSearchParams()) {
  for (const [key, value] of Object.entries(params)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) formEncode(item, `${name}[${i}]`, out);
    } else if (typeof value === "object") formEncode(value, name, out);
    else out.append(name, String(value));
  }
  return out;
}

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

/**
 * Stripe over its documented HTTP API (no SDK): form-encoded requests with the secret key as a
 * bearer token, an Idempotency-Key on every POST so a retried call returns the first result,
 * JSON answers. Provider failures become 502 PAYMENT_PROVIDER_ERROR; Stripe's own message goes
 * to the log, not to the client.
 */
export function stripeProvider(
  settings: StripeSettings,
  logger: Logger,
  fetchImpl: typeof fetch = fetch,
): PaymentProvider {
  async function call<T>(method: "GET" | "POST", path: string, form?: Form, key?: string) {
    const headers: Record<string, string> = { authorization: `Bearer ${settings.secretKey}` };
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    if (key) headers["idempotency-key"] = key;
    let response: Response;
    try {
      response = await fetchImpl(`${settings.apiBase}${path}`, {
        method,
        headers,
        body: form ? formEncode(form).toString() : undefined,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      logger.error("stripe unreachable", { path, err });
      throw problem("PAYMENT_PROVIDER_ERROR", {
        detail: "The payment provider could not be reached; try again shortly",
      });
    }
    const body = (await response.json().catch(() => null)) as T | null;
    if (!response.ok || body === null) {
      const error = (body as { error?: { type?: string; message?: string } } | null)?.error;
      logger.error("stripe refused", { path, status: response.status, error });
      throw problem("PAYMENT_PROVIDER_ERROR", {
        detail: "The payment provider refused the request; try again later",
      });
    }
    return body;
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
      const session = await call<StripeSession>(
        "POST",
        "/v1/checkout/sessions",
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
        `checkout-${request.paymentId}`,
      );
      const sessionId = str(session.id);
      const url = str(session.url);
      if (!sessionId || !url) throw malformed("checkout session without id or url");
      return { sessionId, url };
    },
    async lookup(sessionId) {
      const session = await call<StripeSession>(
        "GET",
        `/v1/checkout/sessions/${encodeURIComponent(sessionId)}`,
      );
      const state = sessionStateOf(session);
      if (!state) throw malformed("checkout session without status");
      return state;
    },
    async refund(payment, amount, key) {
      if (!payment.providerPaymentId) throw malformed("refund of a payment with no payment intent");
      const refund = await call<{ id?: unknown; status?: unknown }>(
        "POST",
        "/v1/refunds",
        {
          payment_intent: payment.providerPaymentId,
          amount,
          metadata: { payment_id: payment.id },
        },
        `refund-${key}`,
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
