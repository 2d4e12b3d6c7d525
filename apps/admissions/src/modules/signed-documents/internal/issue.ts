import type { Db } from "../../../db/client.ts";
import { newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { getReceipt, type PaymentsDeps } from "../../payments/service.ts";
import type { User } from "../../users/model.ts";
import type { ApplicationStatus } from "../../workflow/model.ts";
import { loadApplication, loadForViewer } from "../../workflow/service.ts";
import type { DocumentKind } from "../model.ts";
import { findIssued, insertIssued, type SignedDocumentRow } from "../queries.ts";
import { type LetterContent, renderLetter } from "./pdf.ts";
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
const LETTER_STATUSES = new Set<ApplicationStatus>([
  "offered",
  "conditionally_offered",
  "accepted",
  "enrolled",
]);

const sha256Hex = (data: string | Uint8Array) =>
  new Bun.CryptoHasher("sha256").update(data).digest("hex");

const dateOf = (iso: string) => iso.slice(0, 10);

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
async function issue(
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

function formatMoney(amount: number, currency: string): string {
  const format = new Intl.NumberFormat("en-GB", { style: "currency", currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
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
