import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { identifiedApplication, leaksIn, reviewedProgram } from "./blind-review-support.ts";
import { type ApplicationJson, type Paged, signIn, suiteWithStaff } from "./support.ts";
import { call, decide, expectJson } from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();

/** A blind-review program's application, under review by the reviewer (or only submitted). */
const application = (intakeId: string, tag: string, assign = true) =>
  identifiedApplication(ctx, admin, reviewer, intakeId, tag, assign);

const blind = await reviewedProgram(ctx, admin, reviewer, true);
const open = await reviewedProgram(ctx, admin, reviewer, false);
const seen = await application(blind.intake.id, "Alpha");
// A second blind application, waitlisted, for the intake's waitlist view.
const waiting = await application(blind.intake.id, "Beta");
await expectJson(await decide(ctx, admin, waiting.application.id, { decision: "waitlist" }));
const control = await application(open.intake.id, "Gamma");

describe("blind review: nothing identifying reaches a reviewer", () => {
  // Every route, as the reviewer, with the ids of a whole cycle: blind-review.walk.test.ts.
  test("the download's Content-Disposition carries a neutral file name", async () => {
    const path = `/api/v1/applications/${seen.application.id}/documents/${seen.doc.id}/file/`;
    const res = await call(ctx, reviewer, "GET", path);
    expect(res.status).toBe(200);
    const disposition = res.headers.get("content-disposition") ?? "";
    expect(disposition).toContain("transcript-");
    expect(disposition.toLowerCase()).not.toContain("quillfeather");
    const asAdmin = await call(ctx, admin, "GET", path);
    expect(asAdmin.headers.get("content-disposition")).toContain("QuillfeatherAlpha");
  });

  test("the application reads as redacted, with everything else intact", async () => {
    const path = `/api/v1/applications/${seen.application.id}/`;
    const body = await expectJson<ApplicationJson>(await call(ctx, reviewer, "GET", path));
    expect(body.applicant).toEqual({
      id: seen.application.applicant.id,
      email: "",
      fullName: "Applicant (blind review)",
    });
    expect(body.priorInstitution).toBe("");
    expect(body.applicantProfile).toBeNull();
    expect(body.status).toBe("under_review");
    expect(body.program.id).toBe(blind.program.id);
  });

  test("responses to a reviewer's own writes are redacted too", async () => {
    const app = `/api/v1/applications/${seen.application.id}`;
    const writes: [string, string, unknown][] = [
      ["PUT", `${app}/reviews/mine/`, { scores: { academic_record: 4 }, recommendation: "offer" }],
      ["POST", `${app}/documents/${seen.doc.id}/review/`, { decision: "verified" }],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(ctx, reviewer, method, path, body);
      expect(res.status).toBe(200);
      expect(leaksIn(await res.text(), [seen.id])).toEqual([]);
    }
    // A move a reviewer makes answers with the application: redacted as well.
    const fresh = await application(blind.intake.id, "Delta", false);
    const moved = await call(
      ctx,
      reviewer,
      "POST",
      `/api/v1/applications/${fresh.application.id}/transitions/`,
      { to: "under_review" },
    );
    expect(moved.status).toBe(200);
    expect(leaksIn(await moved.text(), [fresh.id])).toEqual([]);
  });

  test("a reviewer's search does not find blind applicants by name or email", async () => {
    for (const term of ["Quillfeather", seen.id.email, "Zenobia Alpha"]) {
      const res = await call(
        ctx,
        reviewer,
        "GET",
        `/api/v1/applications/?search=${encodeURIComponent(term)}&programId=${blind.program.id}`,
      );
      const page = await expectJson<Paged<ApplicationJson>>(res);
      expect(page.results).toEqual([]);
      expect(page.count).toBe(0);
    }
    // The program's code still finds them, redacted.
    const byCode = await expectJson<Paged<ApplicationJson>>(
      await call(
        ctx,
        reviewer,
        "GET",
        `/api/v1/applications/?search=${encodeURIComponent(blind.program.code)}`,
      ),
    );
    expect(byCode.results.length).toBeGreaterThan(0);
    expect(byCode.results.every((a) => a.applicant.fullName === "Applicant (blind review)")).toBe(
      true,
    );
  });
});

