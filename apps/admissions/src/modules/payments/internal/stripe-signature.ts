import { HttpProblem } from "@platform/server";
import Stripe from "stripe";
import { problem } from "../../../problems.ts";

/** Stripe's documented default: events signed more than 5 minutes ago are refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const invalid = (detail: string) => problem("WEBHOOK_SIGNATURE_INVALID", { detail });

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * Checks a `Stripe-Signature` header with the SDK (HMAC-SHA256 over `<t>.<raw body>` with the
 * endpoint's secret, constant-time against every `v1`, `t` no older than the tolerance by the
 * app's clock) and returns the parsed event. The SDK only bounds an event's age; a timestamp
 * further than the tolerance in the future is refused here too, so a signature made with a
 * skewed or forged clock cannot be kept for later.
 */
export async function verifyStripeEvent(
  payload: string,
  header: string | null,
  secret: string,
  nowMs: number,
): Promise<unknown> {
  if (!header) throw invalid("The Stripe-Signature header is missing");
  let event: unknown;
  try {
    event = await Stripe.webhooks.constructEventAsync(
      payload,
      header,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      cryptoProvider,
      nowMs,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw invalid(error.message.split("\n")[0] ?? "The signature does not verify");
    }
    throw new HttpProblem("MALFORMED_JSON", { detail: "The event is not valid JSON" });
  }
  const timestamp = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(header)?.[1]);
  if (timestamp - nowMs / 1000 > SIGNATURE_TOLERANCE_SECONDS) {
    throw invalid("The signature's timestamp is outside the tolerance");
  }
  return event;
}
