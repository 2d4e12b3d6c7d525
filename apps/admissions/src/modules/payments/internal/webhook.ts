import { HttpProblem } from "@platform/server";
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

/** Stripe's event, its signature verified (400/401 otherwise) and its shape checked. */
export const verifiedEvent = async (
  payload: string,
  signature: string | null,
  secret: string,
  nowMs: number,
) => eventOf(await verifyStripeEvent(payload, signature, secret, nowMs));
