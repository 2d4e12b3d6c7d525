import type { SQL } from "bun";
import type { DocumentKind } from "../model.ts";

export type SignedDocumentRow = {
  id: string;
  kind: DocumentKind;
  application_id: string;
  payment_id: string | null;
  owner_id: string;
  sha256: string;
  signature: string;
  key_id: string;
  source_hash: string;
  pdf_base64: string | null;
  created_at: unknown;
};

/** The document already issued for the same subject saying the same thing, if any. */
export async function findIssued(
  sql: SQL,
  kind: DocumentKind,
  subjectId: string,
  sourceHash: string,
): Promise<SignedDocumentRow | null> {
  const subject =
    kind === "offer_letter" ? sql`application_id = ${subjectId}` : sql`payment_id = ${subjectId}`;
  const [row] = (await sql`SELECT * FROM signed_documents
    WHERE kind = ${kind} AND ${subject} AND source_hash = ${sourceHash}
      AND pdf_base64 IS NOT NULL
    ORDER BY created_at DESC, id DESC LIMIT 1`) as SignedDocumentRow[];
  return row ?? null;
}

export async function insertIssued(sql: SQL, row: SignedDocumentRow): Promise<void> {
  await sql`INSERT INTO signed_documents ${sql(row)}`;
}

export async function findById(sql: SQL, id: string): Promise<SignedDocumentRow | null> {
  const [row] = (await sql`SELECT * FROM signed_documents WHERE id = ${id}`) as SignedDocumentRow[];
  return row ?? null;
}

export async function findBySha256(sql: SQL, sha256: string): Promise<SignedDocumentRow | null> {
  const [row] = (await sql`SELECT * FROM signed_documents WHERE sha256 = ${sha256}
    ORDER BY created_at, id LIMIT 1`) as SignedDocumentRow[];
  return row ?? null;
}

export type KeyRow = { id: string; public_jwk: string; created_at: unknown };

export const listKeys = async (sql: SQL) =>
  (await sql`SELECT * FROM signing_keys ORDER BY created_at, id`) as KeyRow[];

export async function findKey(sql: SQL, id: string): Promise<KeyRow | null> {
  const [row] = (await sql`SELECT * FROM signing_keys WHERE id = ${id}`) as KeyRow[];
  return row ?? null;
}
