import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import {
  type ApplicationJson,
  as,
  createDraft,
  createIntake,
  createProgram,
  json,
  type Paged,
  type ProgramJson,
  signIn,
  suiteWithStaff,
} from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;
const victim = await signIn(ctx);
const attacker = await signIn(ctx);
const program = await createProgram(ctx, admin);
const intake = await createIntake(ctx, admin, program.id);
const victimDraft = await createDraft(ctx, victim, intake.id, { personalStatement: "private" });

/** Every route that takes an application id, with a body it would accept. */
const applicationRoutes = (id: string): [string, string, unknown][] => [
  ["GET", `/api/v1/applications/${id}/`, undefined],
  ["PATCH", `/api/v1/applications/${id}/`, { personalStatement: "pwned" }],
  ["POST", `/api/v1/applications/${id}/submit/`, undefined],
  ["POST", `/api/v1/applications/${id}/withdraw/`, { reason: "pwned" }],
  ["POST", `/api/v1/applications/${id}/transitions/`, { to: "withdrawn" }],
  ["GET", `/api/v1/applications/${id}/history/`, undefined],
  ["GET", `/api/v1/applications/${id}/conditions/`, undefined],
  ["GET", `/api/v1/applications/${id}/deferrals/`, undefined],
  ["POST", `/api/v1/applications/${id}/deferrals/`, { toIntakeId: intake.id }],
  ["GET", `/api/v1/references/?applicationId=${id}`, undefined],
  [
    "POST",
    "/api/v1/references/",
    { applicationId: id, name: "X", email: "pwned@example.org", relationship: "pwned" },
  ],
  ["GET", `/api/v1/signed-documents/offer-letters/${id}/`, undefined],
];

describe("one applicant cannot read or change another's application", () => {
  test.each(applicationRoutes(victimDraft.id))(
    "%s %s → 404, as for an id that does not exist",
    async (method, path, body) => {
      const res = await app.handle(as(attacker, method, path, body));
      expect(res.status).toBe(404);
      const text = await res.text();
      expect(text).not.toContain("private");
      expect(text).not.toContain(victim.user.email);
    },
  );

  test.each(applicationRoutes(crypto.randomUUID()))(
    "%s %s with a made-up id → 404",
    async (method, path, body) => {
      expect((await app.handle(as(attacker, method, path, body))).status).toBe(404);
    },
  );

  test("…and nothing changed: the draft is as the victim left it", async () => {
    const res = await app.handle(as(victim, "GET", `/api/v1/applications/${victimDraft.id}/`));
    expect(await res.json()).toMatchObject({
      status: "draft",
      version: 1,
      personalStatement: "private",
    });
  });

  test("the list never shows another applicant's applications, whatever the filters", async () => {
    for (const query of [
      "",
      `intakeId=${intake.id}`,
      `programId=${program.id}`,
      `search=${victim.user.email}`,
    ]) {
      const res = await app.handle(as(attacker, "GET", `/api/v1/applications/?${query}`));
      expect(((await res.json()) as Paged<ApplicationJson>).count).toBe(0);
    }
  });
});

/** Routes only staff may use: method, path, a valid body. */
const staffRoutes: [string, string, unknown][] = [
  [
    "POST",
    "/api/v1/catalog/programs/",
    {
      code: "SEC-1",
      name: "X",
      level: "bachelor",
      department: "X",
      durationMonths: 12,
      applicationFee: { amount: 0, currency: "EUR" },
    },
  ],
  ["PATCH", `/api/v1/catalog/programs/${program.id}/`, { name: "pwned" }],
  ["POST", `/api/v1/catalog/programs/${program.id}/deactivate/`, undefined],
  [
    "POST",
    `/api/v1/catalog/programs/${program.id}/intakes/`,
    {
      term: "pwned",
      opensAt: "2030-01-01T00:00:00Z",
      deadline: "2030-02-01T00:00:00Z",
      capacity: 1,
    },
  ],
  ["PATCH", `/api/v1/catalog/intakes/${intake.id}/`, { capacity: 1 }],
  [
    "PATCH",
    `/api/v1/applications/${victimDraft.id}/conditions/${crypto.randomUUID()}/`,
    { status: "met" },
  ],
  [
    "POST",
    `/api/v1/applications/${victimDraft.id}/deferrals/${crypto.randomUUID()}/approve/`,
    undefined,
  ],
  ["POST", "/api/v1/reasons/", { kind: "rejection", code: "pwned", label: "x" }],
  ["PATCH", "/api/v1/reasons/rejection/other/", { active: false }],
  ["GET", "/api/v1/staff/stats/reasons/", undefined],
  ["GET", "/api/v1/staff/audit/verify/", undefined],
  [
    "PUT",
    `/api/v1/staff/intakes/${intake.id}/decisions-due/`,
    { decisionsDueAt: "2031-01-01T00:00:00Z" },
  ],
];

