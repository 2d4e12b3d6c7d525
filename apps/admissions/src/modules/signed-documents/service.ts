import type { Db } from "../../db/client.ts";
import { toIso } from "../../db/dialect.ts";
import { problem } from "../../problems.ts";
import { getReceipt } from "../payments/service.ts";
import type { User } from "../users/model.ts";
import { loadApplication, loadForViewer } from "../workflow/service.ts";
import {
  dateOf,
  formatMoney,
  issue,
  LETTER_STATUSES,
  type SignedDocumentsDeps,
} from "./internal/issue.ts";
import { findById, findBySha256, listKeys } from "./internal/queries.ts";
import { type Signer, verifySignature } from "./internal/signer.ts";
import { described, publicX, unknown } from "./internal/verify.ts";
import type { KeySet, Verification } from "./model.ts";

/*
 * Signed PDFs: offer letters and payment receipts, signed with Ed25519 over their exact bytes,
 * and the public checks of them (docs/admissions.md, "Signed letters and receipts").
 */

export type { Issued, SignedDocumentsDeps } from "./internal/issue.ts";
/** The key documents are signed with: built once by the app, checked at start, made by the CLI. */
export {
  generateSigningKey,
  importSigningKey,
  type Signer,
  signer,
} from "./internal/signer.ts";

/** The largest upload the public check reads: letters are a few KiB. */
export const MAX_VERIFY_BYTES = 2 * 1024 * 1024;

/**
 * The offer letter of an application (its applicant, staff; anyone else: 404). A reviewer of a
 * blind-review program gets the letter as they see the application, addressed to no one by
 * name: a letter of its own, since what it says differs (as a receipt's payer does).
 */
export async function offerLetter(deps: SignedDocumentsDeps, viewer: User, applicationId: string) {
  const application = await deps.db.run((sql) => loadForViewer(sql, applicationId, viewer));
  const offer = application.offer;
  if (!offer || !LETTER_STATUSES.has(application.status)) {
    throw problem("OFFER_LETTER_NOT_AVAILABLE", {
      detail: `An application that is ${application.status} has no offer letter`,
    });
  }
  const conditional = offer.conditions.length > 0;
  const source = {
    applicant: application.applicant.fullName,
    program: `${application.program.name} (${application.program.code})`,
    intake: application.intake.term,
    status: application.status,
    conditions: offer.conditions,
    respondBy: offer.respondBy,
  };
  return issue(
    deps,
    { kind: "offer_letter", applicationId, paymentId: null, ownerId: application.applicant.id },
    source,
    (footer, issuedAt) => ({
      title: conditional ? "Conditional offer of admission" : "Offer of admission",
      subject: `Offer of admission: ${source.program}, ${source.intake}`,
      facts: [
        ["Date", dateOf(issuedAt.toISOString())],
        ["Applicant", source.applicant],
        ["Application", application.id],
        ["Programme", source.program],
        ["Intake", source.intake],
        ["Respond by", `${source.respondBy.replace("T", " ").slice(0, 16)} UTC`],
      ],
      paragraphs: [
        `Dear ${source.applicant},`,
        `We are pleased to offer you a place on ${source.program} starting ${source.intake}${conditional ? ", subject to the conditions below" : ""}. Please accept or decline the offer in the admissions portal by the date above; an offer not answered by then lapses.`,
      ],
      ...(conditional
        ? { list: { heading: "Conditions of the offer", items: offer.conditions } }
        : {}),
      footer,
      issuedAt,
    }),
  );
}

/** The receipt of a successful payment (its applicant, staff; anyone else: 404). */
export async function paymentReceipt(deps: SignedDocumentsDeps, viewer: User, paymentId: string) {
  const receipt = await getReceipt(deps.payments, viewer, paymentId);
  const application = await deps.db.run((sql) => loadApplication(sql, receipt.applicationId));
  const ownerId = application?.applicant.id ?? viewer.id;
  return issue(
    deps,
    { kind: "payment_receipt", applicationId: receipt.applicationId, paymentId, ownerId },
    receipt,
    (footer, issuedAt) => ({
      title: `Receipt ${receipt.receiptNumber}`,
      subject: `Receipt ${receipt.receiptNumber}`,
      facts: [
        ["Date", dateOf(issuedAt.toISOString())],
        ["Received from", receipt.payer.name],
        ["For", `Application fee, ${receipt.program}, ${receipt.intake}`],
        ["Application", receipt.applicationId],
        ["Amount paid", formatMoney(receipt.amount.amount, receipt.amount.currency)],
        ...(receipt.refunded.amount > 0
          ? ([["Refunded", formatMoney(receipt.refunded.amount, receipt.refunded.currency)]] as [
              string,
              string,
            ][])
          : []),
        ["Paid", `${receipt.paidAt.replace("T", " ").slice(0, 16)} UTC`],
        ["Payment reference", receipt.reference],
        ["Paid through", receipt.provider],
      ],
      paragraphs: ["Thank you for your payment."],
      footer,
      issuedAt,
    }),
  );
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
