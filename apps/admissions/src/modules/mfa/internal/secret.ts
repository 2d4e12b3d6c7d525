/**
 * TOTP secrets at rest: AES-256-GCM (WebCrypto) under a key derived with HKDF-SHA-256 from
 * ADMISSIONS_MFA_KEY (or, unset, ADMISSIONS_JWT_SECRET). The user id is the additional data,
 * so a sealed secret copied onto another account's row does not open. A database dump alone
 * holds no usable secret.
 */
export type SecretBox = {
  seal(userId: string, secret: string): Promise<string>;
  /** The secret; throws when the text was not sealed by this key for this user. */
  open(userId: string, sealed: string): Promise<string>;
};

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();

export function secretBox(keyMaterial: string): SecretBox {
  const key = crypto.subtle
    .importKey("raw", encoder.encode(keyMaterial), "HKDF", false, ["deriveKey"])
    .then((base) =>
      crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: encoder.encode("admissions"),
          // A purpose of its own: the same secret also signs JWTs, never with this derived key.
          info: encoder.encode("mfa-totp-secret/v1"),
        },
        base,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      ),
    );
  return {
    async seal(userId, secret) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(userId) },
        await key,
        encoder.encode(secret),
      );
      const bytes = new Uint8Array(IV_BYTES + sealed.byteLength);
      bytes.set(iv);
      bytes.set(new Uint8Array(sealed), IV_BYTES);
      return `${VERSION}.${Buffer.from(bytes).toString("base64url")}`;
    },
    async open(userId, sealed) {
      const [version, body = ""] = sealed.split(".");
      if (version !== VERSION) throw new Error("unknown TOTP secret format");
      const bytes = Buffer.from(body, "base64url");
      const plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: bytes.subarray(0, IV_BYTES),
          additionalData: encoder.encode(userId),
        },
        await key,
        bytes.subarray(IV_BYTES),
      );
      return new TextDecoder().decode(plain);
    },
  };
}
