import { describe, expect, test } from "bun:test";
import type { ConditionList } from "../src/modules/offers/model.ts";
import { settleOverdueConditions } from "../src/modules/offers/service.ts";
import { runJobsOnce } from "../src/wiring.ts";
import { pdf, upload, uploaded } from "./files.ts";
import {
  type ApplicationJson,
  createDraft,
  createIntake,
  createProgram,
  move,
  type Paged,
  type Session,
  signIn,
  suiteWithStaff,
} from "./support.ts";
import {
  applicationUnderReview,
  call,
  DAY,
  decide,
  expectJson,
  intakeWithSeats,
  problemWith,
  recordingMailer,
  testJobs,
} from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();

const path = (id: string) => `/api/v1/applications/${id}/conditions/`;
const read = async (who: Session, id: string) =>
  expectJson<ConditionList>(await call(ctx, who, "GET", path(id)));
const settle = (who: Session, id: string, conditionId: string, body: Record<string, unknown>) =>
  call(ctx, who, "PATCH", `${path(id)}${conditionId}/`, body);
const applicationOf = async (who: Session, id: string) =>
  expectJson<ApplicationJson>(await call(ctx, who, "GET", `/api/v1/applications/${id}/`));
const outbox = async (applicationId: string) =>
  (
    await expectJson<Paged<{ event: string; subject: string }>>(
      await call(ctx, admin, "GET", `/api/v1/staff/outbox/?applicationId=${applicationId}`),
    )
  ).results;

/** Access tokens live 15 minutes of the test clock: time travel is undone before HTTP calls. */
async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const start = ctx.clock.now();
  ctx.clock.advance(ms);
  try {
    return await work();
  } finally {
    ctx.clock.set(start);
  }
}

/**
 * A conditional offer with two conditions: one as text, one with its own due date. Its program
 * asks for a transcript (uploaded before submission), so a later transcript can be evidence.
 */
async function conditionalOffer(dueInDays = 30) {
  const program = await createProgram(ctx, admin, { requiredDocuments: ["transcript"] });
  const intake = await createIntake(ctx, admin, program.id);
  const applicant = await signIn(ctx);
  const draft = await createDraft(ctx, applicant, intake.id);
  await uploaded(ctx, applicant, draft.id, "transcript");
  await expectJson(await call(ctx, applicant, "POST", `/api/v1/applications/${draft.id}/submit/`));
  const application = await expectJson<ApplicationJson>(
    await move(ctx, reviewer, draft.id, "under_review"),
  );
  const dueAt = new Date(ctx.clock.now() + dueInDays * DAY).toISOString();
  const offered = await expectJson<ApplicationJson>(
    await decide(ctx, admin, application.id, {
      decision: "conditional_offer",
      conditions: ["Grade B in Mathematics", { description: "IELTS 6.5", dueAt }],
    }),
  );
  return { intake, applicant, application: offered, dueAt };
}

