/**
 * Secrets the server must read back (TOTP seeds, webhook signing secrets), sealed at rest with
 * AES-256-GCM (WebCrypto) under a key derived with HKDF-SHA-256 from the configured key material.
 * Each use names its own `purpose` (HKDF info), so one key material never yields the same key
 * twice (the JWT secret may be the material: it never signs with a derived key). The owner's id
 * is the additional data, so a sealed secret copied onto another row does not open. A database
 * dump alone holds no usable secret.
 */
export type SecretBox = {
  seal(ownerId: string, secret: string): Promise<string>;
  /** The secret; throws when the text was not sealed by this key for this owner. */
  open(ownerId: string, sealed: string): Promise<string>;
};

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();

export function secretBox(keyMaterial: string, purpose: string): SecretBox {
  const key = crypto.subtle
    .importKey("raw", encoder.encode(keyMaterial), "HKDF", false, ["deriveKey"])
    .then((base) =>
      crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: encoder.encode("admissions"),
          info: encoder.encode(purpose),
        },
        base,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      ),
    );
  return {
    async seal(ownerId, secret) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: encoder.encode(ownerId) },
        await key,
        encoder.encode(secret),
      );
      const bytes = new Uint8Array(IV_BYTES + sealed.byteLength);
      bytes.set(iv);
      bytes.set(new Uint8Array(sealed), IV_BYTES);
      return `${VERSION}.${Buffer.from(bytes).toString("base64url")}`;
    },
    async open(ownerId, sealed) {
      const [version, body = ""] = sealed.split(".");
      if (version !== VERSION) throw new Error(`unknown sealed secret format (${purpose})`);
      const bytes = Buffer.from(body, "base64url");
      const plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: bytes.subarray(0, IV_BYTES),
          additionalData: encoder.encode(ownerId),
        },
        await key,
        bytes.subarray(IV_BYTES),
      );
      return new TextDecoder().decode(plain);
    },
  };
}
