import type { Db } from "../../../db/client.ts";
import { toIso } from "../../../db/dialect.ts";
import type { Verification } from "../model.ts";
import { findKey, type SignedDocumentRow } from "./queries.ts";

export const unknown: Verification = { valid: false, outcome: "unknown_document", document: null };

export const described = (row: SignedDocumentRow): Verification => ({
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

export async function publicX(db: Db, keyId: string): Promise<string | null> {
  const key = await db.run((sql) => findKey(sql, keyId));
  return key ? ((JSON.parse(key.public_jwk) as { x?: string }).x ?? null) : null;
}
