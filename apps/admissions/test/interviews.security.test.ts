import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { interviewsContext, invited, PATH, slotBody } from "./interviews-support.ts";
import { json, signIn } from "./support.ts";
import { call } from "./workflow-support.ts";

const { ctx, admin, reviewer, intake } = await interviewsContext();
const { slot, applicant } = await invited(ctx, admin, [reviewer], intake.id);
const attacker = await signIn(ctx);

/** Every interview route with a body it would accept. */
const routes = (id: string): [string, string, unknown][] => [
  ["GET", `${PATH}${id}/`, undefined],
  ["POST", `${PATH}${id}/confirm/`, undefined],
  ["POST", `${PATH}${id}/reschedule-request/`, { note: "pwned" }],
  ["POST", `${PATH}${id}/cancel/`, { note: "pwned" }],
];
const adminRoutes = (id: string): [string, string, unknown][] => [
  ["POST", PATH, slotBody(ctx, [reviewer], 900)],
  ["POST", `${PATH}${id}/invite/`, { applicationId: id }],
  ["POST", `${PATH}${id}/reschedule/`, { startsAt: new Date(Date.now() + 9e8).toISOString() }],
];

describe("one applicant cannot see or change another's interview", () => {
  test.each(routes(slot.id))("%s %s → 404, as for an id that does not exist", async (m, p, b) => {
    const res = await call(ctx, attacker, m, p, b);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toContain(applicant.user.email);
    expect(text).not.toContain("meet.example.org");
  });

  test.each(routes(crypto.randomUUID()))("%s %s with a made-up id → 404", async (m, p, b) => {
    expect((await call(ctx, attacker, m, p, b)).status).toBe(404);
  });

  test("…and nothing changed: the interview is as the admin left it", async () => {
    const res = await call(ctx, applicant, "GET", `${PATH}${slot.id}/`);
    expect(await res.json()).toMatchObject({ status: "invited", applicantNote: null });
  });
});

describe("roles and credentials", () => {
  test.each(adminRoutes(slot.id))("%s %s: applicants and reviewers → 403", async (m, p, b) => {
    for (const who of [applicant, reviewer]) {
      expect((await call(ctx, who, m, p, b)).status).toBe(403);
    }
  });

  test.each([...routes(slot.id), ...adminRoutes(slot.id)])(
    "%s %s without credentials → 401",
    async (m, p, b) => {
      expect((await ctx.app.handle(json(m, p, b))).status).toBe(401);
    },
  );

  test.each([...routes(slot.id), ...adminRoutes(slot.id)].filter(([method]) => method !== "GET"))(
    "%s %s with the cookie but no CSRF header → 403 CSRF_TOKEN_MISSING",
    async (m, p, b) => {
      const who =
        p.includes("invite") || p.includes("reschedule/") || p === PATH ? admin : applicant;
      const res = await ctx.app.handle(json(m, p, b, { cookie: who.cookie }));
      expect(res.status).toBe(403);
      expect((await problemOf(res)).code).toBe("CSRF_TOKEN_MISSING");
    },
  );

  test("scoring is for staff: an applicant → 403, whatever the interview", async () => {
    const res = await call(ctx, applicant, "PUT", `${PATH}${slot.id}/scores/mine/`, { score: 5 });
    expect(res.status).toBe(403);
  });
});
