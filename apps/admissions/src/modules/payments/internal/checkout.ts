import { invalidField } from "@platform/server";
import { toInt, toIso } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { ownApplication, visibleApplication } from "../../applications/service.ts";
import type { User } from "../../users/model.ts";
import type { ProviderName } from "../model.ts";
import type { PaymentsDeps } from "./access.ts";
import { presentOne } from "./access.ts";
import { expireOverdueManual, feeStatusOf, markClosed, pendingPayment } from "./ledger.ts";
import type { PaymentProvider } from "./providers.ts";
import { findPayment, newReference, type PaymentRow } from "./queries.ts";
import { applySessionState } from "./sessions.ts";

/* Paying the fee: the payment row, the provider's checkout, and asking the provider after. */

export function providerOf(deps: PaymentsDeps, name: ProviderName): PaymentProvider {
  const provider = deps.providers[name];
  if (!provider)
    throw invalidField("/body/provider", `${name} payments are not enabled here`, "notAllowed");
  return provider;
}

export async function pendingConflict(deps: PaymentsDeps, applicationId: string) {
  const pending = await deps.db.run((sql) => pendingPayment(sql, applicationId));
  return problem("PAYMENT_PENDING", {
    detail: "A payment for this application is already pending; finish or wait for it",
    extensions: { paymentId: pending?.id ?? null },
  });
}

export async function insertPayment(
  deps: PaymentsDeps,
  actor: User,
  applicationId: string,
  provider: PaymentProvider,
  idempotency: { key: string; requestHash: string },
): Promise<{ row: PaymentRow; fresh: boolean }> {
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  return deps.db.transaction(async (tx) => {
    const facts = await ownApplication(tx, applicationId, actor, { dialect: deps.db.dialect });
    // With the application locked, a concurrent request with this key may have committed while
    // we waited: its payment is the answer (checked before the fee, which it may have changed).
    const [earlier] = (await tx`SELECT * FROM payments
      WHERE payer_id = ${actor.id} AND idempotency_key = ${idempotency.key}`) as PaymentRow[];
    if (earlier) return { row: earlier, fresh: false };
    if (facts.status !== "draft") {
      throw problem("APPLICATION_NOT_EDITABLE", {
        detail: `The application is ${facts.status}; the fee is paid before submitting`,
      });
    }
    const fee = await feeStatusOf(tx, applicationId, facts.fee);
    if (fee === "not_required") {
      throw problem("FEE_NOT_REQUIRED", { detail: "This program charges no application fee" });
    }
    if (fee === "waived") throw problem("FEE_WAIVED", { detail: "The fee was waived" });
    if (fee === "paid") throw problem("FEE_ALREADY_PAID", { detail: "The fee is already paid" });
    const pending = await pendingPayment(tx, applicationId);
    if (pending) {
      throw problem("PAYMENT_PENDING", {
        detail: "A payment for this application is already pending; finish or wait for it",
        extensions: { paymentId: pending.id },
      });
    }
    const ttl = provider.name === "manual" ? deps.manualTtlMs : deps.checkoutTtlMs;
    const row: PaymentRow = {
      id: newId(),
      application_id: applicationId,
      payer_id: actor.id,
      provider: provider.name,
      status: "pending",
      amount: facts.fee.amount,
      currency: facts.fee.currency,
      amount_refunded: 0,
      amount_received: null,
      reference: newReference(),
      idempotency_key: idempotency.key,
      request_hash: idempotency.requestHash,
      checkout_session_id: null,
      checkout_url: null,
      provider_payment_id: null,
      receipt_number: null,
      status_reason: null,
      decided_by: null,
      expires_at: isoAt(nowMs + ttl),
      paid_at: null,
      created_at: at,
      updated_at: at,
    };
    await tx`INSERT INTO payments ${tx(row)}`;
    return { row, fresh: true };
  });
}

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
