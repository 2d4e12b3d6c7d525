import { describe, expect, test } from "bun:test";
import { csvField, csvRow } from "../src/modules/staff/internal/csv.ts";
import type { Refusal } from "../src/modules/staff/model.ts";
import { type ApplicationJson, createDraft, signIn, suiteWithStaff } from "./support.ts";
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

const bulk = (who = admin, body: Record<string, unknown>) =>
  call(ctx, who, "POST", "/api/v1/staff/applications/bulk-transitions/", body);
const statusOf = async (id: string) =>
  (await expectJson<ApplicationJson>(await call(ctx, admin, "GET", `/api/v1/applications/${id}/`)))
    .status;

describe("bulk status changes", () => {
  test("all move together, each through the table, recorded under one batch id", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await submittedApplication(ctx, intake.id)).application.id);
    const result = await expectJson<{ batchId: string; moved: number }>(
      await bulk(reviewer, { applicationIds: ids, to: "under_review", reason: "Complete files" }),
    );
    expect(result.moved).toBe(3);
    for (const id of ids) expect(await statusOf(id)).toBe("under_review");
    const audit = await expectJson<{ results: { details: { batchId?: string } }[] }>(
      await call(ctx, admin, "GET", `/api/v1/staff/audit/?action=application.transition&limit=100`),
    );
    const batch = audit.results.filter((e) => e.details.batchId === result.batchId);
    expect(batch).toHaveLength(3);
  });

  test("one refusal and nothing changes: 409 BULK_REFUSED says why for each", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const ready = (await applicationUnderReview(ctx, reviewer, intake.id)).application;
    const stillSubmitted = (await submittedApplication(ctx, intake.id)).application;
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, intake.id);
    const unknown = "01a200dd-4fb5-707f-9c39-6684b2850c28";
    const res = await bulk(admin, {
      applicationIds: [ready.id, stillSubmitted.id, draft.id, unknown],
      to: "rejected",
    });
    const problem = await problemWith(res);
    expect(problem.code).toBe("BULK_REFUSED");
    const refusals = (problem.refusals as Refusal[]).map((r) => [r.applicationId, r.code]);
    expect(refusals.sort()).toEqual(
      [
        [stillSubmitted.id, "ILLEGAL_TRANSITION"],
        [draft.id, "ILLEGAL_TRANSITION"],
        [unknown, "NOT_FOUND"],
      ].sort(),
    );
    expect(await statusOf(ready.id)).toBe("under_review");
  });

  test("a reviewer's bulk decision is refused per application (decisions are admins')", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const a = (await applicationUnderReview(ctx, reviewer, intake.id)).application;
    const problem = await problemWith(
      await bulk(reviewer, { applicationIds: [a.id], to: "rejected" }),
    );
    expect((problem.refusals as Refusal[])[0]).toMatchObject({
      code: "TRANSITION_FORBIDDEN",
      status: 403,
    });
  });

  test("bulk offers count seats as they go: past the capacity, all are refused", async () => {
    const { intake } = await intakeWithSeats(ctx, admin, 2);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await applicationUnderReview(ctx, reviewer, intake.id)).application.id);
    }
    const problem = await problemWith(await bulk(admin, { applicationIds: ids, to: "offered" }));
    expect(problem.code).toBe("BULK_REFUSED");
    expect((problem.refusals as Refusal[]).map((r) => r.code)).toEqual(["NO_SEATS_AVAILABLE"]);
    for (const id of ids) expect(await statusOf(id)).toBe("under_review");
    const ok = await expectJson<{ moved: number }>(
      await bulk(admin, { applicationIds: ids.slice(0, 2), to: "offered" }),
    );
    expect(ok.moved).toBe(2);
    const outbox = await expectJson<{ results: { applicationId: string; event: string }[] }>(
      await call(ctx, admin, "GET", "/api/v1/staff/outbox/?limit=100"),
    );
    const offers = outbox.results.filter(
      (m) => m.event === "offered" && ids.includes(m.applicationId),
    );
    expect(offers).toHaveLength(2);
  });

  test("validated: at most 200 distinct ids, a known status", async () => {
    expect((await bulk(admin, { applicationIds: [], to: "rejected" })).status).toBe(422);
    expect((await bulk(admin, { applicationIds: ["a", "a"], to: "rejected" })).status).toBe(422);
    expect((await bulk(admin, { applicationIds: ["a"], to: "nope" })).status).toBe(422);
    const many = Array.from({ length: 201 }, (_, i) => `id-${i}`);
    expect((await bulk(admin, { applicationIds: many, to: "rejected" })).status).toBe(422);
    const applicant = await signIn(ctx);
    expect((await bulk(applicant, { applicationIds: ["a"], to: "rejected" })).status).toBe(403);
  });
});