describe("role checks on every staff route", () => {
  test.each(staffRoutes)("%s %s: applicant 403, anonymous 401", async (method, path, body) => {
    const asApplicant = await app.handle(as(attacker, method, path, body));
    expect(asApplicant.status).toBe(403);
    expect((await problemOf(asApplicant)).code).toBe("FORBIDDEN");
    expect((await app.handle(json(method, path, body))).status).toBe(401);
  });

  test("nothing was changed by those attempts", async () => {
    const res = await app.handle(json("GET", `/api/v1/catalog/programs/${program.id}/`));
    const detail = (await res.json()) as ProgramJson & { intakes: { capacity: number }[] };
    expect(detail.name).toBe(program.name);
    expect(detail.active).toBe(true);
    expect(detail.intakes.map((i) => i.capacity)).toEqual([50]);
  });

  test("staff-only moves are refused to the applicant who owns the application", async () => {
    const draft = await createDraft(ctx, attacker, intake.id);
    await app.handle(as(attacker, "POST", `/api/v1/applications/${draft.id}/submit/`));
    for (const to of ["under_review", "offered", "enrolled"]) {
      const res = await app.handle(
        as(attacker, "POST", `/api/v1/applications/${draft.id}/transitions/`, { to }),
      );
      expect([403, 409]).toContain(res.status);
    }
    const after = await app.handle(as(reviewer, "GET", `/api/v1/applications/${draft.id}/`));
    expect(((await after.json()) as ApplicationJson).status).toBe("submitted");
  });
});

const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE applications; --",
  '" OR 1=1 --',
  "x') UNION SELECT password_hash, email FROM users --",
  "%' AND 1=0 UNION SELECT NULL --",
];

describe("SQL injection in search, filters and ordering", () => {
  test.each(INJECTIONS.map((value) => [value]))(
    "search / filters with %s match nothing",
    async (value) => {
      const q = encodeURIComponent(value);
      for (const path of [
        `/api/v1/applications/?search=${q}`,
        `/api/v1/applications/?programId=${q}`,
        `/api/v1/applications/?intakeId=${q}`,
        `/api/v1/catalog/programs/?search=${q}`,
        `/api/v1/catalog/programs/?department=${q}`,
      ]) {
        const res = await app.handle(as(admin, "GET", path));
        expect(res.status).toBe(200);
        const page = (await res.json()) as Paged<unknown>;
        expect(page.count).toBe(0);
        expect(JSON.stringify(page)).not.toContain("argon2");
      }
    },
  );

  test.each(INJECTIONS.map((value) => [value]))("ordering / status = %s → 422", async (value) => {
    const q = encodeURIComponent(value);
    for (const path of [
      `/api/v1/applications/?ordering=${q}`,
      `/api/v1/applications/?status=${q}`,
      `/api/v1/catalog/programs/?ordering=${q}`,
      `/api/v1/catalog/programs/?level=${q}`,
    ]) {
      expect((await app.handle(as(admin, "GET", path))).status).toBe(422);
    }
  });

  test("in path ids: 404, and every table is still there", async () => {
    for (const value of INJECTIONS) {
      const id = encodeURIComponent(value);
      expect((await app.handle(as(admin, "GET", `/api/v1/applications/${id}/`))).status).toBe(404);
      expect((await app.handle(json("GET", `/api/v1/catalog/programs/${id}/`))).status).toBe(404);
    }
    const res = await app.handle(as(admin, "GET", `/api/v1/applications/?intakeId=${intake.id}`));
    expect(((await res.json()) as Paged<unknown>).count).toBe(2);
  });

  test("in a stored field: kept as text, never executed", async () => {
    const res = await app.handle(
      as(admin, "POST", `/api/v1/catalog/programs/${program.id}/intakes/`, {
        term: "'); DELETE FROM intakes; --",
        opensAt: "2031-01-01T00:00:00Z",
        deadline: "2031-02-01T00:00:00Z",
        capacity: 5,
      }),
    );
    expect(res.status).toBe(201);
    const detail = await app.handle(json("GET", `/api/v1/catalog/programs/${program.id}/`));
    const terms = ((await detail.json()) as { intakes: { term: string }[] }).intakes.map(
      (i) => i.term,
    );
    expect(terms).toContain("'); DELETE FROM intakes; --");
    expect(terms).toContain(intake.term);
  });
});
