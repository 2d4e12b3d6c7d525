import { describe, expect, test } from "bun:test";
import type { Reason } from "../src/modules/offers/model.ts";
import type { ReasonStats } from "../src/modules/staff/model.ts";
import { type ApplicationJson, move, type Paged, signIn, suiteWithStaff } from "./support.ts";
import {
  applicationUnderReview,
  call,
  decide,
  expectJson,
  intakeWithSeats,
  problemWith,
  submittedApplication,
} from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();

const list = async (who = admin, query = "") =>
  (await expectJson<{ results: Reason[] }>(await call(ctx, who, "GET", `/api/v1/reasons/${query}`)))
    .results;
const statsOf = async (intakeId: string) =>
  expectJson<ReasonStats>(
    await call(ctx, reviewer, "GET", `/api/v1/staff/stats/reasons/?intakeId=${intakeId}`),
  );

describe("the reasons list", () => {
  test("ships with codes per kind; everyone signed in reads the active ones", async () => {
    const applicant = await signIn(ctx);
    const declines = await list(applicant, "?kind=decline");
    expect(declines.map((r) => r.code)).toContain("accepted_elsewhere");
    expect(new Set(declines.map((r) => r.kind))).toEqual(new Set(["decline"]));
    expect((await ctx.app.handle(new Request("http://localhost/api/v1/reasons/"))).status).toBe(
      401,
    );
  });

  test("admins add, relabel and deactivate; codes are unique per kind; others cannot", async () => {
    const created = await call(ctx, admin, "POST", "/api/v1/reasons/", {
      kind: "withdrawal",
      code: "health",
      label: "Health reasons",
    });
    expect(await expectJson<Reason>(created, 201)).toMatchObject({ code: "health", active: true });
    const again = await call(ctx, admin, "POST", "/api/v1/reasons/", {
      kind: "withdrawal",
      code: "health",
      label: "Twice",
    });
    expect((await problemWith(again)).code).toBe("REASON_CODE_TAKEN");
    // The same code under another kind is another reason.
    const decline = await call(ctx, admin, "POST", "/api/v1/reasons/", {
      kind: "decline",
      code: "health",
      label: "Health reasons",
    });
    expect(decline.status).toBe(201);
    const bad = await call(ctx, admin, "POST", "/api/v1/reasons/", {
      kind: "withdrawal",
      code: "Not A Code",
      label: "x",
    });
    expect(bad.status).toBe(422);
    for (const who of [reviewer, await signIn(ctx)]) {
      const res = await call(ctx, who, "POST", "/api/v1/reasons/", {
        kind: "rejection",
        code: "nope",
        label: "No",
      });
      expect(res.status).toBe(403);
      const patch = await call(ctx, who, "PATCH", "/api/v1/reasons/withdrawal/health/", {
        active: false,
      });
      expect(patch.status).toBe(403);
    }
    const off = await call(ctx, admin, "PATCH", "/api/v1/reasons/withdrawal/health/", {
      active: false,
      label: "Health",
    });
    expect(await expectJson<Reason>(off)).toMatchObject({ label: "Health", active: false });
    expect((await list(reviewer, "?kind=withdrawal")).map((r) => r.code)).not.toContain("health");
    // Reviewers asking for inactive ones still get only active ones; admins get them.
    expect((await list(reviewer, "?active=false")).every((r) => r.active)).toBe(true);
    expect((await list(admin, "?active=false")).map((r) => r.code)).toContain("health");
    const missing = await call(ctx, admin, "PATCH", "/api/v1/reasons/withdrawal/nothing/", {
      active: false,
    });
    expect(missing.status).toBe(404);
  });
});

