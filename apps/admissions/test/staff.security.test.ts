import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { json, signIn, suiteWithStaff } from "./support.ts";
import { call, intakeWithSeats, submittedApplication } from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const applicant = await signIn(ctx);
const { program, intake } = await intakeWithSeats(ctx, admin);
const { application } = await submittedApplication(ctx, intake.id);
const app = application.id;
/** The setup's own catalog edits are audited; the refused attempts below must add nothing. */
const auditCount = async () =>
  ((await (await call(ctx, admin, "GET", "/api/v1/staff/audit/")).json()) as { count: number })
    .count;
const auditedBefore = await auditCount();

/** Every staff route of issue 7, and who may call it. */
const ROUTES: [string, string, unknown, "staff" | "admin"][] = [
  [
    "POST",
    "/api/v1/staff/users/",
    { email: "x@example.org", fullName: "X", password: "long-enough-1", role: "reviewer" },
    "admin",
  ],
  ["GET", "/api/v1/staff/users/", undefined, "admin"],
  ["PATCH", `/api/v1/staff/users/${reviewer.user.id}/`, { active: false }, "admin"],
  ["GET", `/api/v1/staff/programs/${program.id}/reviewers/`, undefined, "staff"],
  ["PUT", `/api/v1/staff/programs/${program.id}/reviewers/`, { reviewerIds: [] }, "admin"],
  ["GET", `/api/v1/staff/programs/${program.id}/rubric/`, undefined, "staff"],
  [
    "PUT",
    `/api/v1/staff/programs/${program.id}/rubric/`,
    { scale: { min: 1, max: 5 }, criteria: [{ key: "a", label: "A", weight: 1 }] },
    "admin",
  ],
  ["GET", "/api/v1/staff/queue/", undefined, "staff"],
  ["POST", `/api/v1/applications/${app}/assignments/`, {}, "admin"],
  ["DELETE", `/api/v1/applications/${app}/assignments/${reviewer.user.id}/`, undefined, "admin"],
  ["GET", `/api/v1/applications/${app}/reviews/`, undefined, "staff"],
  [
    "PUT",
    `/api/v1/applications/${app}/reviews/mine/`,
    { scores: { a: 1 }, recommendation: "offer" },
    "staff",
  ],
  ["POST", `/api/v1/applications/${app}/conflict-of-interest/`, { reason: "x" }, "staff"],
  ["POST", `/api/v1/applications/${app}/decision/`, { decision: "reject" }, "admin"],
  ["GET", `/api/v1/staff/intakes/${intake.id}/seats/`, undefined, "staff"],
  ["GET", `/api/v1/staff/intakes/${intake.id}/waitlist/`, undefined, "staff"],
  ["POST", `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`, {}, "admin"],
  [
    "POST",
    "/api/v1/staff/applications/bulk-transitions/",
    { applicationIds: [app], to: "rejected" },
    "staff",
  ],
  ["GET", "/api/v1/staff/applications/export/", undefined, "admin"],
  ["GET", "/api/v1/staff/stats/", undefined, "staff"],
  ["GET", "/api/v1/staff/audit/", undefined, "admin"],
  ["GET", "/api/v1/staff/outbox/", undefined, "admin"],
];

describe("role checks on every staff route of the workflows", () => {
  test.each(
    ROUTES.map((route) => [`${route[0]} ${route[1].replace(/[0-9a-f-]{36}/g, ":id")}`, ...route]),
  )(
    "%s: anonymous 401, applicant 403 (and reviewer 403 where admins only)",
    async (_name, method, path, body, who) => {
      expect((await ctx.app.handle(json(method as string, path as string, body))).status).toBe(401);
      const asApplicant = await call(ctx, applicant, method as string, path as string, body);
      expect((await problemOf(asApplicant)).code).toBe("FORBIDDEN");
      if (who === "admin") {
        const asReviewer = await call(ctx, reviewer, method as string, path as string, body);
        expect((await problemOf(asReviewer)).code).toBe("FORBIDDEN");
      }
    },
  );

  test("nothing was changed by those attempts", async () => {
    const res = await call(ctx, admin, "GET", `/api/v1/applications/${app}/`);
    expect(((await res.json()) as { status: string }).status).toBe("submitted");
    expect(auditedBefore).toBe(2);
    expect(await auditCount()).toBe(auditedBefore);
  });
});
