import { HttpProblem, type Logger } from "@platform/server";
import { isUniqueViolation, toInt, toIso } from "../../db/dialect.ts";
import { isoAt } from "../../lib/ids.ts";
import { type Page, toPage } from "../../lib/pagination.ts";
import { problem } from "../../problems.ts";
import { type FeeLedger, visibleApplication } from "../applications/service.ts";
import type { User } from "../users/model.ts";
import { recordAudit } from "../workflow/service.ts";
import { type PaymentsDeps, present, presentOne, visiblePayment } from "./internal/access.ts";
import {
  insertPayment,
  pendingConflict,
  providerOf,
  settleOverdue,
  startAtProvider,
  syncWithProvider,
} from "./internal/checkout.ts";
import { deskRows, toDeskPayment } from "./internal/desk.ts";
import { feeSummary } from "./internal/fee.ts";
import { recordWaiver } from "./internal/fee-waiver.ts";
import {
  canMove,
  expireOverdueManual,
  feeStatusOf,
  markClosed,
  markSucceeded,
} from "./internal/ledger.ts";
import { manualProvider, type PaymentProvider } from "./internal/providers.ts";
import { findPayment, type PaymentRow } from "./internal/queries.ts";
import { receiptOf } from "./internal/receipt.ts";
import { refundAtProvider, reserveRefund } from "./internal/refunds.ts";
import { applySessionState } from "./internal/sessions.ts";
import { type StripeSettings, sessionStateOf, stripeProvider } from "./internal/stripe.ts";
import { verifiedEvent } from "./internal/webhook.ts";
import type {
  DeskQuery,
  FeeSummary,
  Payment,
  PaymentCreate,
  ProviderName,
  Receipt,
  RefundBody,
} from "./model.ts";

/*
 * An application's fee and its payments: paying it (manually, by bank transfer, or through
 * Stripe Checkout), staff settling and refunding payments, waiving the fee, the receipt, and
 * the Stripe webhook. The lifecycle of a payment is internal/ledger.ts.
 */

export type { PaymentsDeps, StripeSettings };

/** The providers a deployment collects with: manual always, Stripe when configured. */
export function paymentProviders(
  stripe: StripeSettings | null,
  logger: Logger,
  fetchImpl?: typeof fetch,
): Partial<Record<ProviderName, PaymentProvider>> {
  const providers: Partial<Record<ProviderName, PaymentProvider>> = { manual: manualProvider };
  if (stripe) providers.stripe = stripeProvider(stripe, logger, fetchImpl);
  return providers;
}

/** The submission guard's view of the fee. */
export const feeLedger: FeeLedger = { feeStatus: feeStatusOf };

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

/**
 * The payments desk (admins): payments with their applications, filtered and paged. References
 * past their expiry are expired first, so the desk never offers one that cannot be confirmed.
 */
