import { isUniqueViolation, toInt, toIso } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { visibleApplication } from "../../applications/service.ts";
import { isStaff, type User } from "../../users/model.ts";
import { BLIND_NAME, isBlindFor, recordAudit } from "../../workflow/service.ts";
import type { FeeSummary, Receipt, RefundBody } from "../model.ts";
import { findPayment, formatReceiptNumber, type PaymentRow } from "../queries.ts";
import { type PaymentsDeps, presentOne, visiblePayment } from "./access.ts";
import {
  canMove,
  expireOverdueManual,
  feeStatusOf,
  markClosed,
  markSucceeded,
  pendingPayment,
  recordPaymentEvent,
} from "./ledger.ts";

const illegal = (row: PaymentRow, action: string) =>
  problem("ILLEGAL_PAYMENT_TRANSITION", {
    detail: `A ${row.status} ${row.provider} payment cannot be ${action}`,
    extensions: { status: row.status, provider: row.provider },
  });

/**
 * Staff record what happened to a manual (bank transfer) payment: received (succeeded, with a
 * receipt) or not (failed). A reference past its expiry is expired first and cannot be
 * confirmed. Stripe payments are settled by Stripe alone.
 */
export async function settleManual(
  deps: PaymentsDeps,
  staff: User,
  paymentId: string,
  to: "succeeded" | "failed",
  reason: string | null,
  clientIp: string | null = null,
) {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const before = await visiblePayment(tx, paymentId, staff);
    await expireOverdueManual(tx, before.application_id, at);
    const row = (await findPayment(tx, paymentId)) ?? before;
    const action = to === "succeeded" ? "confirmed" : "marked failed";
    if (row.provider !== "manual" || !canMove(row.status, to)) throw illegal(row, action);
    const change = { at, decidedBy: staff.id, reason };
    const changed =
      to === "succeeded"
        ? await markSucceeded(tx, paymentId, change)
        : await markClosed(tx, paymentId, "failed", {
            ...change,
            reason: reason ?? "Not received",
          });
    if (!changed) throw illegal(row, action);
    await recordAudit(
      tx,
      { actor: staff, clientIp },
      {
        action: to === "succeeded" ? "payment.confirmed" : "payment.failed",
        applicationId: row.application_id,
        subject: { type: "payment", id: paymentId },
        details: { reason },
      },
      at,
    );
    return presentOne(tx, deps, (await findPayment(tx, paymentId)) ?? row);
  });
}

/**
 * Gives money back, never more than was paid (in total, over every refund). The amount is
 * reserved in the database first (a conditional UPDATE, so concurrent refunds cannot overdraw
 * together), then the provider is asked; if it refuses, the reservation is released.
 */
export async function refundPayment(
  deps: PaymentsDeps,
  staff: User,
  paymentId: string,
  body: RefundBody,
  clientIp: string | null = null,
) {
  const at = isoAt(deps.now());
  const reserved = await deps.db.transaction(async (tx) => {
    const row = await visiblePayment(tx, paymentId, staff);
    if (!canMove(row.status, "refunded")) throw illegal(row, "refunded");
    const left = toInt(row.amount) - toInt(row.amount_refunded);
    const amount = body.amount ?? left;
    const changed = await tx`UPDATE payments SET
        amount_refunded = amount_refunded + ${amount}, status = 'refunded', updated_at = ${at}
      WHERE id = ${paymentId} AND status IN ('succeeded', 'refunded')
        AND amount_refunded + ${amount} <= amount`;
    if (amount < 1 || amount > left || changed.count !== 1) {
      throw problem("REFUND_EXCEEDS_PAID", {
        detail: `At most ${left} (minor units) of this payment can still be refunded`,
        extensions: { refundable: { amount: left, currency: row.currency } },
      });
    }
    const refundId = newId();
    await tx`INSERT INTO payment_refunds ${tx({
      id: refundId,
      payment_id: paymentId,
      amount,
      reason: body.reason.trim(),
      status: "pending",
      provider_refund_id: null,
      refunded_by: staff.id,
      created_at: at,
      updated_at: at,
    })}`;
    await recordAudit(
      tx,
      { actor: staff, clientIp },
      {
        action: "payment.refunded",
        applicationId: row.application_id,
        subject: { type: "payment", id: paymentId },
        details: { amount, currency: row.currency, reason: body.reason.trim(), refundId },
      },
      at,
    );
    return { row, refundId, amount };
  });
  const provider = deps.providers[reserved.row.provider];
  try {
    if (!provider) throw problem("PAYMENT_PROVIDER_ERROR", { detail: "Provider not enabled" });
    const result = await provider.refund(
      { id: paymentId, providerPaymentId: reserved.row.provider_payment_id },
      reserved.amount,
      reserved.refundId,
    );
    const settledAt = isoAt(deps.now());
    await deps.db.transaction(async (tx) => {
      await tx`UPDATE payment_refunds SET status = ${result.settled ? "succeeded" : "pending"},
        provider_refund_id = ${result.refundId}, updated_at = ${settledAt}
        WHERE id = ${reserved.refundId}`;
      // Told once the provider took the refund, not when it was reserved: a refused one is undone.
      await recordPaymentEvent(tx, "payment.refunded", paymentId, settledAt, {
        refundId: reserved.refundId,
        refundAmount: reserved.amount,
        refundSettled: result.settled,
      });
    });
  } catch (error) {
    await deps.db.transaction(async (tx) => {
      await tx`UPDATE payment_refunds SET status = 'failed', updated_at = ${at}
        WHERE id = ${reserved.refundId}`;
      await tx`UPDATE payments SET amount_refunded = amount_refunded - ${reserved.amount},
          status = CASE WHEN amount_refunded - ${reserved.amount} = 0 THEN 'succeeded' ELSE 'refunded' END,
          updated_at = ${at}
        WHERE id = ${paymentId}`;
    });
    throw error;
  }
  return deps.db.run(async (sql) =>
    presentOne(sql, deps, await visiblePayment(sql, paymentId, staff)),
  );
}

