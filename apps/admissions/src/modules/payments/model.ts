import { JsonInteger } from "@platform/contracts";
import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { enumOf, Id, Timestamp } from "../../lib/schema.ts";
import { multiLineText } from "../../lib/text.ts";
import { Money } from "../catalog/model.ts";

export const PROVIDERS = ["manual", "stripe"] as const;
export const ProviderName = enumOf(PROVIDERS, {
  description:
    "manual: pay by bank transfer quoting the reference, staff confirm; stripe: Stripe Checkout",
});
export type ProviderName = typeof ProviderName.static;

export const PAYMENT_STATUSES = ["pending", "succeeded", "failed", "expired", "refunded"] as const;
export const PaymentStatus = enumOf(PAYMENT_STATUSES, {
  description:
    "pending → succeeded | failed | expired; succeeded → refunded (some or all of it: see `refunded`)",
});
export type PaymentStatus = typeof PaymentStatus.static;

export const FEE_STATUSES = ["paid", "waived", "not_required", "unpaid"] as const;

export const Refund = t.Object({
  id: Id,
  amount: Money,
  reason: t.String(),
  status: enumOf(["pending", "succeeded", "failed"] as const),
  createdAt: Timestamp,
});

export const Payment = t.Object({
  id: Id,
  applicationId: Id,
  provider: ProviderName,
  status: PaymentStatus,
  amount: Money,
  refunded: Money,
  received: t.Nullable(Money, {
    description:
      "What staff recorded arriving for a bank transfer when they confirmed it; more than `amount` is an over-payment, to be returned by transfer. null: not recorded (Stripe, or confirmed without an amount)",
  }),
  reference: t.String({
    description: "Quote it with a bank transfer (manual) or to support",
    examples: ["ADM-7KQ2-M9XD"],
  }),
  instructions: t.Nullable(t.String({ description: "How to pay (manual payments)" })),
  checkoutUrl: t.Nullable(
    t.String({ description: "Stripe Checkout page to send the applicant to, while pending" }),
  ),
  expiresAt: Timestamp,
  paidAt: t.Nullable(Timestamp),
  receiptNumber: t.Nullable(t.String({ examples: ["R-000042"] })),
  statusReason: t.Nullable(t.String()),
  refunds: t.Array(Refund),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Payment = typeof Payment.static;

export const PaymentPage = Paginated(Payment, "An application's payments, newest first");
export const PaymentListQuery = t.Object(PageQuery);

export const PaymentCreate = t.Object(
  { provider: t.Optional(ProviderName) },
  {
    examples: [{ provider: "stripe" }],
    description: "The amount and currency come from the program",
  },
);
export type PaymentCreate = typeof PaymentCreate.static;

const Reason = multiLineText({ minLength: 1, maxLength: 2_000 });

export const RefundBody = t.Object(
  {
    amount: t.Optional(
      JsonInteger({ minimum: 1, description: "Minor units; default: all that is left" }),
    ),
    reason: Reason,
  },
  { examples: [{ amount: 2500, reason: "Partial refund: duplicate bank charge" }] },
);
export type RefundBody = typeof RefundBody.static;

export const ReasonBody = t.Object({ reason: Reason });
export const ConfirmBody = t.Optional(
  t.Object(
    {
      note: t.Optional(multiLineText({ maxLength: 2_000 })),
      received: t.Optional(
        JsonInteger({
          minimum: 1,
          maximum: 100_000_000,
          description:
            "Minor units seen on the statement, in the payment's currency. Less than the amount: 409 PAYMENT_SHORT and nothing changes; more: confirmed, the surplus recorded as `received`",
        }),
      ),
    },
    { examples: [{ note: "Seen on the statement of 3 March", received: 5000 }] },
  ),
);
export type ConfirmBody = typeof ConfirmBody.static;

export const Receipt = t.Object({
  receiptNumber: t.String({ examples: ["R-000042"] }),
  sequence: JsonInteger({ minimum: 1, description: "Receipt numbers run 1, 2, 3… with no gaps" }),
  paymentId: Id,
  reference: t.String(),
  applicationId: Id,
  program: t.String({ examples: ["CS-BSC"] }),
  intake: t.String({ examples: ["Autumn 2026"] }),
  payer: t.Object({ name: t.String(), email: t.String() }),
  amount: Money,
  refunded: Money,
  provider: ProviderName,
  paidAt: Timestamp,
});
export type Receipt = typeof Receipt.static;

/** The institution's account for bank transfers (`ADMISSIONS_BANK_*`). */
export const BankAccount = t.Object({
  accountName: t.String({
    description: "Who the transfer is to",
    examples: ["University of Example"],
  }),
  iban: t.String({
    description: "IBAN, in groups of four",
    examples: ["GB33 BUKB 2020 1555 5555 55"],
  }),
  bic: t.Nullable(t.String({ description: "BIC (SWIFT code)", examples: ["BUKBGB22"] })),
  bankName: t.Nullable(t.String({ examples: ["Barclays"] })),
});
export type BankAccount = typeof BankAccount.static;

export const FeeSummary = t.Object({
  applicationId: Id,
  fee: Money,
  status: enumOf(FEE_STATUSES, {
    description: "What the submission guard sees: paid or waived (or no fee) lets it pass",
  }),
  waiver: t.Nullable(
    t.Object({
      reason: t.String(),
      waivedAt: Timestamp,
      waivedBy: t.Nullable(Id, { description: "Shown to staff only" }),
    }),
  ),
  pendingPaymentId: t.Nullable(Id),
  methods: t.Array(ProviderName, {
    description: "How this deployment takes the fee: manual always, stripe when it is configured",
  }),
  bankAccount: t.Nullable(BankAccount, {
    description:
      "Where a bank transfer goes, quoting the payment's reference; null when the deployment has not configured it",
  }),
});
export type FeeSummary = typeof FeeSummary.static;

export const IdempotencyHeaders = t.Object({
  "idempotency-key": t.Optional(
    t.String({
      description:
        "Required. 1–255 visible ASCII characters, unique per payment you mean to make: a retry with the same key and body returns the same payment",
      examples: ["5d3c1a52-7d8e-4a8e-9a43-0e7f3b7c2d11"],
    }),
  ),
});

/** What the Stripe webhook answers. */
export const WebhookAck = t.Object({
  received: t.Literal(true),
  duplicate: t.Boolean({ description: "This event id was processed before; nothing changed" }),
});

/** The payments desk's filters (admins): a status, a provider, a search over the people and references. */
export const DeskQuery = t.Object({
  ...PageQuery,
  status: t.Optional(
    enumOf(PAYMENT_STATUSES, { description: "Default: pending (transfers awaiting confirmation)" }),
  ),
  provider: t.Optional(ProviderName),
  search: t.Optional(
    t.String({
      maxLength: 100,
      description:
        "A payment reference (any case; spaces and hyphens ignored, as bank statements print them) or the applicant's name or email",
      examples: ["adm 7kq2 m9xd"],
    }),
  ),
  overpaid: t.Optional(
    t.Boolean({ description: "Only confirmed transfers that brought in more than the fee" }),
  ),
});
export type DeskQuery = typeof DeskQuery.static;

export const DeskPayment = t.Object({
  ...Payment.properties,
  application: t.Object({
    id: Id,
    status: t.String({ description: "The application's status" }),
    applicant: t.Object({ id: Id, fullName: t.String(), email: t.String() }),
    program: t.Object({ id: Id, code: t.String(), name: t.String() }),
    intake: t.Object({ id: Id, term: t.String() }),
  }),
});
export type DeskPayment = typeof DeskPayment.static;

export const DeskPage = Paginated(
  DeskPayment,
  "Payments with their applications: oldest first while pending (the longest waiting), newest first otherwise",
);
