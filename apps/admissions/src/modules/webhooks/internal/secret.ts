/**
 * WebhookEndpoint secrets: generated here (Standard Webhooks form, `whsec_` + base64 of 32 random
 * bytes) and kept sealed by the shared secret box (lib/secret-box.ts) under a key derived from
 * ADMISSIONS_WEBHOOK_KEY (unset: ADMISSIONS_JWT_SECRET), the endpoint id as additional data. The
 * server must read the secret back to sign, so it cannot be a hash.
 */
import { type SecretBox, secretBox as sealedWith } from "../../../lib/secret-box.ts";

export type { SecretBox };

export const newSecret = (): string =>
  `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;

/** The HMAC key a `whsec_` secret stands for: its base64 part, decoded (Standard Webhooks). */
export const secretKeyBytes = (secret: string): Uint8Array =>
  Buffer.from(secret.replace(/^whsec_/, ""), "base64");

// The purpose string is part of the derived key: changing it would orphan every stored secret.
export const secretBox = (keyMaterial: string): SecretBox =>
  sealedWith(keyMaterial, "webhook-endpoint-secret/v1");
