import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import {
  draftWithFee,
  newPayment,
  type PaymentJson,
  pay,
  paymentsPath,
} from "./payments-support.ts";
import {
  as,
  createDraft,
  createIntake,
  createProgram,
  type Paged,
  setupApp,
  signIn,
  suiteWithStaff,
} from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;

const body = async (res: Response) => (await res.json()) as PaymentJson;
const paymentPath = (id: string, action = "") => `/api/v1/payments/${id}/${action}`;
const confirm = (id: string, who = reviewer) =>
  app.handle(as(who, "POST", paymentPath(id, "confirm/"), { note: "Seen on the statement" }));
const refund = (id: string, payload: Record<string, unknown>, who = admin) =>
  app.handle(as(who, "POST", paymentPath(id, "refunds/"), payload));
const feeOf = async (applicationId: string, who = admin) =>
  (await (
    await app.handle(as(who, "GET", `/api/v1/applications/${applicationId}/fee/`))
  ).json()) as {
    status: string;
    waiver: { reason: string; waivedBy: string | null } | null;
    pendingPaymentId: string | null;
  };

describe("creating a payment (manual by default)", () => {
  test("201: pending, the program's fee and currency, a reference and instructions", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin, 12_345, "GBP");
    const res = await pay(ctx, applicant, draft.id);
    expect(res.status).toBe(201);
    const payment = await body(res);
    expect(payment).toMatchObject({
      applicationId: draft.id,
      provider: "manual",
      status: "pending",
      amount: { amount: 12_345, currency: "GBP" },
      refunded: { amount: 0, currency: "GBP" },
      checkoutUrl: null,
      receiptNumber: null,
    });
    expect(payment.reference).toMatch(/^ADM-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(payment.instructions).toContain("reference");
    expect(res.headers.get("location")).toBe(paymentPath(payment.id));
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });

  test("the amount comes from the program, whatever the body says", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin, 5000);
    const res = await pay(ctx, applicant, draft.id, { amount: 1, currency: "USD" });
    expect((await body(res)).amount).toEqual({ amount: 5000, currency: "EUR" });
  });

  test("no Idempotency-Key: 400 IDEMPOTENCY_KEY_MISSING; a malformed one: 400", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    expect((await problemOf(await pay(ctx, applicant, draft.id, {}, null))).code).toBe(
      "IDEMPOTENCY_KEY_MISSING",
    );
    for (const key of ["has space", "x".repeat(256), "tab\tkey"]) {
      expect((await problemOf(await pay(ctx, applicant, draft.id, {}, key))).status).toBe(400);
    }
    const list = await app.handle(as(applicant, "GET", paymentsPath(draft.id)));
    expect(((await list.json()) as Paged<PaymentJson>).count).toBe(0);
  });

  test("an unknown or disabled provider: 422", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    for (const provider of ["paypal", "stripe"]) {
      const res = await pay(ctx, applicant, draft.id, { provider });
      expect((await problemOf(res)).status).toBe(422);
    }
  });
});