describe("conditions as records", () => {
  test("a conditional offer writes one pending record per condition; the old string form stays", async () => {
    const { applicant, application, dueAt } = await conditionalOffer();
    expect(application.status).toBe("conditionally_offered");
    expect(application.offer?.conditions).toEqual(["Grade B in Mathematics", "IELTS 6.5"]);
    const list = await read(applicant, application.id);
    expect(list).toMatchObject({
      applicationId: application.id,
      applicationStatus: "conditionally_offered",
      unconditionalAt: null,
    });
    expect(list.conditions.map((c) => [c.position, c.description, c.status])).toEqual([
      [1, "Grade B in Mathematics", "pending"],
      [2, "IELTS 6.5", "pending"],
    ]);
    // The default due date comes from ADMISSIONS_CONDITION_DUE_DAYS (90); the second its own.
    expect(list.conditions[0]?.dueAt).toBe(new Date(ctx.clock.now() + 90 * DAY).toISOString());
    expect(list.conditions[1]?.dueAt).toBe(dueAt);
  });

  test("a due date in the past or years away is 422 naming the condition; nothing is written", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await applicationUnderReview(ctx, reviewer, intake.id);
    for (const dueAt of [
      new Date(ctx.clock.now() - DAY).toISOString(),
      new Date(ctx.clock.now() + 800 * DAY).toISOString(),
    ]) {
      const res = await decide(ctx, admin, application.id, {
        decision: "conditional_offer",
        conditions: ["Fine", { description: "Bad date", dueAt }],
      });
      const problem = await problemWith(res);
      expect(res.status).toBe(422);
      expect(JSON.stringify(problem)).toContain("/body/conditions/1/dueAt");
    }
    expect((await read(admin, application.id)).conditions).toEqual([]);
    expect((await applicationOf(admin, application.id)).status).toBe("under_review");
  });

  test("all met or waived: the offer becomes unconditional, the applicant is told, and can accept", async () => {
    const { applicant, application } = await conditionalOffer();
    const [first, second] = (await read(admin, application.id)).conditions;
    if (!first || !second) throw new Error("two conditions expected");
    const evidence = await uploaded(ctx, applicant, application.id, "transcript");
    const afterFirst = await expectJson<ConditionList>(
      await settle(admin, application.id, first.id, {
        status: "met",
        note: "Transcript checked",
        evidenceDocumentId: evidence.id,
      }),
    );
    expect(afterFirst.conditions[0]).toMatchObject({
      status: "met",
      note: "Transcript checked",
      evidenceDocumentId: evidence.id,
      verifiedBy: admin.user.id,
      verifiedAt: new Date(ctx.clock.now()).toISOString(),
    });
    expect(afterFirst.unconditionalAt).toBeNull();
    const done = await expectJson<ConditionList>(
      await settle(admin, application.id, second.id, { status: "waived", note: "Native speaker" }),
    );
    expect(done.unconditionalAt).toBe(new Date(ctx.clock.now()).toISOString());
    expect(done.applicationStatus).toBe("conditionally_offered");
    const now = await applicationOf(applicant, application.id);
    expect(now.offer?.conditions).toEqual([]);
    expect(now.version).toBe(application.version + 1);
    // The applicant sees the records, but not which staff member settled them.
    const seen = await read(applicant, application.id);
    expect(seen.conditions.map((c) => c.verifiedBy)).toEqual([null, null]);
    expect(seen.conditions.map((c) => c.status)).toEqual(["met", "waived"]);
    expect((await outbox(application.id)).map((e) => e.event)).toContain("conditions_met");
    // Settled: no more changes, and the offer can no longer end for its conditions.
    const again = await settle(admin, application.id, first.id, { status: "not_met" });
    expect([again.status, (await problemWith(again)).code]).toEqual([409, "CONDITIONS_CLOSED"]);
    const accepted = await call(
      ctx,
      applicant,
      "POST",
      `/api/v1/applications/${application.id}/accept/`,
    );
    expect((await expectJson<ApplicationJson>(accepted)).status).toBe("accepted");
    const ended = await move(ctx, admin, application.id, "conditions_not_met");
    expect([ended.status, (await problemWith(ended)).code]).toEqual([409, "CONDITIONS_MET"]);
  });

  test("after acceptance, the last condition met confirms the place (status stays accepted)", async () => {
    const { applicant, application } = await conditionalOffer();
    await expectJson(
      await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/accept/`),
    );
    const [first, second] = (await read(admin, application.id)).conditions;
    if (!first || !second) throw new Error("two conditions expected");
    await expectJson(await settle(admin, application.id, first.id, { status: "met" }));
    const done = await expectJson<ConditionList>(
      await settle(admin, application.id, second.id, { status: "met" }),
    );
    expect(done).toMatchObject({ applicationStatus: "accepted" });
    expect(done.unconditionalAt).not.toBeNull();
    const subjects = (await outbox(application.id)).map((e) => e.subject);
    expect(subjects.some((s) => s.startsWith("Your place is confirmed"))).toBe(true);
  });

  test("a condition not met ends the offer: conditions_not_met, the seat frees", async () => {
    const { intake, applicant, application } = await conditionalOffer();
    const [first] = (await read(admin, application.id)).conditions;
    if (!first) throw new Error("a condition expected");
    const res = await settle(admin, application.id, first.id, {
      status: "not_met",
      note: "Grade C",
    });
    expect((await expectJson<ConditionList>(res)).applicationStatus).toBe("conditions_not_met");
    expect((await applicationOf(applicant, application.id)).status).toBe("conditions_not_met");
    const seats = await expectJson<{ held: number }>(
      await call(ctx, admin, "GET", `/api/v1/staff/intakes/${intake.id}/seats/`),
    );
    expect(seats.held).toBe(0);
  });

  test("pending at the due date: the jobs end the offer once, as the system", async () => {
    const { applicant, application } = await conditionalOffer(5);
    const [first] = (await read(admin, application.id)).conditions;
    if (!first) throw new Error("a condition expected");
    await expectJson(await settle(admin, application.id, first.id, { status: "met" }));
    const jobs = testJobs(ctx, recordingMailer().mailer);
    const counts = await later(4 * DAY, () => settleOverdueConditions(jobs));
    expect(counts).toBe(0);
    const passes = await later(5 * DAY + 1, () =>
      Promise.all([settleOverdueConditions(jobs), settleOverdueConditions(jobs)]),
    );
    expect(passes.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await later(6 * DAY, () => runJobsOnce(jobs))).toMatchObject({ conditionsNotMet: 0 });
    const list = await read(applicant, application.id);
    expect(list.applicationStatus).toBe("conditions_not_met");
    expect(list.conditions.map((c) => [c.status, c.note])).toEqual([
      ["met", null],
      ["not_met", "Not met by its due date"],
    ]);
    const history = await expectJson<Paged<{ to: string; actor: { role: string } }>>(
      await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/history/`),
    );
    expect(history.results.filter((t) => t.to === "conditions_not_met")).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ role: "system" }) }),
    ]);
  });
});