export const listDesk = (deps: PaymentsDeps, query: DeskQuery, page: Page, requestUrl: string) =>
  deps.db.transaction(async (sql) => {
    await expireOverdueManual(sql, null, isoAt(deps.now()));
    const { total, rows } = await deskRows(sql, query, page);
    const payments = await present(sql, deps, rows);
    return toPage(
      requestUrl,
      page,
      total,
      rows.map((row, i) => toDeskPayment(row, payments[i] as Payment)),
    );
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

const illegal = (row: PaymentRow, action: string) =>
  problem("ILLEGAL_PAYMENT_TRANSITION", {
    detail: `A ${row.status} ${row.provider} payment cannot be ${action}`,
    extensions: { status: row.status, provider: row.provider },
  });

/** What staff record of a bank transfer: it arrived (with what came in, if they say) or not. */
export type Settlement =
  | { to: "succeeded"; note: string | null; received: number | null }
  | { to: "failed"; reason: string };

/** Less than the amount due is not a payment of the fee: refused, nothing changes. */
function assertEnough(row: PaymentRow, received: number | null) {
  const due = toInt(row.amount);
  if (received === null || received >= due) return;
  const money = (amount: number) => ({ amount, currency: row.currency });
  throw problem("PAYMENT_SHORT", {
    detail: `${received} received of ${due} due (minor units, ${row.currency}): confirm once the rest has arrived, or record the payment as failed`,
    extensions: { expected: money(due), received: money(received), shortBy: money(due - received) },
  });
}

/**
 * Staff record what happened to a manual (bank transfer) payment: received (succeeded, with a
 * receipt; what arrived, when given, must cover the amount, and a surplus is kept as
 * `received`) or not (failed). A reference past its expiry is expired first and cannot be
 * confirmed. Stripe payments are settled by Stripe alone.
 */
export async function settleManual(
  deps: PaymentsDeps,
  staff: User,
  paymentId: string,
  settlement: Settlement,
  clientIp: string | null = null,
) {
  const at = isoAt(deps.now());
  const { to } = settlement;
  return deps.db.transaction(async (tx) => {
    const before = await visiblePayment(tx, paymentId, staff);
    await expireOverdueManual(tx, before.application_id, at);
    const row = (await findPayment(tx, paymentId)) ?? before;
    const action = to === "succeeded" ? "confirmed" : "marked failed";
    if (row.provider !== "manual" || !canMove(row.status, to)) throw illegal(row, action);
    const change = { at, decidedBy: staff.id };
    let details: Record<string, unknown>;
    let changed: boolean;
    if (settlement.to === "succeeded") {
      assertEnough(row, settlement.received);
      const { note: reason, received } = settlement;
      changed = await markSucceeded(tx, paymentId, { ...change, reason, received });
      const surplus = received === null ? 0 : received - toInt(row.amount);
      details = { reason, ...(received === null ? {} : { received, overpaid: surplus }) };
    } else {
      changed = await markClosed(tx, paymentId, "failed", { ...change, reason: settlement.reason });
      details = { reason: settlement.reason };
    }
    if (!changed) throw illegal(row, action);
    await recordAudit(
      tx,
      { actor: staff, clientIp },
      {
        action: to === "succeeded" ? "payment.confirmed" : "payment.failed",
        applicationId: row.application_id,
        subject: { type: "payment", id: paymentId },
        details,
      },
      at,
    );
    return presentOne(tx, deps, (await findPayment(tx, paymentId)) ?? row);
  });
}

/** Gives money back, never more than was paid (internal/refunds.ts). */
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
    const refund = await reserveRefund(tx, row, body, staff.id, at);
    const { amount, refundId } = refund;
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
    return refund;
  });
  await refundAtProvider(deps, reserved, at);
  return deps.db.run(async (sql) =>
    presentOne(sql, deps, await visiblePayment(sql, paymentId, staff)),
  );
}

/** The fee's standing as the submission guard sees it, with the waiver if there is one. */
export const getFee = (deps: PaymentsDeps, viewer: User, applicationId: string) =>
  deps.db.transaction(
    (sql): Promise<FeeSummary> => feeSummary(sql, deps, viewer, applicationId, isoAt(deps.now())),
  );

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
      await recordWaiver(tx, deps.db.dialect, staff, applicationId, reason.trim(), at);
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
  deps.db.run(
    async (sql): Promise<Receipt> =>
      receiptOf(sql, await visiblePayment(sql, paymentId, viewer), viewer),
  );

/**
 * Verifies and applies one Stripe event, once: the event id is recorded in the same
 * transaction as its effect, so a redelivery (Stripe retries until it gets a 2xx) or a replay
 * changes nothing, and an effect that fails leaves the id unrecorded for the retry.
 */
export async function receiveStripeEvent(
  deps: PaymentsDeps,
  webhookSecret: string,
  payload: string,
  signature: string | null,
) {
  const event = await verifiedEvent(payload, signature, webhookSecret, deps.now());
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const recorded = await tx`INSERT INTO webhook_events (provider, event_id, type, received_at)
      VALUES ('stripe', ${event.id}, ${event.type}, ${at}) ON CONFLICT DO NOTHING`;
    if (recorded.count !== 1) return { received: true as const, duplicate: true };
    if (event.type.startsWith("checkout.session.")) {
      const state = sessionStateOf(event.data.object);
      if (state?.paymentId) {
        await applySessionState(tx, deps.logger, state.paymentId, state, at, event.type);
      }
    }
    return { received: true as const, duplicate: false };
  });
}