describe("moves with a reason code", () => {
  test("rejection, withdrawal and decline take a code of their kind; history and audit keep it", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const rejected = await applicationUnderReview(ctx, reviewer, intake.id);
    const res = await decide(ctx, admin, rejected.application.id, {
      decision: "reject",
      reasonCode: "academic_requirements",
      reason: "Mathematics below B",
    });
    expect((await expectJson<ApplicationJson>(res)).status).toBe("rejected");
    const history = await expectJson<Paged<{ to: string; reason: string; reasonCode: string }>>(
      await call(
        ctx,
        rejected.applicant,
        "GET",
        `/api/v1/applications/${rejected.application.id}/history/`,
      ),
    );
    expect(history.results.at(-1)).toMatchObject({
      to: "rejected",
      reason: "Mathematics below B",
      reasonCode: "academic_requirements",
    });
    const audit = await expectJson<Paged<{ details: Record<string, unknown> }>>(
      await call(
        ctx,
        admin,
        "GET",
        `/api/v1/staff/audit/?applicationId=${rejected.application.id}&action=application.transition`,
      ),
    );
    expect(audit.results[0]?.details.reasonCode).toBe("academic_requirements");

    const withdrawn = await submittedApplication(ctx, intake.id);
    const w = await call(
      ctx,
      withdrawn.applicant,
      "POST",
      `/api/v1/applications/${withdrawn.application.id}/withdraw/`,
      { reasonCode: "accepted_elsewhere" },
    );
    expect(w.status).toBe(200);

    const declined = await applicationUnderReview(ctx, reviewer, intake.id);
    await expectJson(await decide(ctx, admin, declined.application.id, { decision: "offer" }));
    const d = await call(
      ctx,
      declined.applicant,
      "POST",
      `/api/v1/applications/${declined.application.id}/decline/`,
      { reasonCode: "financial", reason: "Could not get funding" },
    );
    expect(d.status).toBe(200);

    // A move without a code still counts, under null.
    const plain = await submittedApplication(ctx, intake.id);
    await expectJson(
      await call(
        ctx,
        plain.applicant,
        "POST",
        `/api/v1/applications/${plain.application.id}/withdraw/`,
      ),
    );
    const stats = await statsOf(intake.id);
    expect(stats.rejection).toEqual([
      {
        code: "academic_requirements",
        label: "Does not meet the academic requirements",
        total: 1,
      },
    ]);
    expect(stats.decline).toEqual([{ code: "financial", label: "Financial reasons", total: 1 }]);
    expect(stats.withdrawal).toEqual([
      { code: null, label: null, total: 1 },
      { code: "accepted_elsewhere", label: "Accepted a place elsewhere", total: 1 },
    ]);
  });

  test("a code of another kind, an unknown or inactive one, or on another move is 422; nothing moves", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { applicant, application } = await applicationUnderReview(ctx, reviewer, intake.id);
    await expectJson(
      await call(ctx, admin, "PATCH", "/api/v1/reasons/rejection/other/", { active: false }),
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ decision: "reject", reasonCode: "accepted_elsewhere" }, "rejection"],
      [{ decision: "reject", reasonCode: "no_such_code" }, "rejection"],
      [{ decision: "reject", reasonCode: "other" }, "rejection"],
      [{ decision: "offer", reasonCode: "competition" }, "only"],
    ];
    for (const [body, mentions] of cases) {
      const res = await decide(ctx, admin, application.id, body);
      const problem = await problemWith(res);
      expect(res.status).toBe(422);
      expect(JSON.stringify(problem)).toContain("/body/reasonCode");
      expect(problem.detail).toContain(mentions);
    }
    const viaTable = await move(ctx, applicant, application.id, "withdrawn", {
      reasonCode: "competition",
    });
    expect(viaTable.status).toBe(422);
    const current = await expectJson<ApplicationJson>(
      await call(ctx, admin, "GET", `/api/v1/applications/${application.id}/`),
    );
    expect(current.status).toBe("under_review");
    await expectJson(
      await call(ctx, admin, "PATCH", "/api/v1/reasons/rejection/other/", { active: true }),
    );
  });

  test("a bulk rejection carries one code for every move; a bad code refuses the batch", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const ids = [];
    for (let i = 0; i < 2; i++) {
      ids.push((await applicationUnderReview(ctx, reviewer, intake.id)).application.id);
    }
    const path = "/api/v1/staff/applications/bulk-transitions/";
    const bad = await call(ctx, admin, "POST", path, {
      applicationIds: ids,
      to: "rejected",
      reasonCode: "financial",
    });
    expect((await problemWith(bad)).code).toBe("BULK_REFUSED");
    const res = await call(ctx, admin, "POST", path, {
      applicationIds: ids,
      to: "rejected",
      reasonCode: "competition",
    });
    expect((await expectJson<{ moved: number }>(res)).moved).toBe(2);
    expect((await statsOf(intake.id)).rejection).toEqual([
      { code: "competition", label: "Stronger applications for the places available", total: 2 },
    ]);
  });

  test("stats by reason are staff only", async () => {
    const applicant = await signIn(ctx);
    const res = await call(ctx, applicant, "GET", "/api/v1/staff/stats/reasons/");
    expect(res.status).toBe(403);
  });
});
