import { toInt, toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { visibleApplication } from "../../applications/service.ts";
import type { User } from "../../users/model.ts";
import { findPayment, type PaymentRow } from "../queries.ts";
import type { PaymentsDeps } from "./access.ts";
import { presentOne } from "./access.ts";
import { expireOverdueManual, markClosed, pendingPayment } from "./ledger.ts";
import { applySessionState } from "./sessions.ts";

/** Opens the provider's checkout for a pending payment that has none yet (idempotent). */
export async function startAtProvider(deps: PaymentsDeps, row: PaymentRow, actor: User) {
  const provider = deps.providers[row.provider];
  if (row.status === "pending" && !row.checkout_session_id && provider) {
    const facts = await deps.db.run((sql) => visibleApplication(sql, row.application_id, actor));
    // Outside any database work: on SQLite that would hold every other request meanwhile.
    const checkout = await provider.begin({
      paymentId: row.id,
      applicationId: row.application_id,
      reference: row.reference,
      amount: toInt(row.amount),
      currency: row.currency,
      description: `Application fee: ${facts.programCode}, ${facts.intakeTerm}`,
      customerEmail: actor.email,
      expiresAtMs: Date.parse(toIso(row.expires_at)),
    });
    if (checkout) {
      await deps.db.run(
        (sql) => sql`UPDATE payments SET checkout_session_id = ${checkout.sessionId},
            checkout_url = ${checkout.url}, updated_at = ${isoAt(deps.now())}
          WHERE id = ${row.id} AND checkout_session_id IS NULL`,
      );
    }
  }
  return deps.db.run(async (sql) => presentOne(sql, deps, (await findPayment(sql, row.id)) ?? row));
}

/**
 * Frees the application for a new payment when the pending one is past its time: a manual
 * reference simply expires; a Stripe session is asked about (it may have been paid at the
 * last minute), and one that never reached Stripe expires.
 */
export async function settleOverdue(deps: PaymentsDeps, applicationId: string) {
  const at = isoAt(deps.now());
  const pending = await deps.db.transaction(async (tx) => {
    await expireOverdueManual(tx, applicationId, at);
    return pendingPayment(tx, applicationId);
  });
  if (!pending || Date.parse(toIso(pending.expires_at)) > deps.now()) return;
  await syncWithProvider(deps, pending);
}

/** Asks the provider how a pending payment stands and applies the answer. */
export async function syncWithProvider(deps: PaymentsDeps, row: PaymentRow): Promise<void> {
  if (row.status !== "pending") return;
  const provider = deps.providers[row.provider];
  const at = isoAt(deps.now());
  if (row.provider === "stripe" && !row.checkout_session_id) {
    if (Date.parse(toIso(row.expires_at)) <= deps.now()) {
      await deps.db.transaction((tx) =>
        markClosed(tx, row.id, "expired", { at, reason: "Checkout was never opened" }),
      );
    }
    return;
  }
  const state =
    provider && row.checkout_session_id ? await provider.lookup(row.checkout_session_id) : null;
  if (!state) return;
  await deps.db.transaction((tx) => applySessionState(tx, deps.logger, row.id, state, at));
}
