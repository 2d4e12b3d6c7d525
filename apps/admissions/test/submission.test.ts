import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { documentsPath, uploaded } from "./files.ts";
import { newPayment, pay } from "./payments-support.ts";
import { as, createDraft, createIntake, createProgram, signIn, suiteWithStaff } from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;

/** A draft for a program asking for a transcript and a CV, with a €60 fee. */
async function demandingDraft() {
  const program = await createProgram(ctx, admin, {
    requiredDocuments: ["transcript", "cv"],
    applicationFee: { amount: 6000, currency: "EUR" },
  });
  const intake = await createIntake(ctx, admin, program.id);
  const applicant = await signIn(ctx);
  return { applicant, draft: await createDraft(ctx, applicant, intake.id) };
}

const submit = (who: Awaited<ReturnType<typeof signIn>>, id: string) =>
  app.handle(as(who, "POST", `/api/v1/applications/${id}/submit/`));

describe("submission needs every required document and the fee paid or waived", () => {
  test("documents first (with the missing types), then the fee, then it goes through", async () => {
    const { applicant, draft } = await demandingDraft();
    const none = (await problemOf(await submit(applicant, draft.id))) as {
      code: string;
      missing?: string[];
    };
    expect(none.code).toBe("REQUIRED_DOCUMENTS_MISSING");
    expect(none.missing).toEqual(["transcript", "cv"]);

    await uploaded(ctx, applicant, draft.id, "cv");
    const one = (await problemOf(await submit(applicant, draft.id))) as { missing?: string[] };
    expect(one.missing).toEqual(["transcript"]);

    await uploaded(ctx, applicant, draft.id, "transcript");
    const unpaid = (await problemOf(await submit(applicant, draft.id))) as {
      code: string;
      fee?: unknown;
    };
    expect(unpaid.code).toBe("APPLICATION_FEE_UNPAID");
    expect(unpaid.fee).toEqual({ amount: 6000, currency: "EUR" });

    const payment = await newPayment(ctx, applicant, draft.id);
    // Pending is not paid.
    expect((await problemOf(await submit(applicant, draft.id))).code).toBe(
      "APPLICATION_FEE_UNPAID",
    );
    await app.handle(as(reviewer, "POST", `/api/v1/payments/${payment.id}/confirm/`));
    const res = await submit(applicant, draft.id);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("submitted");
  });

  test("a rejected document does not count; its replacement does", async () => {
    const { applicant, draft } = await demandingDraft();
    const transcript = await uploaded(ctx, applicant, draft.id, "transcript");
    await uploaded(ctx, applicant, draft.id, "cv");
    await app.handle(
      as(reviewer, "POST", `${documentsPath(draft.id)}${transcript.id}/review/`, {
        decision: "rejected",
        note: "Unreadable",
      }),
    );
    const problem = (await problemOf(await submit(applicant, draft.id))) as { missing?: string[] };
    expect(problem.missing).toEqual(["transcript"]);
    await uploaded(ctx, applicant, draft.id, "transcript");
    expect((await problemOf(await submit(applicant, draft.id))).code).toBe(
      "APPLICATION_FEE_UNPAID",
    );
  });

  test("a waived fee lets it through; a fully refunded one does not", async () => {
    const waived = await demandingDraft();
    await uploaded(ctx, waived.applicant, waived.draft.id, "transcript");
    await uploaded(ctx, waived.applicant, waived.draft.id, "cv");
    await app.handle(
      as(admin, "POST", `/api/v1/applications/${waived.draft.id}/fee-waiver/`, {
        reason: "Partner school",
      }),
    );
    expect((await submit(waived.applicant, waived.draft.id)).status).toBe(200);

    const refunded = await demandingDraft();
    await uploaded(ctx, refunded.applicant, refunded.draft.id, "transcript");
    await uploaded(ctx, refunded.applicant, refunded.draft.id, "cv");
    const payment = await newPayment(ctx, refunded.applicant, refunded.draft.id);
    await app.handle(as(admin, "POST", `/api/v1/payments/${payment.id}/confirm/`));
    await app.handle(
      as(admin, "POST", `/api/v1/payments/${payment.id}/refunds/`, { reason: "Changed mind" }),
    );
    expect((await problemOf(await submit(refunded.applicant, refunded.draft.id))).code).toBe(
      "APPLICATION_FEE_UNPAID",
    );
    // Paying again after a full refund is allowed.
    expect((await pay(ctx, refunded.applicant, refunded.draft.id)).status).toBe(201);
  });

  test("a program with neither documents nor fee still submits at once", async () => {
    const program = await createProgram(ctx, admin);
    const intake = await createIntake(ctx, admin, program.id);
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, intake.id);
    expect((await submit(applicant, draft.id)).status).toBe(200);
  });
});
