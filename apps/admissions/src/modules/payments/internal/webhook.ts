import { HttpProblem } from "@platform/server";
import { isoAt } from "../../../lib/ids.ts";
import type { PaymentsDeps } from "./access.ts";
import { applySessionState } from "./sessions.ts";
import { sessionStateOf } from "./stripe.ts";
import { verifyStripeEvent } from "./stripe-signature.ts";

type StripeEvent = { id: string; type: string; data: { object: Record<string, unknown> } };

/** The verified event's shape, checked: a signed body is still only what the sender wrote. */
function eventOf(event: unknown): StripeEvent {
  const e = event as Partial<StripeEvent> | null;
  if (
    typeof e?.id !== "string" ||
    typeof e.type !== "string" ||
    typeof e.data?.object !== "object" ||
    e.data.object === null
  ) {
    throw new HttpProblem("BAD_REQUEST", { detail: "Not a Stripe event (id, type, data.object)" });
  }
  return e as StripeEvent;
}

/**
 * Verifies and applies one Stripe event, once: the event id is recorded in the same
 * transaction as its effect, so a redelivery (Stripe retries until it gets a 2xx) or a replay
 * changes nothing, and an effect that fails leaves the id unrecorded for the retry.
 */
export async function receiveStripeEvent(
  deps: PaymentsDeps,
  webhookSecret: string,
  payload: string,
  signature: string | null,
) {
  const event = eventOf(await verifyStripeEvent(payload, signature, webhookSecret, deps.now()));
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const recorded = await tx`INSERT INTO webhook_events (provider, event_id, type, received_at)
      VALUES ('stripe', ${event.id}, ${event.type}, ${at}) ON CONFLICT DO NOTHING`;
    if (recorded.count !== 1) return { received: true as const, duplicate: true };
    if (event.type.startsWith("checkout.session.")) {
      const state = sessionStateOf(event.data.object);
      if (state?.paymentId) {
        await applySessionState(tx, deps.logger, state.paymentId, state, at, event.type);
      }
    }
    return { received: true as const, duplicate: false };
  });
}
