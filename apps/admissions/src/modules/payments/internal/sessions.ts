import type { Logger } from "@platform/server";
import type { SQL } from "bun";
import { markClosed, markSucceeded } from "./ledger.ts";
import type { SessionState } from "./providers.ts";
import { findPayment } from "./queries.ts";

export type Outcome = "succeeded" | "failed" | "expired";

/**
 * What a Checkout Session's state means for our payment. `checkout.session.completed` with
 * `payment_status: unpaid` is a delayed method (a bank debit) still on its way: no outcome yet.
 */
export function outcomeOf(state: SessionState, eventType?: string): Outcome | null {
  if (eventType === "checkout.session.async_payment_failed") return "failed";
  if (state.status === "complete" && state.paymentStatus === "paid") return "succeeded";
  if (state.status === "expired") return "expired";
  return null;
}

/**
 * Applies a provider's word on a payment, from a webhook or a lookup alike; whichever arrives
 * first settles it and the other changes nothing. A session that does not match the payment
 * (another session id, another amount or currency) is logged and ignored, never trusted.
 */
export async function applySessionState(
  tx: SQL,
  logger: Logger,
  paymentId: string,
  state: SessionState,
  at: string,
  eventType?: string,
): Promise<"applied" | "unchanged" | "ignored"> {
  const outcome = outcomeOf(state, eventType);
  if (!outcome) return "unchanged";
  const payment = await findPayment(tx, paymentId);
  const context = { paymentId, sessionId: state.sessionId };
  if (payment?.provider !== "stripe") {
    logger.warn("checkout session for no stripe payment of ours", context);
    return "ignored";
  }
  if (payment.checkout_session_id && payment.checkout_session_id !== state.sessionId) {
    logger.warn("checkout session does not match the payment's", context);
    return "ignored";
  }
  if (outcome === "succeeded") {
    if (state.amount !== Number(payment.amount) || state.currency !== payment.currency) {
      logger.error("paid amount does not match the payment", {
        ...context,
        paid: { amount: state.amount, currency: state.currency },
      });
      return "ignored";
    }
    const changed = await markSucceeded(tx, paymentId, {
      at,
      providerPaymentId: state.providerPaymentId,
      sessionId: state.sessionId,
    });
    if (!changed && (payment.status === "failed" || payment.status === "expired")) {
      // Money arrived for a payment we had closed: staff must refund it by hand.
      logger.error("payment succeeded at the provider after it was closed here", context);
    }
    return changed ? "applied" : "unchanged";
  }
  const reason =
    outcome === "failed" ? "The payment failed at Stripe" : "The Stripe checkout session expired";
  return (await markClosed(tx, paymentId, outcome, { at, reason })) ? "applied" : "unchanged";
}
