import { describe, expect, test } from "bun:test";
import type { Deferral, StaffDeferral } from "../src/modules/offers/model.ts";
import { createIntake, createProgram, type Paged, signIn, suiteWithStaff } from "./support.ts";
import { applicationUnderReview, call, decide, expectJson } from "./workflow-support.ts";

/*
 * The office's list of deferral requests across applications (GET /staff/deferrals/): what the
 * staff pages show so a request is not missed until someone opens its application.
 */

const { ctx, admin, reviewer } = await suiteWithStaff();
const program = await createProgram(ctx, admin);
const now = await createIntake(ctx, admin, program.id, { closesInDays: 30 });
const later = await createIntake(ctx, admin, program.id, { closesInDays: 400 });

/** An accepted place in this year's intake whose applicant asks to start in the later one. */
async function requested(reason: string) {
  const { applicant, application } = await applicationUnderReview(ctx, reviewer, now.id);
  await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
  await expectJson(
    await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/accept/`),
  );
  const deferral = await expectJson<Deferral>(
    await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/deferrals/`, {
      toIntakeId: later.id,
      reason,
    }),
    201,
  );
  return { applicant, application, deferral };
}

const list = async (query = "") =>
  expectJson<Paged<StaffDeferral>>(
    await call(ctx, admin, "GET", `/api/v1/staff/deferrals/${query}`),
  );

describe("the office's deferral requests", () => {
  test("oldest first, with the applicant and program; filtered by status; paged", async () => {
    const first = await requested("Military service");
    const second = await requested("Illness in the family");
    const third = await requested("A job offer");
    const all = await list("?status=requested");
    const ids = all.results.map((d) => d.id);
    expect(ids).toEqual([first.deferral.id, second.deferral.id, third.deferral.id]);
    expect(all.count).toBe(3);
    expect(all.results[0]).toMatchObject({
      applicationId: first.application.id,
      status: "requested",
      reason: "Military service",
      fromIntake: { id: now.id },
      toIntake: { id: later.id },
      applicant: { id: first.applicant.user.id, fullName: first.applicant.user.fullName },
      program: { id: program.id, code: program.code, name: program.name },
    });

    // Refused and approved ones leave the waiting list but stay in the whole one.
    await expectJson(
      await call(
        ctx,
        admin,
        "POST",
        `/api/v1/applications/${first.application.id}/deferrals/${first.deferral.id}/refuse/`,
        { note: "Not this year" },
      ),
    );
    await expectJson(
      await call(
        ctx,
        admin,
        "POST",
        `/api/v1/applications/${second.application.id}/deferrals/${second.deferral.id}/approve/`,
      ),
    );
    expect((await list("?status=requested")).results.map((d) => d.id)).toEqual([third.deferral.id]);
    const refused = await list("?status=refused");
    expect(refused.results).toHaveLength(1);
    expect(refused.results[0]).toMatchObject({ status: "refused", decisionNote: "Not this year" });
    expect((await list("?status=approved")).results.map((d) => d.id)).toEqual([second.deferral.id]);
    expect((await list()).count).toBe(3);

    // Paged like every list: two, then the third, with the links.
    const page1 = await list("?limit=2");
    expect(page1.results.map((d) => d.id)).toEqual([first.deferral.id, second.deferral.id]);
    expect(page1.next).toBe("/api/v1/staff/deferrals/?limit=2&offset=2");
    const page2 = await list("?limit=2&offset=2");
    expect(page2.results.map((d) => d.id)).toEqual([third.deferral.id]);
    expect(page2.next).toBeNull();
  });

  test("admins only; a status that is not one is 422", async () => {
    const applicant = await signIn(ctx);
    for (const who of [reviewer, applicant]) {
      const res = await call(ctx, who, "GET", "/api/v1/staff/deferrals/");
      expect(res.status).toBe(403);
    }
    expect((await call(ctx, admin, "GET", "/api/v1/staff/deferrals/?status=maybe")).status).toBe(
      422,
    );
    expect((await call(ctx, admin, "GET", "/api/v1/staff/deferrals/?limit=0")).status).toBe(422);
  });
});
