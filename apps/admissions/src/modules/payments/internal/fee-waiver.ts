import type { SQL } from "bun";
import type { Dialect } from "../../../db/dialect.ts";
import { problem } from "../../../problems.ts";
import { visibleApplication } from "../../applications/service.ts";
import type { User } from "../../users/model.ts";
import { expireOverdueManual, feeStatusOf, pendingPayment } from "./ledger.ts";

/**
 * The waiver of an application's fee, with its reason: not once the fee is paid, nor while a
 * payment is pending (409). The application is locked while the fee is read.
 */
export async function recordWaiver(
  tx: SQL,
  dialect: Dialect,
  staff: User,
  applicationId: string,
  reason: string,
  at: string,
): Promise<void> {
  const facts = await visibleApplication(tx, applicationId, staff, { dialect });
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
    reason,
    waived_by: staff.id,
    created_at: at,
  })}`;
}
