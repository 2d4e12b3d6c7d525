import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import type { SubmissionChecks } from "../src/modules/applications/service.ts";
import {
  type ApplicationJson,
  as,
  createDraft,
  createIntake,
  createProgram,
  json,
  logIn,
  move,
  type Paged,
  setupApp,
  signIn,
  suiteWithStaff,
  type TestContext,
} from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;

/** A program (no documents, no fee unless overridden) with one intake open now. */
async function openIntake(
  on: TestContext = ctx,
  staff = admin,
  program: Record<string, unknown> = {},
) {
  const created = await createProgram(on, staff, program);
  return createIntake(on, staff, created.id);
}

const body = async (res: Response) => (await res.json()) as ApplicationJson;

describe("drafts", () => {
  test("an applicant starts a draft: 201, version 1 as ETag, program and intake named", async () => {
    const applicant = await signIn(ctx);
    const intake = await openIntake();
    const res = await app.handle(
      as(applicant, "POST", "/api/v1/applications/", {
        intakeId: intake.id,
        personalStatement: "Because.",
        graduationYear: 2024,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBe('"1"');
    const draft = await body(res);
    expect(draft).toMatchObject({
      status: "draft",
      version: 1,
      applicant: { id: applicant.user.id, email: applicant.user.email },
      program: { id: intake.programId },
      intake: { id: intake.id, term: intake.term },
      personalStatement: "Because.",
      graduationYear: 2024,
      submittedAt: null,
    });
  });

  test("one application per program and intake: 409 APPLICATION_EXISTS", async () => {
    const applicant = await signIn(ctx);
    const intake = await openIntake();
    await createDraft(ctx, applicant, intake.id);
    const res = await app.handle(
      as(applicant, "POST", "/api/v1/applications/", { intakeId: intake.id }),
    );
    expect((await problemOf(res)).code).toBe("APPLICATION_EXISTS");
    const someoneElse = await signIn(ctx);
    await createDraft(ctx, someoneElse, intake.id);
  });

  test("closed, not yet open, inactive and unknown intakes are refused with their codes", async () => {
    const applicant = await signIn(ctx);
    const program = await createProgram(ctx, admin);
    const past = await createIntake(ctx, admin, program.id, { opensInDays: -60, closesInDays: -1 });
    const future = await createIntake(ctx, admin, program.id, { opensInDays: 3, closesInDays: 60 });
    const inactive = await openIntake(ctx, admin, { active: false });
    const cases: [string, string | number][] = [
      [past.id, "APPLICATION_DEADLINE_PASSED"],
      [future.id, "INTAKE_NOT_OPEN"],
      [inactive.id, "PROGRAM_INACTIVE"],
      [crypto.randomUUID(), 422],
    ];
    for (const [intakeId, expected] of cases) {
      const res = await app.handle(as(applicant, "POST", "/api/v1/applications/", { intakeId }));
      if (typeof expected === "number") expect(res.status).toBe(expected);
      else expect((await problemOf(res)).code).toBe(expected);
    }
  });

  test("a full-length statement in any script fits; longer is 422, far larger 413", async () => {
    const applicant = await signIn(ctx);
    const intake = await openIntake();
    const longest = "志".repeat(20_000);
    const draft = await createDraft(ctx, applicant, intake.id, { personalStatement: longest });
    expect(draft.personalStatement).toBe(longest);
    const patch = (statement: string) =>
      app.handle(
        as(applicant, "PATCH", `/api/v1/applications/${draft.id}/`, {
          personalStatement: statement,
        }),
      );
    expect((await patch("x".repeat(20_001))).status).toBe(422);
    expect((await patch("x".repeat(300_000))).status).toBe(413);
  });

  test("staff cannot apply (403)", async () => {
    const intake = await openIntake();
    const res = await app.handle(
      as(reviewer, "POST", "/api/v1/applications/", { intakeId: intake.id }),
    );
    expect(res.status).toBe(403);
  });
});

describe("editing a draft with optimistic locking", () => {
  test("PATCH changes the sent fields and bumps the version", async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id, {
      priorInstitution: "A",
    });
    const res = await app.handle(
      as(applicant, "PATCH", `/api/v1/applications/${draft.id}/`, {
        personalStatement: "New",
        version: 1,
      }),
    );
    expect(res.headers.get("etag")).toBe('"2"');
    expect(await body(res)).toMatchObject({
      personalStatement: "New",
      priorInstitution: "A",
      version: 2,
    });
  });

  test('a stale If-Match is 412; a stale body version 409; "*" and no precondition apply', async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id);
    const patch = (form: Record<string, unknown>, ifMatch?: string) =>
      app.handle(
        json("PATCH", `/api/v1/applications/${draft.id}/`, form, {
          token: applicant.accessToken,
          headers: ifMatch ? { "if-match": ifMatch } : {},
        }),
      );
    expect((await patch({ priorQualification: "x" }, '"1"')).status).toBe(200);
    const stale = await patch({ priorQualification: "y" }, '"1"');
    expect(stale.status).toBe(412);
    expect((await problemOf(stale)).code).toBe("PRECONDITION_FAILED");
    const staleBody = await patch({ priorQualification: "y", version: 1 });
    expect((await problemOf(staleBody)).code).toBe("VERSION_CONFLICT");
    expect((await patch({ priorQualification: "z" }, 'W/"2"')).status).toBe(200);
    expect((await patch({ priorQualification: "z" }, "*")).status).toBe(200);
    expect((await patch({ priorQualification: "w" })).status).toBe(200);
    expect((await patch({ priorQualification: "w" }, "3")).status).toBe(400);
  });

  test("concurrent moves from the same version: exactly one wins, the other 409", async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id);
    const results = await Promise.all([
      app.handle(
        as(applicant, "PATCH", `/api/v1/applications/${draft.id}/`, {
          priorQualification: "a",
          version: 1,
        }),
      ),
      move(ctx, applicant, draft.id, "submitted", { version: 1 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  test("only drafts are editable (409 APPLICATION_NOT_EDITABLE), only by their applicant (403)", async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id);
    const asStaff = await app.handle(
      as(admin, "PATCH", `/api/v1/applications/${draft.id}/`, { personalStatement: "x" }),
    );
    expect(asStaff.status).toBe(403);
    await app.handle(as(applicant, "POST", `/api/v1/applications/${draft.id}/submit/`));
    const res = await app.handle(
      as(applicant, "PATCH", `/api/v1/applications/${draft.id}/`, { personalStatement: "late" }),
    );
    expect((await problemOf(res)).code).toBe("APPLICATION_NOT_EDITABLE");
  });
});

describe("submission guards", () => {
  const submit = (on: TestContext, who: Parameters<typeof as>[0], id: string) =>
    on.app.handle(as(who, "POST", `/api/v1/applications/${id}/submit/`));

  test("an open intake, no documents, no fee: submitted, with submittedAt", async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id);
    const res = await submit(ctx, applicant, draft.id);
    expect(res.status).toBe(200);
    const submitted = await body(res);
    expect(submitted.status).toBe("submitted");
    expect(submitted.submittedAt).toBe(new Date(ctx.clock.now()).toISOString());
  });

  test("required documents not on file: 409 REQUIRED_DOCUMENTS_MISSING listing them", async () => {
    const applicant = await signIn(ctx);
    const intake = await openIntake(ctx, admin, { requiredDocuments: ["transcript", "cv"] });
    const draft = await createDraft(ctx, applicant, intake.id);
    const res = await submit(ctx, applicant, draft.id);
    expect(res.status).toBe(409);
    const problem = (await problemOf(res)) as { code: string; missing?: string[] };
    expect(problem.code).toBe("REQUIRED_DOCUMENTS_MISSING");
    expect(problem.missing).toEqual(["transcript", "cv"]);
  });

  test("a fee not paid: 409 APPLICATION_FEE_UNPAID, stating the amount", async () => {
    const applicant = await signIn(ctx);
    const intake = await openIntake(ctx, admin, {
      applicationFee: { amount: 7500, currency: "EUR" },
    });
    const draft = await createDraft(ctx, applicant, intake.id);
    const problem = await problemOf(await submit(ctx, applicant, draft.id));
    expect(problem.code).toBe("APPLICATION_FEE_UNPAID");
    expect(problem.detail).toContain("€75.00");
  });

  test("the deadline passing after the draft was started: 409 APPLICATION_DEADLINE_PASSED", async () => {
    const local = await setupApp();
    const staff = await signIn(local, "admin");
    const applicant = await signIn(local);
    const draft = await createDraft(local, applicant, (await openIntake(local, staff)).id);
    local.clock.advance(31 * 86_400_000);
    const later = await logIn(local, applicant.user.email); // the old access token has expired
    expect((await problemOf(await submit(local, later, draft.id))).code).toBe(
      "APPLICATION_DEADLINE_PASSED",
    );
  });

  test("the checks the documents and payments features plug in decide, in order", async () => {
    let documentsOnFile: string[] = [];
    let fee: "paid" | "waived" | "unpaid" = "unpaid";
    const seen: string[] = [];
    const checks: SubmissionChecks = {
      documents: {
        missingDocuments: async (_sql, id, required) => {
          seen.push(`documents:${id}`);
          return required.filter((type) => !documentsOnFile.includes(type));
        },
      },
      fees: {
        feeStatus: async (_sql, id) => {
          seen.push(`fee:${id}`);
          return fee;
        },
      },
    };
    const local = await setupApp({ submissionChecks: checks });
    const staff = await signIn(local, "admin");
    const applicant = await signIn(local);
    const intake = await openIntake(local, staff, {
      requiredDocuments: ["transcript"],
      applicationFee: { amount: 5000, currency: "GBP" },
    });
    const draft = await createDraft(local, applicant, intake.id);
    expect((await problemOf(await submit(local, applicant, draft.id))).code).toBe(
      "REQUIRED_DOCUMENTS_MISSING",
    );
    expect(seen).toEqual([`documents:${draft.id}`]);
    documentsOnFile = ["transcript"];
    expect((await problemOf(await submit(local, applicant, draft.id))).code).toBe(
      "APPLICATION_FEE_UNPAID",
    );
    fee = "waived";
    expect((await submit(local, applicant, draft.id)).status).toBe(200);
  });
});