describe("Idempotency-Key", () => {
  test("same key and body: the same payment, marked as a replay; no second payment", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const key = crypto.randomUUID();
    const first = await body(await pay(ctx, applicant, draft.id, {}, key));
    const again = await pay(ctx, applicant, draft.id, { provider: "manual" }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await body(again)).id).toBe(first.id);
    const list = await app.handle(as(applicant, "GET", paymentsPath(draft.id)));
    expect(((await list.json()) as Paged<PaymentJson>).count).toBe(1);
  });

  test("same key, different body or another application: 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const program = await createProgram(ctx, admin, {
      applicationFee: { amount: 900, currency: "EUR" },
    });
    const intake = await createIntake(ctx, admin, program.id);
    const secondDraft = await createDraft(ctx, applicant, intake.id);
    const key = crypto.randomUUID();
    await pay(ctx, applicant, draft.id, {}, key);
    const otherBody = await pay(ctx, applicant, draft.id, { provider: "stripe" }, key);
    expect((await problemOf(otherBody)).code).toBe("IDEMPOTENCY_KEY_REUSED");
    const otherApplication = await pay(ctx, applicant, secondDraft.id, {}, key);
    expect((await problemOf(otherApplication)).code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  test("keys are scoped to the payer: another applicant's key is theirs", async () => {
    const a = await draftWithFee(ctx, admin);
    const b = await draftWithFee(ctx, admin);
    const key = "shared-key-1";
    const first = await body(await pay(ctx, a.applicant, a.draft.id, {}, key));
    const second = await body(await pay(ctx, b.applicant, b.draft.id, {}, key));
    expect(second.id).not.toBe(first.id);
  });

  test("a replay after the payment succeeded returns it as it is now", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const key = crypto.randomUUID();
    const payment = await body(await pay(ctx, applicant, draft.id, {}, key));
    await confirm(payment.id);
    const replay = await body(await pay(ctx, applicant, draft.id, {}, key));
    expect(replay).toMatchObject({ id: payment.id, status: "succeeded" });
  });

  test("ten concurrent creations with one key: one payment, every answer names it", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => pay(ctx, applicant, draft.id, {}, key)),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201));
    const ids = new Set(await Promise.all(answers.map(async (res) => (await body(res)).id)));
    expect(ids.size).toBe(1);
    const rows = await ctx.db.run(
      (sql) => sql`SELECT id FROM payments WHERE application_id = ${draft.id}`,
    );
    expect(rows).toHaveLength(1);
  });

  test("concurrent creations with different keys: one pending payment, the rest 409 PAYMENT_PENDING", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => pay(ctx, applicant, draft.id)),
    );
    const created = answers.filter((res) => res.status === 201);
    expect(created).toHaveLength(1);
    const winner = await body(created[0] as Response);
    for (const res of answers.filter((r) => r.status !== 201)) {
      const problem = (await problemOf(res)) as { code: string; paymentId?: string };
      expect(problem.code).toBe("PAYMENT_PENDING");
      expect(problem.paymentId).toBe(winner.id);
    }
  });
});

describe("when there is nothing to pay", () => {
  test("a free program: 409 FEE_NOT_REQUIRED", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin, 0);
    expect((await problemOf(await pay(ctx, applicant, draft.id))).code).toBe("FEE_NOT_REQUIRED");
  });

  test("paid: 409 FEE_ALREADY_PAID; waived: 409 FEE_WAIVED; not a draft: 409", async () => {
    const paidDraft = await draftWithFee(ctx, admin);
    const payment = await newPayment(ctx, paidDraft.applicant, paidDraft.draft.id);
    await confirm(payment.id);
    expect((await problemOf(await pay(ctx, paidDraft.applicant, paidDraft.draft.id))).code).toBe(
      "FEE_ALREADY_PAID",
    );

    const waived = await draftWithFee(ctx, admin);
    await app.handle(
      as(admin, "POST", `/api/v1/applications/${waived.draft.id}/fee-waiver/`, {
        reason: "Scholarship",
      }),
    );
    expect((await problemOf(await pay(ctx, waived.applicant, waived.draft.id))).code).toBe(
      "FEE_WAIVED",
    );

    const withdrawn = await draftWithFee(ctx, admin);
    await app.handle(
      as(withdrawn.applicant, "POST", `/api/v1/applications/${withdrawn.draft.id}/withdraw/`),
    );
    expect((await problemOf(await pay(ctx, withdrawn.applicant, withdrawn.draft.id))).code).toBe(
      "APPLICATION_NOT_EDITABLE",
    );
  });
});

