import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { RefundBody } from "../model.ts";
import type { PaymentsDeps } from "./access.ts";
import { recordPaymentEvent } from "./ledger.ts";
import type { PaymentRow } from "./queries.ts";

/*
 * Refunds: never more than was paid (in total, over every refund). The amount is reserved in
 * the database first (a conditional UPDATE, so concurrent refunds cannot overdraw together),
 * then the provider is asked; if it refuses, the reservation is released.
 */

export type Reserved = { row: PaymentRow; refundId: string; amount: number };

/** The amount reserved on the payment, and the refund row, pending (409 past what is left). */
export async function reserveRefund(
  tx: SQL,
  row: PaymentRow,
  body: RefundBody,
  refundedBy: string,
  at: string,
): Promise<Reserved> {
  const left = toInt(row.amount) - toInt(row.amount_refunded);
  const amount = body.amount ?? left;
  const changed = await tx`UPDATE payments SET
      amount_refunded = amount_refunded + ${amount}, status = 'refunded', updated_at = ${at}
    WHERE id = ${row.id} AND status IN ('succeeded', 'refunded')
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
    payment_id: row.id,
    amount,
    reason: body.reason.trim(),
    status: "pending",
    provider_refund_id: null,
    refunded_by: refundedBy,
    created_at: at,
    updated_at: at,
  })}`;
  return { row, refundId, amount };
}

/** The provider gives the reserved amount back; on a refusal the reservation is undone. */
export async function refundAtProvider(deps: PaymentsDeps, reserved: Reserved, at: string) {
  const paymentId = reserved.row.id;
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
}
