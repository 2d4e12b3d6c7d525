import { HttpProblem, readBodyCapped } from "@platform/server";
import { Elysia, t } from "elysia";
import { isoAt } from "../../lib/ids.ts";
import { problemResponses } from "../../lib/openapi.ts";
import type { PaymentsDeps } from "./access.ts";
import { applySessionState } from "./sessions.ts";
import { sessionStateOf } from "./stripe.ts";
import { verifyStripeSignature } from "./stripe-signature.ts";

export const STRIPE_WEBHOOK_PATH = "/api/v1/payments/webhooks/stripe/";
const MAX_EVENT_BYTES = 256 * 1024;

const WebhookAck = t.Object({
  received: t.Literal(true),
  duplicate: t.Boolean({ description: "This event id was processed before; nothing changed" }),
});

type StripeEvent = { id: string; type: string; data: { object: Record<string, unknown> } };

function parseEvent(payload: string): StripeEvent {
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch {
    throw new HttpProblem("MALFORMED_JSON", { detail: "The event is not valid JSON" });
  }
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
  verifyStripeSignature(payload, signature, webhookSecret, deps.now());
  const event = parseEvent(payload);
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

const isWebhook = (url: string) => {
  const path = new URL(url).pathname;
  return path === STRIPE_WEBHOOK_PATH || path === STRIPE_WEBHOOK_PATH.slice(0, -1);
};

/**
 * The Stripe webhook endpoint. The signature covers the exact bytes Stripe sent, but the
 * platform parses JSON bodies before any route sees them; so the request is cloned on arrival
 * (this path only) and the clone's bytes, capped, are what is verified.
 */
export const stripeWebhook = (deps: PaymentsDeps, webhookSecret: string | null) => {
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
