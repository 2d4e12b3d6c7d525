/**
 * WebhookEndpoint secrets: generated here (Standard Webhooks form, `whsec_` + base64 of 32 random
 * bytes) and kept sealed with AES-256-GCM under a key derived by HKDF-SHA-256 from
 * ADMISSIONS_WEBHOOK_KEY (unset: ADMISSIONS_JWT_SECRET), the endpoint id as additional data.
 * The same scheme as TOTP secrets (mfa), under a purpose of its own: a database dump alone
 * signs nothing. The server must read the secret back to sign, so it cannot be a hash.
 */
export type SecretBox = {
  seal(endpointId: string, secret: string): Promise<string>;
  open(endpointId: string, sealed: string): Promise<string>;
};

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();

export const newSecret = (): string =>
  `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;

/** The HMAC key a `whsec_` secret stands for: its base64 part, decoded (Standard Webhooks). */
export const secretKeyBytes = (secret: string): Uint8Array =>
  Buffer.from(secret.replace(/^whsec_/, ""), "base64");

export function secretBox(keyMaterial: string): SecretBox {
  const key = crypto.subtle
    .importKey("raw", encoder.encode(keyMaterial), "HKDF", false, ["deriveKey"])
    .then((base) =>
      crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: encoder.encode("admissions"),
          info: encoder.encode("webhook-endpoint-secret/v1"),
        },
        base,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      ),
    );
  return {
    async seal(endpointId, secret) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(endpointId) },
        await key,
        encoder.encode(secret),
      );
      const bytes = new Uint8Array(IV_BYTES + sealed.byteLength);
      bytes.set(iv);
      bytes.set(new Uint8Array(sealed), IV_BYTES);
      return `${VERSION}.${Buffer.from(bytes).toString("base64url")}`;
    },
    async open(endpointId, sealed) {
      const [version, body = ""] = sealed.split(".");
      if (version !== VERSION) throw new Error("unknown webhook secret format");
      const bytes = Buffer.from(body, "base64url");
      const plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: bytes.subarray(0, IV_BYTES),
          additionalData: encoder.encode(endpointId),
        },
        await key,
        bytes.subarray(IV_BYTES),
      );
      return new TextDecoder().decode(plain);
    },
  };
}
