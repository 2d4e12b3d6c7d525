import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import type { FeeLedger, FeeStatus } from "../../applications/service.ts";
import type { Program } from "../../catalog/model.ts";
import type { EventType } from "../../events/model.ts";
import { recordEvent } from "../../events/service.ts";
import type { PaymentStatus } from "../model.ts";
import type { PaymentRow } from "./queries.ts";

/**
 * Every change of a payment's status goes through here, as a conditional UPDATE (`WHERE status
 * = <expected>`): of two concurrent changes (a webhook and a reconciliation, say) exactly one
 * applies and the other sees 0 rows changed. The table of moves below is the whole lifecycle.
 */
export const PAYMENT_MOVES: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ["succeeded", "failed", "expired"],
  succeeded: ["refunded"],
  refunded: ["refunded"],
  failed: [],
  expired: [],
};

export const canMove = (from: PaymentStatus, to: PaymentStatus) => PAYMENT_MOVES[from].includes(to);

/**
 * The change feed's event for a payment that just changed, in the change's transaction: ids,
 * status and amount only (webhooks and the feed carry no personal data).
 */
export async function recordPaymentEvent(
  tx: SQL,
  type: EventType & `payment.${string}`,
  paymentId: string,
  at: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const [row] = (await tx`SELECT application_id, status, provider, amount, currency
    FROM payments WHERE id = ${paymentId}`) as PaymentRow[];
  if (!row) return;
  await recordEvent(
    tx,
    {
      type,
      applicationId: row.application_id,
      subject: { type: "payment", id: paymentId },
      data: {
        status: row.status,
        provider: row.provider,
        amount: toInt(row.amount),
        currency: row.currency,
        ...extra,
      },
    },
    at,
  );
}

/** The next receipt number, in the caller's transaction: unique and without gaps. */
async function nextReceiptNumber(tx: SQL): Promise<number> {
  const [row] = await tx`UPDATE receipt_counter SET last_value = last_value + 1
    WHERE name = 'receipts' RETURNING last_value`;
  if (!row) throw new Error("receipt_counter row is missing");
  return toInt(row.last_value);
}

/**
 * pending → succeeded, with a receipt number. Returns false when the payment was not pending
 * (already settled by someone else): nothing changes and no number is used.
 */
export async function markSucceeded(
  tx: SQL,
  paymentId: string,
  change: {
    at: string;
    providerPaymentId?: string | null;
    sessionId?: string | null;
    decidedBy?: string | null;
    reason?: string | null;
    /** What staff saw arrive for a bank transfer (minor units). */
    received?: number | null;
  },
): Promise<boolean> {
  const result = await tx`UPDATE payments SET
      status = 'succeeded', paid_at = ${change.at}, updated_at = ${change.at},
      amount_received = ${change.received ?? null},
      provider_payment_id = COALESCE(${change.providerPaymentId ?? null}, provider_payment_id),
      checkout_session_id = COALESCE(checkout_session_id, ${change.sessionId ?? null}),
      decided_by = ${change.decidedBy ?? null}, status_reason = ${change.reason ?? null}
    WHERE id = ${paymentId} AND status = 'pending'`;
  if (result.count !== 1) return false;
  const receipt = await nextReceiptNumber(tx);
  await tx`UPDATE payments SET receipt_number = ${receipt} WHERE id = ${paymentId}`;
  await recordPaymentEvent(tx, "payment.succeeded", paymentId, change.at);
  return true;
}

/** pending → failed or expired; false when it was not pending. */
export async function markClosed(
  tx: SQL,
  paymentId: string,
  to: "failed" | "expired",
  change: { at: string; reason: string; decidedBy?: string | null },
): Promise<boolean> {
  const result = await tx`UPDATE payments SET status = ${to}, status_reason = ${change.reason},
      decided_by = ${change.decidedBy ?? null}, updated_at = ${change.at}
    WHERE id = ${paymentId} AND status = 'pending'`;
  if (result.count !== 1) return false;
  await recordPaymentEvent(
    tx,
    to === "failed" ? "payment.failed" : "payment.expired",
    paymentId,
    change.at,
  );
  return true;
}

/**
 * Manual references past their expiry time become expired (they could not be confirmed): an
 * application's, or (`applicationId` null, for the payments desk) every one.
 */
export async function expireOverdueManual(tx: SQL, applicationId: string | null, at: string) {
  const which = applicationId === null ? tx`1 = 1` : tx`application_id = ${applicationId}`;
  const expired = (await tx`UPDATE payments SET status = 'expired',
      status_reason = 'The payment reference expired', updated_at = ${at}
    WHERE ${which} AND provider = 'manual' AND status = 'pending'
      AND expires_at <= ${at} RETURNING id`) as { id: string }[];
  for (const { id } of expired) await recordPaymentEvent(tx, "payment.expired", id, at);
}

export async function pendingPayment(tx: SQL, applicationId: string): Promise<PaymentRow | null> {
  const [row] = (await tx`SELECT * FROM payments
    WHERE application_id = ${applicationId} AND status = 'pending'`) as PaymentRow[];
  return row ?? null;
}

/**
 * Paid: a payment succeeded and was not refunded in full (a partial refund keeps the fee paid:
 * staff chose to give some back, not to cancel it). A fully refunded fee is unpaid again.
 */
export async function feeStatusOf(
  sql: SQL,
  applicationId: string,
  fee: Program["applicationFee"],
): Promise<FeeStatus> {
  if (fee.amount === 0) return "not_required";
  const [waiver] = await sql`SELECT 1 AS waived FROM fee_waivers
    WHERE application_id = ${applicationId}`;
  if (waiver) return "waived";
  const [paid] = await sql`SELECT 1 AS paid FROM payments
    WHERE application_id = ${applicationId}
      AND (status = 'succeeded' OR (status = 'refunded' AND amount_refunded < amount))`;
  return paid ? "paid" : "unpaid";
}

/** The submission guard's view of the fee. */
export const feeLedger: FeeLedger = { feeStatus: feeStatusOf };