describe("manual payments: staff confirm or fail them; references expire", () => {
  test("confirm: succeeded, paidAt, a receipt; the fee is paid; confirming again is 409", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const payment = await newPayment(ctx, applicant, draft.id);
    const res = await confirm(payment.id);
    expect(res.status).toBe(200);
    const confirmed = await body(res);
    expect(confirmed.status).toBe("succeeded");
    expect(confirmed.paidAt).not.toBeNull();
    expect(confirmed.receiptNumber).toMatch(/^R-\d{6}$/);
    expect((await feeOf(draft.id)).status).toBe("paid");
    expect((await problemOf(await confirm(payment.id))).code).toBe("ILLEGAL_PAYMENT_TRANSITION");

    const receipt = await app.handle(as(applicant, "GET", paymentPath(payment.id, "receipt/")));
    expect(await receipt.json()).toMatchObject({
      receiptNumber: confirmed.receiptNumber,
      paymentId: payment.id,
      reference: payment.reference,
      amount: { amount: 7500, currency: "EUR" },
      payer: { email: applicant.user.email },
    });
  });

  test("fail: failed with the reason; no receipt (409); a new payment may start", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const payment = await newPayment(ctx, applicant, draft.id);
    const failNoReason = await app.handle(as(admin, "POST", paymentPath(payment.id, "fail/"), {}));
    expect(failNoReason.status).toBe(422);
    const failed = await app.handle(
      as(admin, "POST", paymentPath(payment.id, "fail/"), { reason: "Transfer bounced" }),
    );
    expect(await body(failed)).toMatchObject({
      status: "failed",
      statusReason: "Transfer bounced",
    });
    const receipt = await app.handle(as(applicant, "GET", paymentPath(payment.id, "receipt/")));
    expect((await problemOf(receipt)).code).toBe("RECEIPT_NOT_AVAILABLE");
    expect((await pay(ctx, applicant, draft.id)).status).toBe(201);
  });

  test("the fee says how it can be paid: the methods configured and the transfer account", async () => {
    const bankAccount = {
      accountName: "University of Example",
      iban: "GB33 BUKB 2020 1555 5555 55",
      bic: null,
      bankName: "Example Bank",
    };
    const configured = await setupApp({ payments: { ...DEFAULT_SETTINGS.payments, bankAccount } });
    const staff = await signIn(configured, "admin");
    const { applicant, draft } = await draftWithFee(configured, staff);
    const res = await configured.app.handle(
      as(applicant, "GET", `/api/v1/applications/${draft.id}/fee/`),
    );
    expect(await res.json()).toMatchObject({ methods: ["manual"], bankAccount });
    // Without the account configured, the page is told so (null), never an invented one.
    const { applicant: other, draft: plain } = await draftWithFee(ctx, admin);
    const unset = await app.handle(as(other, "GET", `/api/v1/applications/${plain.id}/fee/`));
    expect(await unset.json()).toMatchObject({ methods: ["manual"], bankAccount: null });
  });

  test("past its expiry a reference is expired: not confirmable, and a new payment may start", async () => {
    const short = await setupApp({
      payments: { ...DEFAULT_SETTINGS.payments, manualTtlMs: 60_000 },
    });
    const staff = await signIn(short, "admin");
    const { applicant, draft } = await draftWithFee(short, staff);
    const payment = await newPayment(short, applicant, draft.id);
    short.clock.advance(61_000);
    const late = await short.app.handle(as(staff, "POST", paymentPath(payment.id, "confirm/")));
    expect((await problemOf(late)).code).toBe("ILLEGAL_PAYMENT_TRANSITION");
    const seen = await short.app.handle(as(applicant, "POST", paymentPath(payment.id, "refresh/")));
    expect(await body(seen)).toMatchObject({
      status: "expired",
      statusReason: "The payment reference expired",
    });
    expect((await pay(short, applicant, draft.id)).status).toBe(201);
  });

  test("receipt numbers are unique and consecutive, also when confirmed concurrently", async () => {
    const payments = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const { applicant, draft } = await draftWithFee(ctx, admin);
        return newPayment(ctx, applicant, draft.id);
      }),
    );
    const confirmed = await Promise.all(payments.map(async (p) => body(await confirm(p.id))));
    const numbers = confirmed.map((p) => Number(p.receiptNumber?.slice(2))).sort((a, b) => a - b);
    const first = numbers[0] ?? 0;
    expect(numbers).toEqual(numbers.map((_, i) => first + i));
  });
});

