import type { SQL } from "bun";
import { toIso, toIsoOrNull } from "../../../db/dialect.ts";
import type { Payment, PaymentStatus, ProviderName } from "../model.ts";

export type PaymentRow = {
  id: string;
  application_id: string;
  payer_id: string;
  provider: ProviderName;
  status: PaymentStatus;
  amount: number;
  currency: string;
  amount_refunded: number;
  amount_received: number | null;
  reference: string;
  idempotency_key: string;
  request_hash: string;
  checkout_session_id: string | null;
  checkout_url: string | null;
  provider_payment_id: string | null;
  receipt_number: number | null;
  status_reason: string | null;
  decided_by: string | null;
  expires_at: unknown;
  paid_at: unknown;
  created_at: unknown;
  updated_at: unknown;
};

export type RefundRow = {
  id: string;
  payment_id: string;
  amount: number;
  reason: string;
  status: "pending" | "succeeded" | "failed";
  provider_refund_id: string | null;
  refunded_by: string;
  created_at: unknown;
  updated_at: unknown;
};

export const formatReceiptNumber = (sequence: number) => `R-${String(sequence).padStart(6, "0")}`;

export async function findPayment(sql: SQL, id: string): Promise<PaymentRow | null> {
  const [row] = (await sql`SELECT * FROM payments WHERE id = ${id}`) as PaymentRow[];
  return row ?? null;
}

export async function refundsOf(sql: SQL, paymentIds: string[]): Promise<RefundRow[]> {
  if (paymentIds.length === 0) return [];
  return (await sql`SELECT * FROM payment_refunds WHERE payment_id IN ${sql(paymentIds)}
    ORDER BY created_at, id`) as RefundRow[];
}

export function toPayment(row: PaymentRow, refunds: RefundRow[], instructions: string): Payment {
  const money = (amount: number) => ({ amount: Number(amount), currency: row.currency });
  return {
    id: row.id,
    applicationId: row.application_id,
    provider: row.provider,
    status: row.status,
    amount: money(row.amount),
    refunded: money(row.amount_refunded),
    received: row.amount_received === null ? null : money(row.amount_received),
    reference: row.reference,
    instructions: row.provider === "manual" ? instructions : null,
    checkoutUrl: row.status === "pending" ? row.checkout_url : null,
    expiresAt: toIso(row.expires_at),
    paidAt: toIsoOrNull(row.paid_at),
    receiptNumber:
      row.receipt_number === null ? null : formatReceiptNumber(Number(row.receipt_number)),
    statusReason: row.status_reason,
    refunds: refunds
      .filter((refund) => refund.payment_id === row.id)
      .map((refund) => ({
        id: refund.id,
        amount: money(refund.amount),
        reason: refund.reason,
        status: refund.status,
        createdAt: toIso(refund.created_at),
      })),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** Crockford base32 without I, L, O, U: no two characters look alike on a bank slip. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * `ADM-XXXX-XXXX`: 40 random bits, unique by index. A clash (about one in 10^12 per pair) fails
 * that one insert with a 409, and the client's retry draws a new reference.
 */
export function newReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const chars = [...bytes].map((byte) => ALPHABET[byte % 32]).join("");
  return `ADM-${chars.slice(0, 4)}-${chars.slice(4)}`;
}
