import { timingSafeEqual } from "node:crypto";
import { secretKeyBytes } from "./secret.ts";

/*
 * Signatures as the Standard Webhooks specification has them (standardwebhooks.com), so a
 * receiver can use one of its libraries: `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret's decoded bytes.
 */

export type SignedHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

const hmac = (secret: string, content: string): string =>
  new Bun.CryptoHasher("sha256", secretKeyBytes(secret)).update(content).digest("base64");

export function signedHeaders(
  secret: string,
  id: string,
  timestampSec: number,
  body: string,
): SignedHeaders {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSec),
    "webhook-signature": `v1,${hmac(secret, `${id}.${timestampSec}.${body}`)}`,
  };
}

/** How far a receiver should let a timestamp stray from its clock (the spec's tolerance). */
export const TOLERANCE_SECONDS = 5 * 60;

/**
 * What a receiver does (docs/admissions.md, "Verifying a webhook"): the signature over the raw
 * body, checked in constant time against every `v1,` signature sent; the timestamp within five
 * minutes, so a captured request cannot be replayed later. Deduplicating by webhook-id is the
 * receiver's part (a retry carries the same id).
 */
export function verifySignature(
  secret: string,
  headers: Headers,
  body: string,
  nowSec: number,
): boolean {
  const id = headers.get("webhook-id");
  const timestamp = headers.get("webhook-timestamp");
  const signatures = headers.get("webhook-signature");
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSec - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(hmac(secret, `${id}.${timestamp}.${body}`));
  return signatures.split(" ").some((entry) => {
    const [version, signature = ""] = entry.split(",");
    const given = Buffer.from(signature);
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