describe("refunds", () => {
  async function confirmedPayment(fee = 10_000) {
    const { applicant, draft } = await draftWithFee(ctx, admin, fee);
    const payment = await newPayment(ctx, applicant, draft.id);
    await confirm(payment.id);
    return { applicant, draft, payment };
  }

  test("partial, then the rest: refunded, never more than paid (409 REFUND_EXCEEDS_PAID)", async () => {
    const { draft, payment } = await confirmedPayment(10_000);
    const partial = await refund(payment.id, { amount: 2_500, reason: "Duplicate bank fee" });
    expect(partial.status).toBe(201);
    expect(await body(partial)).toMatchObject({
      status: "refunded",
      refunded: { amount: 2_500, currency: "EUR" },
    });
    // Partly refunded: the fee still counts as paid.
    expect((await feeOf(draft.id)).status).toBe("paid");
    const tooMuch = await refund(payment.id, { amount: 7_501, reason: "Oops" });
    expect((await problemOf(tooMuch)).code).toBe("REFUND_EXCEEDS_PAID");
    const rest = await body(await refund(payment.id, { reason: "Withdrew before review" }));
    expect(rest.refunded.amount).toBe(10_000);
    expect(rest.refunds.map((r) => r.amount.amount)).toEqual([2_500, 7_500]);
    expect((await problemOf(await refund(payment.id, { reason: "Again" }))).code).toBe(
      "REFUND_EXCEEDS_PAID",
    );
    // Fully refunded: unpaid again. The receipt stays.
    expect((await feeOf(draft.id)).status).toBe("unpaid");
    expect(rest.receiptNumber).not.toBeNull();
  });

  test("concurrent refunds cannot together exceed what was paid", async () => {
    const { payment } = await confirmedPayment(10_000);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => refund(payment.id, { amount: 3_000, reason: "Race" })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409]);
    const final = await body(await app.handle(as(admin, "GET", paymentPath(payment.id))));
    expect(final.refunded.amount).toBe(9_000);
  });

  test("only succeeded (or partly refunded) payments can be refunded; amount ≥ 1", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const pending = await newPayment(ctx, applicant, draft.id);
    expect((await problemOf(await refund(pending.id, { reason: "x" }))).code).toBe(
      "ILLEGAL_PAYMENT_TRANSITION",
    );
    const { payment } = await confirmedPayment();
    for (const amount of [0, -5, 1.5, "100"]) {
      expect((await refund(payment.id, { amount, reason: "x" })).status).toBe(422);
    }
  });
});

describe("waivers", () => {
  test("staff waive with a reason: the fee is waived; applicants see the reason, not who", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const path = `/api/v1/applications/${draft.id}/fee-waiver/`;
    expect((await app.handle(as(reviewer, "POST", path, {}))).status).toBe(422);
    const res = await app.handle(as(reviewer, "POST", path, { reason: "Hardship scholarship" }));
    expect(res.status).toBe(201);
    expect((await feeOf(draft.id)).waiver).toMatchObject({
      reason: "Hardship scholarship",
      waivedBy: reviewer.user.id,
    });
    expect(await feeOf(draft.id, applicant)).toMatchObject({
      status: "waived",
      waiver: { reason: "Hardship scholarship", waivedBy: null },
    });
    const twice = await app.handle(as(admin, "POST", path, { reason: "Again" }));
    expect((await problemOf(twice)).code).toBe("FEE_WAIVED");
  });

  test("not once paid, nor while a payment is pending (409)", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const path = `/api/v1/applications/${draft.id}/fee-waiver/`;
    const payment = await newPayment(ctx, applicant, draft.id);
    const pending = await app.handle(as(admin, "POST", path, { reason: "x" }));
    expect((await problemOf(pending)).code).toBe("PAYMENT_PENDING");
    expect((await feeOf(draft.id)).pendingPaymentId).toBe(payment.id);
    await confirm(payment.id);
    const paidAlready = await app.handle(as(admin, "POST", path, { reason: "x" }));
    expect((await problemOf(paidAlready)).code).toBe("FEE_ALREADY_PAID");
  });
});