describe("the lifecycle through the API", () => {
  test("offer path: a reviewer starts the review, an admin offers, the applicant accepts, an admin enrols", async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id);
    const steps: [Parameters<typeof move>[1], ApplicationJson["status"]][] = [
      [applicant, "submitted"],
      [reviewer, "under_review"],
      [admin, "offered"],
      [applicant, "accepted"],
      [admin, "enrolled"],
    ];
    for (const [who, to] of steps) {
      const res = await move(ctx, who, draft.id, to);
      expect(res.status).toBe(200);
      expect((await body(res)).status).toBe(to);
    }
    const final = await move(ctx, applicant, draft.id, "withdrawn");
    expect((await problemOf(final)).code).toBe("ILLEGAL_TRANSITION");
  });

  test("an illegal move is 409 ILLEGAL_TRANSITION whoever asks; a move for another role 403", async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id);
    const illegal = await move(ctx, admin, draft.id, "offered");
    expect(illegal.status).toBe(409);
    const problem = (await problemOf(illegal)) as { code: string; allowed?: string[] };
    expect(problem.code).toBe("ILLEGAL_TRANSITION");
    expect(problem.allowed).toEqual(["submitted", "withdrawn"]);
    expect((await problemOf(await move(ctx, reviewer, draft.id, "submitted"))).code).toBe(
      "TRANSITION_FORBIDDEN",
    );
    await move(ctx, applicant, draft.id, "submitted");
    expect((await problemOf(await move(ctx, applicant, draft.id, "under_review"))).code).toBe(
      "TRANSITION_FORBIDDEN",
    );
    expect((await move(ctx, applicant, draft.id, "bogus")).status).toBe(422);
  });

  test("withdraw works from any non-final status, by the applicant or an admin, not a reviewer", async () => {
    const applicant = await signIn(ctx);
    const intake = await openIntake();
    const draft = await createDraft(ctx, applicant, intake.id);
    const byReviewer = await app.handle(
      as(reviewer, "POST", `/api/v1/applications/${draft.id}/withdraw/`),
    );
    expect((await problemOf(byReviewer)).code).toBe("TRANSITION_FORBIDDEN");
    const res = await app.handle(
      as(applicant, "POST", `/api/v1/applications/${draft.id}/withdraw/`, {
        reason: "Changed my mind",
      }),
    );
    expect((await body(res)).status).toBe("withdrawn");
    const again = await app.handle(
      as(applicant, "POST", `/api/v1/applications/${draft.id}/withdraw/`),
    );
    expect((await problemOf(again)).code).toBe("ILLEGAL_TRANSITION");

    const other = await signIn(ctx);
    const second = await createDraft(ctx, other, intake.id);
    await move(ctx, other, second.id, "submitted");
    await move(ctx, reviewer, second.id, "under_review");
    const byAdmin = await app.handle(
      as(admin, "POST", `/api/v1/applications/${second.id}/withdraw/`),
    );
    expect((await body(byAdmin)).status).toBe("withdrawn");
  });

  test("every move is in the history: actor, from, to, reason, time; staff also see the IP", async () => {
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, (await openIntake()).id);
    await move(ctx, applicant, draft.id, "submitted");
    ctx.clock.advance(1_000);
    await move(ctx, reviewer, draft.id, "under_review", { reason: "Complete file" });
    const read = async (who: Parameters<typeof as>[0]) => {
      const res = await app.handle(as(who, "GET", `/api/v1/applications/${draft.id}/history/`));
      return (await res.json()) as Paged<Record<string, unknown>>;
    };
    const staffView = await read(admin);
    expect(staffView.count).toBe(3);
    expect(staffView.results.map((t) => [t.from, t.to])).toEqual([
      [null, "draft"],
      ["draft", "submitted"],
      ["submitted", "under_review"],
    ]);
    expect(staffView.results[2]).toMatchObject({
      actor: { id: reviewer.user.id, role: "reviewer" },
      reason: "Complete file",
      at: new Date(ctx.clock.now()).toISOString(),
    });
    expect(staffView.results[2]).toHaveProperty("clientIp");
    const own = await read(applicant);
    expect(own.results[1]).toMatchObject({ actor: { id: applicant.user.id, role: "applicant" } });
    expect(own.results[2]).toMatchObject({ actor: { id: null, role: "reviewer" }, clientIp: null });
  });
});
