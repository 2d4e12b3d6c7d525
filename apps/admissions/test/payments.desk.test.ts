import { describe, expect, test } from "bun:test";
import type { DeskPayment } from "../src/modules/payments/model.ts";
import { draftWithFee, newPayment, type PaymentJson } from "./payments-support.ts";
import { type Paged, suiteWithStaff } from "./support.ts";
import { call, DAY, expectJson, problemWith } from "./workflow-support.ts";

/*
 * The payments desk (GET /staff/payments/) and confirming a transfer with the amount that
 * arrived: short is refused and changes nothing, over is confirmed with the surplus kept.
 */
const { ctx, admin, reviewer } = await suiteWithStaff();

const desk = (query = "", who = admin) => call(ctx, who, "GET", `/api/v1/staff/payments/${query}`);
const deskOf = async (query = "") => expectJson<Paged<DeskPayment>>(await desk(query));
const confirm = (id: string, body: Record<string, unknown>) =>
  call(ctx, admin, "POST", `/api/v1/payments/${id}/confirm/`, body);

/** A transfer awaiting confirmation for a fresh applicant named `fullName`. */
async function pendingTransfer(fee = 5_000) {
  const { applicant, draft } = await draftWithFee(ctx, admin, fee, "EUR");
  const payment = await newPayment(ctx, applicant, draft.id, { provider: "manual" });
  return { applicant, draft, payment };
}

describe("the payments desk", () => {
  test("pending transfers, oldest first, each with its applicant, programme and intake", async () => {
    const first = await pendingTransfer();
    ctx.clock.advance(1_000);
    const second = await pendingTransfer();
    const page = await deskOf("?limit=100");
    const ids = page.results.map((p) => p.id);
    expect(ids.indexOf(first.payment.id)).toBeLessThan(ids.indexOf(second.payment.id));
    const row = page.results.find((p) => p.id === first.payment.id);
    expect(row).toMatchObject({
      status: "pending",
      provider: "manual",
      reference: first.payment.reference,
      received: null,
      application: {
        id: first.draft.id,
        status: "draft",
        applicant: { id: first.applicant.user.id, fullName: "Test applicant" },
      },
    });
    expect(row?.application.program.code).toBeString();
    expect(row?.application.intake.term).toStartWith("Term ");
    expect(page.results.every((p) => p.status === "pending")).toBe(true);
  });

  test("a reference is found however a statement prints it; an applicant by email", async () => {
    const { payment, applicant } = await pendingTransfer();
    const printed = payment.reference.toLowerCase().replaceAll("-", " ");
    for (const search of [payment.reference, printed, payment.reference.replaceAll("-", "")]) {
      const page = await deskOf(`?search=${encodeURIComponent(search)}`);
      expect(page.results.map((p) => p.id)).toEqual([payment.id]);
    }
    const byEmail = await deskOf(`?search=${encodeURIComponent(applicant.user.email)}`);
    expect(byEmail.results.map((p) => p.id)).toEqual([payment.id]);
    const none = await deskOf("?search=ADM-0000-0000");
    expect(none).toMatchObject({ count: 0, results: [] });
  });

  test("a reference past its expiry leaves the pending list, as expired", async () => {
    const { payment } = await pendingTransfer();
    const now = ctx.clock.now();
    // Back to the database as it stands then: the reference is past due, the tokens are not.
    await ctx.db.run(
      (sql) => sql`UPDATE payments SET expires_at = ${new Date(now - DAY).toISOString()}
        WHERE id = ${payment.id}`,
    );
    const pending = await deskOf("?limit=100");
    expect(pending.results.some((p) => p.id === payment.id)).toBe(false);
    const expired = await deskOf(`?status=expired&search=${payment.reference}`);
    expect(expired.results.map((p) => [p.id, p.status])).toEqual([[payment.id, "expired"]]);
  });

  test("admins only: a reviewer and an applicant are refused", async () => {
    const { applicant } = await pendingTransfer();
    expect((await desk("", reviewer)).status).toBe(403);
    expect((await desk("", applicant)).status).toBe(403);
    expect((await desk("?status=bogus")).status).toBe(422);
  });
});

describe("confirming with the amount received", () => {
  test("exactly the amount: succeeded, with a receipt and what arrived", async () => {
    const { payment } = await pendingTransfer(5_000);
    const done = await expectJson<PaymentJson>(await confirm(payment.id, { received: 5_000 }));
    expect(done).toMatchObject({
      status: "succeeded",
      received: { amount: 5_000, currency: "EUR" },
    });
    expect(done.receiptNumber).toMatch(/^R-\d{6}$/);
  });

  test("short: 409 PAYMENT_SHORT saying by how much, and the payment stays pending", async () => {
    const { payment, draft } = await pendingTransfer(5_000);
    const res = await confirm(payment.id, { received: 4_200, note: "Bank fees deducted" });
    expect(res.status).toBe(409);
    const problem = await problemWith(res);
    expect(problem.code).toBe("PAYMENT_SHORT");
    expect(problem).toMatchObject({
      expected: { amount: 5_000, currency: "EUR" },
      received: { amount: 4_200, currency: "EUR" },
      shortBy: { amount: 800, currency: "EUR" },
    });
    const after = await expectJson<PaymentJson>(
      await call(ctx, admin, "GET", `/api/v1/payments/${payment.id}/`),
    );
    expect(after).toMatchObject({ status: "pending", received: null, receiptNumber: null });
    const fee = await expectJson<{ status: string }>(
      await call(ctx, admin, "GET", `/api/v1/applications/${draft.id}/fee/`),
    );
    expect(fee.status).toBe("unpaid");
  });

  test("over: confirmed, the surplus kept and audited, listed by `overpaid`", async () => {
    const { payment, draft } = await pendingTransfer(5_000);
    const done = await expectJson<PaymentJson>(await confirm(payment.id, { received: 5_750 }));
    expect(done).toMatchObject({
      status: "succeeded",
      amount: { amount: 5_000 },
      received: { amount: 5_750, currency: "EUR" },
    });
    const overpaid = await deskOf(`?status=succeeded&overpaid=true&search=${payment.reference}`);
    expect(overpaid.results.map((p) => p.id)).toEqual([payment.id]);
    const audit = await expectJson<Paged<{ action: string; details: Record<string, unknown> }>>(
      await call(ctx, admin, "GET", `/api/v1/staff/audit/?applicationId=${draft.id}`),
    );
    const entry = audit.results.find((e) => e.action === "payment.confirmed");
    expect(entry?.details).toMatchObject({ received: 5_750, overpaid: 750 });
  });

  test("without an amount, as before: succeeded, nothing recorded as received", async () => {
    const { payment } = await pendingTransfer();
    const done = await expectJson<PaymentJson>(await confirm(payment.id, {}));
    expect(done).toMatchObject({ status: "succeeded", received: null });
  });

  test("an amount that is not a positive whole number of minor units is refused (422)", async () => {
    const { payment } = await pendingTransfer();
    for (const received of [0, -5, 12.5, "5000"]) {
      expect((await confirm(payment.id, { received })).status).toBe(422);
    }
  });
});
