import { timingSafeEqual } from "node:crypto";
import { problem } from "../../../problems.ts";

/** Stripe's documented default: events signed more than 5 minutes from now are refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const invalid = (detail: string) => problem("WEBHOOK_SIGNATURE_INVALID", { detail });

export const stripeSignatureOf = (secret: string, timestamp: number, payload: string) =>
  new Bun.CryptoHasher("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");

/**
 * Checks a `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]` header the way Stripe
 * documents it: HMAC-SHA256 with the endpoint's signing secret over `<t>.<raw body>`, compared
 * in constant time with every `v1` (several during a secret rotation; other schemes such as
 * `v0` are ignored), and `t` within the tolerance of now in either direction, so a captured
 * request cannot be replayed later.
 */
export function verifyStripeSignature(
  payload: string,
  header: string | null,
  secret: string,
  nowMs: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): void {
  if (!header) throw invalid("The Stripe-Signature header is missing");
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === "v1" && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) {
    throw invalid("The Stripe-Signature header has no timestamp or no v1 signature");
  }
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) {
    throw invalid("The signature's timestamp is outside the tolerance");
  }
  const expected = Buffer.from(stripeSignatureOf(secret, timestamp, payload), "hex");
  const matches = signatures.some((signature) =>
    timingSafeEqual(Buffer.from(signature, "hex"), expected),
  );
  if (!matches) throw invalid("No signature matches the payload");
}