/** The fee's standing as the submission guard sees it, with the waiver if there is one. */
export const getFee = (deps: PaymentsDeps, viewer: User, applicationId: string) =>
  // A transaction: expiring a reference writes its change-feed event with it.
  deps.db.transaction(async (sql): Promise<FeeSummary> => {
    const facts = await visibleApplication(sql, applicationId, viewer);
    await expireOverdueManual(sql, applicationId, isoAt(deps.now()));
    const [waiver] = await sql`SELECT * FROM fee_waivers WHERE application_id = ${applicationId}`;
    const pending = await pendingPayment(sql, applicationId);
    return {
      applicationId,
      fee: facts.fee,
      status: await feeStatusOf(sql, applicationId, facts.fee),
      waiver: waiver
        ? {
            reason: waiver.reason,
            waivedAt: toIso(waiver.created_at),
            waivedBy: isStaff(viewer.role) ? waiver.waived_by : null,
          }
        : null,
      pendingPaymentId: pending?.id ?? null,
    };
  });

/** Staff waive the fee, with a reason; not once it is paid, nor while a payment is pending. */
export async function waiveFee(
  deps: PaymentsDeps,
  staff: User,
  applicationId: string,
  reason: string,
  clientIp: string | null = null,
) {
  const at = isoAt(deps.now());
  try {
    await deps.db.transaction(async (tx) => {
      const facts = await visibleApplication(tx, applicationId, staff, {
        dialect: deps.db.dialect,
      });
      await expireOverdueManual(tx, applicationId, at);
      const fee = await feeStatusOf(tx, applicationId, facts.fee);
      if (fee === "not_required") throw problem("FEE_NOT_REQUIRED", { detail: "There is no fee" });
      if (fee === "paid") throw problem("FEE_ALREADY_PAID", { detail: "Refund it instead" });
      if (fee === "waived") throw problem("FEE_WAIVED", { detail: "The fee is already waived" });
      const pending = await pendingPayment(tx, applicationId);
      if (pending) {
        throw problem("PAYMENT_PENDING", {
          detail: "A payment is pending; settle it before waiving the fee",
          extensions: { paymentId: pending.id },
        });
      }
      await tx`INSERT INTO fee_waivers ${tx({
        application_id: applicationId,
        reason: reason.trim(),
        waived_by: staff.id,
        created_at: at,
      })}`;
      await recordAudit(
        tx,
        { actor: staff, clientIp },
        { action: "fee.waived", applicationId, details: { reason: reason.trim() } },
        at,
      );
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw problem("FEE_WAIVED", { detail: "The fee is already waived" });
  }
  return getFee(deps, staff, applicationId);
}

/** The receipt of a payment that went through (refunded ones keep theirs). */
export const getReceipt = (deps: PaymentsDeps, viewer: User, paymentId: string) =>
  deps.db.run(async (sql): Promise<Receipt> => {
    const row = await visiblePayment(sql, paymentId, viewer);
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
  });
