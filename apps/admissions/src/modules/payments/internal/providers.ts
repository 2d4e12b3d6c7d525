import type { ProviderName } from "../model.ts";

/** What a provider needs to start collecting one payment. */
export type CheckoutRequest = {
  paymentId: string;
  applicationId: string;
  reference: string;
  amount: number;
  currency: string;
  description: string;
  customerEmail: string;
  expiresAtMs: number;
};

/** A hosted payment page the applicant is sent to. */
export type Checkout = { sessionId: string; url: string };

/** A Checkout Session as the provider sees it now (for webhooks and reconciliation alike). */
export type SessionState = {
  sessionId: string;
  /** Our payment id, echoed back by the provider (client_reference_id). */
  paymentId: string | null;
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  providerPaymentId: string | null;
  amount: number | null;
  currency: string | null;
};

export type RefundResult = { refundId: string | null; settled: boolean };

/**
 * A way to collect the fee. `manual` starts nothing (the applicant transfers the money quoting
 * the reference, staff confirm); `stripe` opens a Checkout Session and learns the outcome from
 * signed webhooks (or by asking, see `lookup`).
 */
export type PaymentProvider = {
  readonly name: ProviderName;
  /** Starts collection; null when there is nothing to start. Safe to repeat for one payment. */
  begin(request: CheckoutRequest): Promise<Checkout | null>;
  /** The session's current state at the provider; null for providers without sessions. */
  lookup(sessionId: string): Promise<SessionState | null>;
  /** Gives `amount` back. `key` makes a retry of the same refund a no-op at the provider. */
  refund(
    payment: { providerPaymentId: string | null; id: string },
    amount: number,
    key: string,
  ): Promise<RefundResult>;
};

/** Bank transfer: the money moves outside the system, staff record what happened. */
export const manualProvider: PaymentProvider = {
  name: "manual",
  begin: async () => null,
  lookup: async () => null,
  refund: async () => ({ refundId: null, settled: true }),
};