describe("the applicant's evidence, one condition at a time", () => {
  const evidence = (who: Session, id: string, conditionId: string, documentId: string) =>
    call(ctx, who, "PUT", `${path(id)}${conditionId}/evidence/`, { documentId });

  test("uploaded as condition_evidence and named for a pending condition; named again to replace it", async () => {
    const { applicant, application } = await conditionalOffer();
    const [grade, ielts] = (await read(applicant, application.id)).conditions;
    const first = await uploaded(ctx, applicant, application.id, "condition_evidence");
    expect(first.type).toBe("condition_evidence");
    const named = await expectJson<ConditionList>(
      await evidence(applicant, application.id, ielts?.id ?? "", first.id),
    );
    expect(named.conditions.map((c) => [c.description, c.evidenceDocumentId, c.status])).toEqual([
      ["Grade B in Mathematics", null, "pending"],
      ["IELTS 6.5", first.id, "pending"],
    ]);
    const better = await uploaded(ctx, applicant, application.id, "condition_evidence");
    const replaced = await expectJson<ConditionList>(
      await evidence(applicant, application.id, ielts?.id ?? "", better.id),
    );
    expect(replaced.conditions[1]?.evidenceDocumentId).toBe(better.id);
    // Settled by the office: no more evidence for it (the other is still open).
    await expectJson(await settle(admin, application.id, grade?.id ?? "", { status: "met" }));
    const late = await evidence(applicant, application.id, grade?.id ?? "", better.id);
    expect((await problemWith(late)).code).toBe("CONDITION_SETTLED");
  });

  test("refused: a draft's evidence upload, another applicant, staff, a document of another application, an unknown condition", async () => {
    const { applicant, application } = await conditionalOffer();
    const [first] = (await read(applicant, application.id)).conditions;
    const conditionId = first?.id ?? "";
    const { intake } = await intakeWithSeats(ctx, admin);
    const other = await signIn(ctx);
    const draft = await createDraft(ctx, other, intake.id);
    const draftUpload = await upload(ctx, other, draft.id, "condition_evidence", {
      bytes: pdf(),
      filename: "proof.pdf",
      contentType: "application/pdf",
    });
    expect(draftUpload.status).toBe(422);
    expect((await problemWith(draftUpload)).errors?.[0]).toMatchObject({
      path: "/body/type",
      rule: "notAllowed",
    });
    const mine = await uploaded(ctx, applicant, application.id, "condition_evidence");
    expect((await evidence(other, application.id, conditionId, mine.id)).status).toBe(404);
    expect((await evidence(admin, application.id, conditionId, mine.id)).status).toBe(403);
    const second = await conditionalOffer();
    const theirs = await uploaded(
      ctx,
      second.applicant,
      second.application.id,
      "condition_evidence",
    );
    const foreign = await evidence(applicant, application.id, conditionId, theirs.id);
    expect(foreign.status).toBe(422);
    expect((await problemWith(foreign)).errors?.[0]).toMatchObject({
      path: "/body/documentId",
      rule: "notFound",
    });
    const unknown = await evidence(applicant, application.id, crypto.randomUUID(), mine.id);
    expect(unknown.status).toBe(404);
  });

  test("once the offer no longer stands: 409 CONDITIONS_CLOSED", async () => {
    const { applicant, application } = await conditionalOffer();
    const [first] = (await read(applicant, application.id)).conditions;
    const proof = await uploaded(ctx, applicant, application.id, "condition_evidence");
    await expectJson(
      await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/withdraw/`, {}),
    );
    const closed = await evidence(applicant, application.id, first?.id ?? "", proof.id);
    expect((await problemWith(closed)).code).toBe("CONDITIONS_CLOSED");
  });
});

describe("who may read and settle conditions", () => {
  test("applicants and reviewers cannot settle; another applicant cannot see; evidence must be the application's", async () => {
    const { applicant, application } = await conditionalOffer();
    const [first] = (await read(admin, application.id)).conditions;
    if (!first) throw new Error("a condition expected");
    const other = await signIn(ctx);
    const mine = await settle(applicant, application.id, first.id, { status: "met" });
    expect(mine.status).toBe(403);
    const byReviewer = await settle(reviewer, application.id, first.id, { status: "met" });
    expect(byReviewer.status).toBe(403);
    expect((await call(ctx, other, "GET", path(application.id))).status).toBe(404);
    expect((await call(ctx, reviewer, "GET", path(application.id))).status).toBe(200);
    // A document of another application is refused as evidence.
    const elsewhere = await conditionalOffer();
    const foreign = await uploaded(
      ctx,
      elsewhere.applicant,
      elsewhere.application.id,
      "transcript",
    );
    const res = await settle(admin, application.id, first.id, {
      status: "met",
      evidenceDocumentId: foreign.id,
    });
    expect(res.status).toBe(422);
    // A condition id of another application is a 404 here.
    const [theirs] = (await read(admin, elsewhere.application.id)).conditions;
    if (!theirs) throw new Error("a condition expected");
    expect((await settle(admin, application.id, theirs.id, { status: "met" })).status).toBe(404);
    expect((await read(admin, application.id)).conditions[0]?.status).toBe("pending");
  });

  test("no conditions to settle once the application left the offer (withdrawn)", async () => {
    const { applicant, application } = await conditionalOffer();
    const [first] = (await read(admin, application.id)).conditions;
    if (!first) throw new Error("a condition expected");
    await expectJson(
      await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/withdraw/`),
    );
    const res = await settle(admin, application.id, first.id, { status: "met" });
    expect([res.status, (await problemWith(res)).code]).toEqual([409, "CONDITIONS_CLOSED"]);
  });
});
