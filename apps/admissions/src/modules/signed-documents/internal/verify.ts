import type { Db } from "../../../db/client.ts";
import { toIso } from "../../../db/dialect.ts";
import type { KeySet, Verification } from "../model.ts";
import { findById, findBySha256, findKey, listKeys, type SignedDocumentRow } from "../queries.ts";
import type { Signer } from "./signer.ts";
import { verifySignature } from "./signer.ts";

const unknown: Verification = { valid: false, outcome: "unknown_document", document: null };

const described = (row: SignedDocumentRow): Verification => ({
  valid: true,
  outcome: "valid",
  document: {
    id: row.id,
    kind: row.kind,
    issuedAt: toIso(row.created_at),
    sha256: row.sha256,
    signature: row.signature,
    keyId: row.key_id,
  },
});

async function publicX(db: Db, keyId: string): Promise<string | null> {
  const key = await db.run((sql) => findKey(sql, keyId));
  return key ? ((JSON.parse(key.public_jwk) as { x?: string }).x ?? null) : null;
}

/**
 * A PDF as uploaded: known by its SHA-256, and its recorded signature checked over these very
 * bytes with the public key that made it (kept after a key change, so old documents verify).
 * Nothing about a document is said unless the bytes are exactly its bytes.
 */
export async function verifyBytes(db: Db, bytes: Uint8Array): Promise<Verification> {
  const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  const row = await db.run((sql) => findBySha256(sql, sha256));
  if (!row) return unknown;
  const x = await publicX(db, row.key_id);
  if (!x || !(await verifySignature(x, row.signature, bytes))) {
    return { valid: false, outcome: "signature_invalid", document: null };
  }
  return described(row);
}

/**
 * A document by the id printed on it and the SHA-256 of the file in hand. Where its bytes are
 * still kept, the signature is checked over them too; after an erasure deleted them, the
 * recorded hash and signature are what is left (the signature can be checked offline against
 * the file with the published key).
 */
export async function verifyById(db: Db, id: string, sha256: string): Promise<Verification> {
  const row = await db.run((sql) => findById(sql, id));
  if (!row) return unknown;
  if (row.sha256 !== sha256) return { valid: false, outcome: "hash_mismatch", document: null };
  if (row.pdf_base64) {
    const x = await publicX(db, row.key_id);
    const bytes = new Uint8Array(Buffer.from(row.pdf_base64, "base64"));
    if (!x || !(await verifySignature(x, row.signature, bytes))) {
      return { valid: false, outcome: "signature_invalid", document: null };
    }
  }
  return described(row);
}

/** Every public key documents were signed with, the current one marked. */
export async function publicKeys(db: Db, signer: Signer): Promise<KeySet> {
  const current = await signer.current(db);
  const rows = await db.run(listKeys);
  return {
    keys: rows.map((row) => {
      const { x = "" } = JSON.parse(row.public_jwk) as { x?: string };
      return {
        kty: "OKP" as const,
        crv: "Ed25519" as const,
        x,
        kid: row.id,
        use: "sig" as const,
        alg: "EdDSA" as const,
        current: row.id === current.id,
        createdAt: toIso(row.created_at),
      };
    }),
  };
}
