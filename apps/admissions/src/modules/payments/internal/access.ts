import type { Logger } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { notFound } from "../../../problems.ts";
import { isStaff, type User } from "../../users/model.ts";
import type { BankAccount, Payment, ProviderName } from "../model.ts";
import type { PaymentProvider } from "./providers.ts";
import { findPayment, type PaymentRow, refundsOf, toPayment } from "./queries.ts";

export type PaymentsDeps = {
  db: Db;
  logger: Logger;
  now: () => number;
  /** Enabled providers; `manual` always is. */
  providers: Partial<Record<ProviderName, PaymentProvider>>;
  defaultProvider: ProviderName;
  /** How long a manual reference stays payable. */
  manualTtlMs: number;
  /** How long a Stripe Checkout Session stays open (Stripe allows 30 minutes to 24 hours). */
  checkoutTtlMs: number;
  manualInstructions: string;
  /** The account transfers go to; null when not configured. */
  bankAccount: BankAccount | null;
};

export const present = async (sql: SQL, deps: PaymentsDeps, rows: PaymentRow[]) => {
  const refunds = await refundsOf(
    sql,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPayment(row, refunds, deps.manualInstructions));
};

export const presentOne = async (sql: SQL, deps: PaymentsDeps, row: PaymentRow) =>
  (await present(sql, deps, [row]))[0] as Payment;

/** A payment the viewer may see (its applicant, staff); anyone else gets the 404. */
export async function visiblePayment(sql: SQL, id: string, viewer: User): Promise<PaymentRow> {
  const row = await findPayment(sql, id);
  if (!row) throw notFound("Payment");
  if (!isStaff(viewer.role)) {
    const [owner] =
      await sql`SELECT applicant_id FROM applications WHERE id = ${row.application_id}`;
    if (owner?.applicant_id !== viewer.id) throw notFound("Payment");
  }
  return row;
}