describe("blind review applies to reviewers of that program only", () => {
  test("admins see the blind program's applicants in full", async () => {
    const res = await call(ctx, admin, "GET", `/api/v1/applications/${seen.application.id}/`);
    const body = await expectJson<ApplicationJson>(res);
    expect(body.applicant.fullName).toBe(seen.id.name);
    expect(body.priorInstitution).toBe(seen.id.institution);
    expect(body.applicantProfile?.legalName).toBe("Zenobia Legal Alpha");
    const search = await expectJson<Paged<ApplicationJson>>(
      await call(ctx, admin, "GET", "/api/v1/applications/?search=Quillfeather"),
    );
    expect(search.results.length).toBeGreaterThanOrEqual(3);
  });

  test("the applicant sees their own application in full", async () => {
    const path = `/api/v1/applications/${seen.application.id}/`;
    const body = await expectJson<ApplicationJson>(await call(ctx, seen.session, "GET", path));
    expect(body.applicant.fullName).toBe(seen.id.name);
    expect(body.priorInstitution).toBe(seen.id.institution);
  });

  test("a reviewer of a program without blind review sees the applicant", async () => {
    const res = await call(ctx, reviewer, "GET", "/api/v1/staff/queue/");
    const text = await res.text();
    expect(text).toContain(control.id.name);
    expect(leaksIn(text, [seen.id, waiting.id])).toEqual([]);
  });

  test("an application's reviews say whether its program is reviewed blind, to every reader", async () => {
    const reviewsOf = async (who: typeof admin, applicationId: string) =>
      (
        await expectJson<{ blindReview: boolean }>(
          await call(ctx, who, "GET", `/api/v1/applications/${applicationId}/reviews/`),
        )
      ).blindReview;
    for (const who of [admin, reviewer]) {
      expect(await reviewsOf(who, seen.application.id)).toBe(true);
      expect(await reviewsOf(who, control.application.id)).toBe(false);
    }
  });

  test("turning blind review off shows the names again (nothing was overwritten)", async () => {
    const base = `/api/v1/staff/programs/${blind.program.id}/review-settings/`;
    await expectJson(
      await call(ctx, admin, "PUT", base, { blindReview: false, disagreementThreshold: null }),
    );
    const res = await call(ctx, reviewer, "GET", `/api/v1/applications/${seen.application.id}/`);
    expect((await expectJson<ApplicationJson>(res)).applicant.fullName).toBe(seen.id.name);
    const reviews = await call(
      ctx,
      reviewer,
      "GET",
      `/api/v1/applications/${seen.application.id}/reviews/`,
    );
    expect((await expectJson<{ blindReview: boolean }>(reviews)).blindReview).toBe(false);
    await expectJson(
      await call(ctx, admin, "PUT", base, { blindReview: true, disagreementThreshold: null }),
    );
  });
});

describe("review settings", () => {
  const path = () => `/api/v1/staff/programs/${blind.program.id}/review-settings/`;

  test("admins read and set them; the change is audited", async () => {
    const body = await expectJson<Record<string, unknown>>(
      await call(ctx, admin, "PUT", path(), { blindReview: true, disagreementThreshold: 1.25 }),
    );
    expect(body).toEqual({
      programId: blind.program.id,
      blindReview: true,
      disagreementThreshold: 1.25,
      effectiveThreshold: 1.25,
    });
    expect(await expectJson(await call(ctx, admin, "GET", path()))).toEqual(body);
    const audit = await expectJson<Paged<{ action: string; details: Record<string, unknown> }>>(
      await call(ctx, admin, "GET", "/api/v1/staff/audit/?action=program.review_settings_set"),
    );
    expect(audit.results[0]?.details).toMatchObject({
      after: { blindReview: true, disagreementThreshold: 1.25 },
    });
    await call(ctx, admin, "PUT", path(), { blindReview: true, disagreementThreshold: null });
  });

  test("reviewers and applicants cannot read or change them", async () => {
    const applicant = await signIn(ctx);
    for (const who of [reviewer, applicant]) {
      expect((await problemOf(await call(ctx, who, "GET", path()))).code).toBe("FORBIDDEN");
      const res = await call(ctx, who, "PUT", path(), {
        blindReview: false,
        disagreementThreshold: null,
      });
      expect((await problemOf(res)).code).toBe("FORBIDDEN");
    }
  });

  test("bad input is 422, an unknown program 404", async () => {
    for (const body of [
      { blindReview: "yes", disagreementThreshold: null },
      { blindReview: true, disagreementThreshold: 0 },
      { blindReview: true, disagreementThreshold: -1 },
      { blindReview: true, disagreementThreshold: 101 },
      { blindReview: true },
    ]) {
      expect((await call(ctx, admin, "PUT", path(), body)).status).toBe(422);
    }
    const unknown = `/api/v1/staff/programs/${crypto.randomUUID()}/review-settings/`;
    expect((await problemOf(await call(ctx, admin, "GET", unknown))).code).toBe("NOT_FOUND");
    const res = await call(ctx, admin, "PUT", unknown, {
      blindReview: true,
      disagreementThreshold: null,
    });
    expect((await problemOf(res)).code).toBe("NOT_FOUND");
  });
});