describe("CSV export", () => {
  test("fields are quoted and formula cells defused", () => {
    expect(csvField('Ada "the first" Lovelace')).toBe('"Ada ""the first"" Lovelace"');
    for (const danger of ['=HYPERLINK("x")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]) {
      expect(csvField(danger)).toStartWith(`"'`);
    }
    expect(csvField("a,b\nc")).toBe('"a,b\nc"');
    expect(csvField(null)).toBe('""');
    expect(csvRow(["a", 1])).toBe('"a","1"\r\n');
  });

  test("streams the filtered list, every row, with injection-proof cells (admins only)", async () => {
    const { program, intake } = await intakeWithSeats(ctx, admin);
    const evil = await signIn(ctx);
    const evilDraft = await createDraft(ctx, evil, intake.id);
    await ctx.db.run(
      (sql) => sql`UPDATE users SET full_name = ${'=HYPERLINK("http://evil.example","click")'}
        WHERE id = ${evil.user.id}`,
    );
    const rows = 1_203;
    const submitted: string[] = [];
    for (let i = 0; i < 3; i++)
      submitted.push((await submittedApplication(ctx, intake.id)).application.id);
    // Enough rows for several batches of 500, inserted directly (the API path is tested above).
    await ctx.db.transaction(async (tx) => {
      for (let i = 0; i < rows; i++) {
        const id = Bun.randomUUIDv7();
        await tx`INSERT INTO users ${tx({
          id,
          email: `bulk-${id}@example.org`,
          full_name: `Bulk ${i}`,
          password_hash: "x",
          role: "applicant",
          active: true,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })}`;
        await tx`INSERT INTO applications ${tx({
          id: Bun.randomUUIDv7(),
          applicant_id: id,
          program_id: program.id,
          intake_id: intake.id,
          status: "draft",
          version: 1,
          created_at: new Date(ctx.clock.now() + i).toISOString(),
          updated_at: new Date(ctx.clock.now() + i).toISOString(),
        })}`;
      }
    });
    const res = await call(
      ctx,
      admin,
      "GET",
      `/api/v1/staff/applications/export/?intakeId=${intake.id}&status=draft`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/csv");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="applications-/);
    const text = await res.text();
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toStartWith('"id","status","applicant_name"');
    expect(lines).toHaveLength(1 + 1 + rows);
    const evilLine = lines.find((line) => line.startsWith(`"${evilDraft.id}"`));
    expect(evilLine).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    const ids = lines.slice(1).map((line) => line.slice(1, 37));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.some((id) => submitted.includes(id))).toBe(false);

    const onlySubmitted = await (
      await call(
        ctx,
        admin,
        "GET",
        `/api/v1/staff/applications/export/?intakeId=${intake.id}&status=submitted`,
      )
    ).text();
    expect(onlySubmitted.split("\r\n").filter(Boolean)).toHaveLength(4);
    for (const who of [reviewer, evil]) {
      const refused = await call(ctx, who, "GET", "/api/v1/staff/applications/export/");
      expect(refused.status).toBe(403);
    }
    expect(
      (await call(ctx, admin, "GET", "/api/v1/staff/applications/export/?status=bogus")).status,
    ).toBe(422);
  });
});

describe("stats", () => {
  test("counts by status, program and intake", async () => {
    const { program, intake } = await intakeWithSeats(ctx, admin);
    await submittedApplication(ctx, intake.id);
    await submittedApplication(ctx, intake.id);
    const reviewedOne = (await applicationUnderReview(ctx, reviewer, intake.id)).application;
    await expectJson(await decide(ctx, admin, reviewedOne.id, { decision: "offer" }));
    const stats = await expectJson<{
      total: number;
      byStatus: Record<string, number>;
      byProgram: { program: { id: string }; total: number }[];
      byIntake: { intake: { id: string; capacity: number }; byStatus: Record<string, number> }[];
    }>(await call(ctx, reviewer, "GET", `/api/v1/staff/stats/?programId=${program.id}`));
    expect(stats.total).toBe(3);
    expect(stats.byStatus).toEqual({ submitted: 2, offered: 1 });
    expect(stats.byProgram).toMatchObject([{ program: { id: program.id }, total: 3 }]);
    expect(stats.byIntake).toMatchObject([
      { intake: { id: intake.id, capacity: 50 }, byStatus: { submitted: 2, offered: 1 } },
    ]);
    const everything = await expectJson<{ total: number }>(
      await call(ctx, admin, "GET", "/api/v1/staff/stats/"),
    );
    expect(everything.total).toBeGreaterThan(3);
    const applicant = await signIn(ctx);
    expect((await call(ctx, applicant, "GET", "/api/v1/staff/stats/")).status).toBe(403);
  });
});
