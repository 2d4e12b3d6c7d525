import { HttpProblem, invalidField } from "@platform/server";
import { isUniqueViolation, toInt, toIso } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, toPage } from "../../lib/pagination.ts";
import { problem } from "../../problems.ts";
import { ownApplication, visibleApplication } from "../applications/service.ts";
import type { User } from "../users/model.ts";
import { type PaymentsDeps, present, presentOne, visiblePayment } from "./internal/access.ts";
import { settleOverdue, startAtProvider, syncWithProvider } from "./internal/checkout.ts";
import { expireOverdueManual, feeStatusOf, pendingPayment } from "./internal/ledger.ts";
import type { PaymentProvider } from "./internal/providers.ts";
import type { Payment, PaymentCreate, ProviderName } from "./model.ts";
import { findPayment, newReference, type PaymentRow } from "./queries.ts";

/*
 * The payments module's public face: the controller (index.ts), the app's wiring and the
 * other modules import from here and from model.ts only; internal/ is this module's own.
 */
export type { PaymentsDeps } from "./internal/access.ts";
export { feeLedger } from "./internal/ledger.ts";
export { manualProvider, type PaymentProvider } from "./internal/providers.ts";
export { getFee, getReceipt, refundPayment, settleManual, waiveFee } from "./internal/staff.ts";
export { STRIPE_API_VERSION, type StripeSettings, stripeProvider } from "./internal/stripe.ts";
export { receiveStripeEvent } from "./internal/webhook.ts";

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export function idempotencyKeyOf(header: string | undefined): string {
  if (header === undefined || header === "") {
    throw problem("IDEMPOTENCY_KEY_MISSING", {
      detail: "Send an Idempotency-Key header (e.g. a UUID) so a retried request cannot pay twice",
    });
  }
  if (!IDEMPOTENCY_KEY.test(header)) {
    throw new HttpProblem("BAD_REQUEST", {
      detail: "Idempotency-Key must be 1 to 255 visible ASCII characters",
    });
  }
  return header;
}

export function providerOf(deps: PaymentsDeps, name: ProviderName): PaymentProvider {
  const provider = deps.providers[name];
  if (!provider) throw invalidField("/body/provider", `${name} payments are not enabled here`);
  return provider;
}

type Created = { payment: Payment; replayed: boolean };

/**
 * Starts paying an application's fee. The Idempotency-Key is unique per payer in the database,
 * so of concurrent requests with one key exactly one inserts and the others read its payment;
 * the same key with a different request is refused (422). At most one payment per application
 * is pending (a unique partial index). The provider is called after the row is committed, with
 * its own idempotency key derived from the payment id, so a retry finishes what a failure left.
 */
export async function createPayment(
  deps: PaymentsDeps,
  actor: User,
  applicationId: string,
  body: PaymentCreate,
  key: string,
): Promise<Created> {
  const providerName = body.provider ?? deps.defaultProvider;
  const requestHash = new Bun.CryptoHasher("sha256")
    .update(JSON.stringify({ applicationId, provider: providerName }))
    .digest("hex");
  const replay = async (existing: PaymentRow): Promise<Created> => {
    if (existing.request_hash !== requestHash) {
      throw problem("IDEMPOTENCY_KEY_REUSED", {
        detail: "This Idempotency-Key was used for a different request; use a new key",
      });
    }
    return { payment: await startAtProvider(deps, existing, actor), replayed: true };
  };
  const byKey = () =>
    deps.db.run(
      async (sql) =>
        (
          (await sql`SELECT * FROM payments
          WHERE payer_id = ${actor.id} AND idempotency_key = ${key}`) as PaymentRow[]
        )[0],
    );

  const existing = await byKey();
  if (existing) return replay(existing);
  const provider = providerOf(deps, providerName);
  await settleOverdue(deps, applicationId);
  let inserted: { row: PaymentRow; fresh: boolean };
  try {
    inserted = await insertPayment(deps, actor, applicationId, provider, { key, requestHash });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await byKey();
    if (winner) return replay(winner);
    throw await pendingConflict(deps, applicationId);
  }
  if (!inserted.fresh) return replay(inserted.row);
  return { payment: await startAtProvider(deps, inserted.row, actor), replayed: false };
}

async function pendingConflict(deps: PaymentsDeps, applicationId: string) {
  const pending = await deps.db.run((sql) => pendingPayment(sql, applicationId));
  return problem("PAYMENT_PENDING", {
    detail: "A payment for this application is already pending; finish or wait for it",
    extensions: { paymentId: pending?.id ?? null },
  });
}

async function insertPayment(
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

export const listPayments = (
  deps: PaymentsDeps,
  viewer: User,
  applicationId: string,
  page: Page,
  requestUrl: string,
) =>
  // A transaction: expiring a reference writes its change-feed event with it.
  deps.db.transaction(async (sql) => {
    await visibleApplication(sql, applicationId, viewer);
    await expireOverdueManual(sql, applicationId, isoAt(deps.now()));
    const [total] = await sql`SELECT count(*) AS n FROM payments
      WHERE application_id = ${applicationId}`;
    const rows = (await sql`SELECT * FROM payments WHERE application_id = ${applicationId}
      ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`) as PaymentRow[];
    return toPage(requestUrl, page, toInt(total?.n ?? 0), await present(sql, deps, rows));
  });

/** One payment; a manual one past its expiry is shown (and stored) as expired. */
export const getPayment = (deps: PaymentsDeps, viewer: User, id: string) =>
  deps.db.transaction(async (sql) => {
    const row = await visiblePayment(sql, id, viewer);
    await expireOverdueManual(sql, row.application_id, isoAt(deps.now()));
    return presentOne(sql, deps, (await findPayment(sql, id)) ?? row);
  });

/**
 * For the page the applicant returns to from Checkout: asks the provider now instead of
 * waiting for the webhook (whichever comes first settles the payment; the other is a no-op).
 * A Stripe payment whose checkout could not be opened (the provider was down) is opened now.
 */
export async function refreshPayment(deps: PaymentsDeps, viewer: User, id: string) {
  const row = await deps.db.run((sql) => visiblePayment(sql, id, viewer));
  const unopened = row.provider === "stripe" && !row.checkout_session_id;
  if (unopened && row.status === "pending" && viewer.id === row.payer_id) {
    const due = Date.parse(toIso(row.expires_at)) <= deps.now();
    if (!due) return startAtProvider(deps, row, viewer);
  }
  if (row.provider !== "manual") await syncWithProvider(deps, row);
  return getPayment(deps, viewer, id);
}
