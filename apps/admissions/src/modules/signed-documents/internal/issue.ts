import type { Db } from "../../../db/client.ts";
import { newId } from "../../../lib/ids.ts";
import type { PaymentsDeps } from "../../payments/service.ts";
import type { ApplicationStatus } from "../../workflow/model.ts";
import type { DocumentKind } from "../model.ts";
import { type LetterContent, renderLetter } from "./pdf.ts";
import { findIssued, insertIssued, type SignedDocumentRow } from "./queries.ts";
import { type Signer, sign } from "./signer.ts";

export type SignedDocumentsDeps = {
  db: Db;
  now: () => number;
  signer: Signer;
  /** Printed on each document: where to check it. */
  verifyBaseUrl: string;
  payments: PaymentsDeps;
};

export type Issued = { row: SignedDocumentRow; bytes: Uint8Array };

/** Statuses whose offer a letter states (the offer stands, or was taken up). */
export const LETTER_STATUSES = new Set<ApplicationStatus>([
  "offered",
  "conditionally_offered",
  "accepted",
  "enrolled",
]);

const sha256Hex = (data: string | Uint8Array) =>
  new Bun.CryptoHasher("sha256").update(data).digest("hex");

export const dateOf = (iso: string) => iso.slice(0, 10);

type Subject = {
  kind: DocumentKind;
  applicationId: string;
  paymentId: string | null;
  ownerId: string;
};

/**
 * Hands out the document for `subject` that says `source`: the one issued before when nothing
 * it says has changed (so downloading twice gives the same signed bytes), else a new one. The
 * document's id and the way to check it are printed on it, and only then are the finished
 * bytes signed: the signature covers exactly the file handed out, and travels beside it
 * (stored here, and in the download's headers), never inside it.
 */
export async function issue(
  deps: SignedDocumentsDeps,
  subject: Subject,
  source: unknown,
  contentOf: (footer: string[], issuedAt: Date) => LetterContent,
): Promise<Issued> {
  const sourceHash = sha256Hex(JSON.stringify(source));
  const subjectId = subject.paymentId ?? subject.applicationId;
  const existing = await deps.db.run((sql) => findIssued(sql, subject.kind, subjectId, sourceHash));
  if (existing?.pdf_base64) {
    return { row: existing, bytes: new Uint8Array(Buffer.from(existing.pdf_base64, "base64")) };
  }
  const key = await deps.signer.current(deps.db);
  const id = newId();
  const issuedAt = new Date(deps.now());
  const footer = [
    `Verification id: ${id}`,
    `Signed with Ed25519 (key ${key.id}) over this file's exact bytes; any change breaks it.`,
    `Check it: upload this PDF (form field "file") to ${deps.verifyBaseUrl}/, or open`,
    `${deps.verifyBaseUrl}/${id}/?sha256=<the file's SHA-256>. Public keys: ${deps.verifyBaseUrl.replace(/verify$/, "keys")}/`,
  ];
  const bytes = await renderLetter(contentOf(footer, issuedAt));
  const row: SignedDocumentRow = {
    id,
    kind: subject.kind,
    application_id: subject.applicationId,
    payment_id: subject.paymentId,
    owner_id: subject.ownerId,
    sha256: sha256Hex(bytes),
    signature: await sign(key, bytes),
    key_id: key.id,
    source_hash: sourceHash,
    pdf_base64: Buffer.from(bytes).toString("base64"),
    created_at: issuedAt.toISOString(),
  };
  await deps.db.run((sql) => insertIssued(sql, row));
  return { row, bytes };
}

export function formatMoney(amount: number, currency: string): string {
  const format = new Intl.NumberFormat("en-GB", { style: "currency", currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
