import type { SQL } from "bun";
import { toIso } from "../../../db/dialect.ts";
import { visibleApplication } from "../../applications/service.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { FeeSummary } from "../model.ts";
import { PROVIDERS } from "../model.ts";
import type { PaymentsDeps } from "./access.ts";
import { expireOverdueManual, feeStatusOf, pendingPayment } from "./ledger.ts";

/**
 * The fee's standing as the submission guard sees it, with the waiver if there is one. In a
 * transaction: expiring a reference writes its change-feed event with it.
 */
export async function feeSummary(
  sql: SQL,
  deps: Pick<PaymentsDeps, "providers" | "bankAccount">,
  viewer: User,
  applicationId: string,
  at: string,
): Promise<FeeSummary> {
  const facts = await visibleApplication(sql, applicationId, viewer);
  await expireOverdueManual(sql, applicationId, at);
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
    methods: PROVIDERS.filter((name) => deps.providers[name] !== undefined),
    bankAccount: deps.bankAccount,
  };
}
