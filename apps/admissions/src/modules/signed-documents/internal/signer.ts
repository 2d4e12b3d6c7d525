import type { Logger } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";

/**
 * The Ed25519 key documents are signed with (WebCrypto, which Bun implements). Configured as
 * PKCS#8 in base64 (ADMISSIONS_SIGNING_KEY); without one, a key is made when first needed and
 * lives as long as the process, with a warning: its public half is recorded in `signing_keys`
 * like any other, so what it signed still verifies after a restart.
 */
export type Signer = {
  /** The key, its public half recorded (once per process). */
  current(db: Db): Promise<SigningKey>;
};

export type SigningKey = { id: string; privateKey: CryptoKey; x: string };

const ED25519 = { name: "Ed25519" } as const;

export const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString("base64url");

/** RFC 7638: SHA-256 over the required members in lexical order, base64url. */
export const thumbprintOf = (x: string) =>
  base64url(
    new Bun.CryptoHasher("sha256")
      .update(JSON.stringify({ crv: "Ed25519", kty: "OKP", x }))
      .digest(),
  );

/** A PKCS#8 Ed25519 key from base64; throws (naming nothing secret) when it is not one. */
export async function importSigningKey(pkcs8Base64: string): Promise<SigningKey> {
  const der = Buffer.from(pkcs8Base64, "base64");
  const privateKey = await crypto.subtle.importKey("pkcs8", der, ED25519, true, ["sign"]);
  const { x } = await crypto.subtle.exportKey("jwk", privateKey);
  if (!x) throw new Error("ADMISSIONS_SIGNING_KEY: not an Ed25519 private key");
  return { id: thumbprintOf(x), privateKey, x };
}

/** A new key as PKCS#8 base64: what `ADMISSIONS_SIGNING_KEY` takes. */
export async function generateSigningKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  return Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64");
}

export function signer(pkcs8Base64: string | null, logger: Logger, now: () => number): Signer {
  let ready: Promise<SigningKey> | null = null;
  const load = async (db: Db) => {
    let key: SigningKey;
    if (pkcs8Base64) {
      key = await importSigningKey(pkcs8Base64);
    } else {
      key = await importSigningKey(await generateSigningKey());
      logger.warn(
        "ADMISSIONS_SIGNING_KEY is not set: signing documents with a key made for this process only (set one so verifiers can pin it)",
        { keyId: key.id },
      );
    }
    const jwk = JSON.stringify({ kty: "OKP", crv: "Ed25519", x: key.x });
    await db.run(
      (sql) => sql`INSERT INTO signing_keys (id, public_jwk, created_at)
      VALUES (${key.id}, ${jwk}, ${isoAt(now())}) ON CONFLICT (id) DO NOTHING`,
    );
    return key;
  };
  return {
    current(db) {
      ready ??= load(db).catch((error: unknown) => {
        ready = null;
        throw error;
      });
      return ready;
    },
  };
}

export async function sign(key: SigningKey, bytes: Uint8Array): Promise<string> {
  return base64url(await crypto.subtle.sign(ED25519, key.privateKey, new Uint8Array(bytes)));
}

/** False for a malformed key or signature as for a wrong one. */
export async function verifySignature(
  x: string,
  signature: string,
  bytes: Uint8Array,
): Promise<boolean> {
  try {
    const publicKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "OKP", crv: "Ed25519", x },
      ED25519,
      false,
      ["verify"],
    );
    return await crypto.subtle.verify(
      ED25519,
      publicKey,
      Buffer.from(signature, "base64url"),
      new Uint8Array(bytes),
    );
  } catch {
    return false;
  }
}
