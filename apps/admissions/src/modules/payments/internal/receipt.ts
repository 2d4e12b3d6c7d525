import type { SQL } from "bun";
import { toInt, toIso } from "../../../db/dialect.ts";
import { problem } from "../../../problems.ts";
import { visibleApplication } from "../../applications/service.ts";
import type { User } from "../../users/model.ts";
import { BLIND_NAME, isBlindFor } from "../../workflow/service.ts";
import type { Receipt } from "../model.ts";
import { formatReceiptNumber, type PaymentRow } from "./queries.ts";

/** The receipt of a payment that went through (refunded ones keep theirs); 409 otherwise. */
export async function receiptOf(sql: SQL, row: PaymentRow, viewer: User): Promise<Receipt> {
  if (row.receipt_number === null || row.paid_at === null) {
    throw problem("RECEIPT_NOT_AVAILABLE", {
      detail: `A ${row.status} payment has no receipt; receipts come with a successful payment`,
    });
  }
  const facts = await visibleApplication(sql, row.application_id, viewer);
  const [payer] = await sql`SELECT full_name, email FROM users WHERE id = ${row.payer_id}`;
  const money = (amount: number) => ({ amount: Number(amount), currency: row.currency });
  const sequence = toInt(row.receipt_number);
  return {
    receiptNumber: formatReceiptNumber(sequence),
    sequence,
    paymentId: row.id,
    reference: row.reference,
    applicationId: row.application_id,
    program: facts.programCode,
    intake: facts.intakeTerm,
    // A reviewer on a blind-review program does not learn who paid (the applicant).
    payer: (await isBlindFor(sql, viewer, row.application_id))
      ? { name: BLIND_NAME, email: "" }
      : { name: payer?.full_name ?? "", email: payer?.email ?? "" },
    amount: money(row.amount),
    refunded: money(row.amount_refunded),
    provider: row.provider,
    paidAt: toIso(row.paid_at),
  };
}
