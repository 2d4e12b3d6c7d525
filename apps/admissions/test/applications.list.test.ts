import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import {
  type ApplicationJson,
  as,
  createDraft,
  createIntake,
  createProgram,
  json,
  move,
  type Paged,
  type Session,
  signIn,
  suiteWithStaff,
} from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;

// A small intake season: two programs, three applicants, applications in several statuses.
const tag = crypto.randomUUID().slice(0, 6);
const marine = await createProgram(ctx, admin, { name: `Marine Biology ${tag}` });
const law = await createProgram(ctx, admin, { name: `Law ${tag}` });
const marineIntake = await createIntake(ctx, admin, marine.id);
const lawIntake = await createIntake(ctx, admin, law.id);
const [ann, bob, cyd] = [await signIn(ctx), await signIn(ctx), await signIn(ctx)] as Session[];
if (!ann || !bob || !cyd) throw new Error("applicants missing");

async function apply(who: Session, intakeId: string, path: string[]) {
  const draft = await createDraft(ctx, who, intakeId);
  ctx.clock.advance(1_000);
  for (const to of path) {
    const actor =
      to === "submitted" || to === "withdrawn" ? who : to === "under_review" ? reviewer : admin;
    expect((await move(ctx, actor, draft.id, to)).status).toBe(200);
  }
  return draft.id;
}
const annMarine = await apply(ann, marineIntake.id, ["submitted", "under_review"]);
const annLaw = await apply(ann, lawIntake.id, []);
const bobMarine = await apply(bob, marineIntake.id, ["submitted"]);
const cydLaw = await apply(cyd, lawIntake.id, ["submitted", "under_review", "offered"]);
const cydMarine = await apply(cyd, marineIntake.id, ["withdrawn"]);

const list = async (who: Session, query = "") => {
  const res = await app.handle(as(who, "GET", `/api/v1/applications/?${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as Paged<ApplicationJson>;
};
const ids = (page: Paged<ApplicationJson>) => page.results.map((a) => a.id);
const mine = `search=${tag}`; // every application of this file, and no other file's

describe("who sees what", () => {
  test("an applicant sees exactly their own, newest first", async () => {
    const page = await list(ann);
    expect(ids(page)).toEqual([annLaw, annMarine]);
    expect(page.count).toBe(2);
  });

  test("staff see everyone's", async () => {
    const page = await list(reviewer, mine);
    expect(ids(page)).toEqual([cydMarine, cydLaw, bobMarine, annLaw, annMarine]);
    expect(page.count).toBe(5);
  });

  test("an applicant's filters never widen the view to others", async () => {
    const page = await list(bob, `programId=${law.id}`);
    expect(page.count).toBe(0);
    expect(ids(await list(bob, "status=submitted,under_review,offered"))).toEqual([bobMarine]);
  });

  test("no credential is 401", async () => {
    expect((await app.handle(json("GET", "/api/v1/applications/"))).status).toBe(401);
  });
});

describe("filters, search, ordering, pagination (staff)", () => {
  test("status, several statuses, program and intake, combined", async () => {
    expect(ids(await list(admin, `${mine}&status=submitted`))).toEqual([bobMarine]);
    expect(ids(await list(admin, `${mine}&status=under_review,offered`))).toEqual([
      cydLaw,
      annMarine,
    ]);
    expect(ids(await list(admin, `programId=${law.id}`))).toEqual([cydLaw, annLaw]);
    expect(ids(await list(admin, `intakeId=${marineIntake.id}&status=withdrawn`))).toEqual([
      cydMarine,
    ]);
  });

  test("counts without a search come from the running totals and match the rows", async () => {
    for (const query of [
      `programId=${marine.id}`,
      `programId=${marine.id}&status=submitted,under_review`,
      `intakeId=${lawIntake.id}`,
      `intakeId=${lawIntake.id}&status=draft`,
      `programId=${law.id}&status=enrolled`,
    ]) {
      const page = await list(admin, `${query}&limit=100`);
      expect(page.count).toBe(page.results.length);
    }
    expect((await list(admin, `programId=${marine.id}`)).count).toBe(3);
  });

  test("search matches applicant name or email and program name or code, in any case", async () => {
    const byEmail = await list(admin, `search=${encodeURIComponent(ann.user.email.toUpperCase())}`);
    expect(ids(byEmail)).toEqual([annLaw, annMarine]);
    expect((await list(admin, `search=law%20${tag}`)).count).toBe(2);
    expect((await list(admin, `search=${marine.code.toLowerCase()}`)).count).toBe(3);
    expect((await list(ann, `search=marine%20biology%20${tag}`)).count).toBe(1);
  });

  test("ordering by creation, update and submission, both ways", async () => {
    expect(ids(await list(admin, `${mine}&ordering=createdAt`))).toEqual([
      annMarine,
      annLaw,
      bobMarine,
      cydLaw,
      cydMarine,
    ]);
    const bySubmission = ids(
      await list(admin, `${mine}&status=submitted,under_review,offered&ordering=-submittedAt`),
    );
    expect(bySubmission).toEqual([cydLaw, bobMarine, annMarine]);
    ctx.clock.advance(1_000);
    await app.handle(
      as(ann, "PATCH", `/api/v1/applications/${annLaw}/`, { personalStatement: "x" }),
    );
    expect(ids(await list(admin, `${mine}&ordering=-updatedAt`))[0]).toBe(annLaw);
  });

  test("limit and offset page through with links that keep the filters", async () => {
    const first = await list(admin, `${mine}&limit=2`);
    expect(first.count).toBe(5);
    expect(first.results).toHaveLength(2);
    expect(first.next).toBe(`/api/v1/applications/?search=${tag}&limit=2&offset=2`);
    const third = await list(admin, `${mine}&limit=2&offset=4`);
    expect(ids(third)).toEqual([annMarine]);
    expect(third.next).toBeNull();
    expect(third.previous).toBe(`/api/v1/applications/?search=${tag}&limit=2&offset=2`);
    expect((await list(admin, `${mine}&offset=50`)).results).toEqual([]);
  });

  test("several statuses page exactly like one ordered list, in both directions", async () => {
    const statuses = "status=withdrawn,draft,under_review,submitted,offered";
    for (const ordering of ["-createdAt", "createdAt", "-submittedAt"]) {
      const q = `${mine}&${statuses}&ordering=${ordering}`;
      const all = ids(await list(admin, `${q}&limit=100`));
      expect(all).toHaveLength(5);
      const paged = [];
      for (const offset of [0, 2, 4])
        paged.push(...ids(await list(admin, `${q}&limit=2&offset=${offset}`)));
      expect(paged).toEqual(all);
    }
    // Never submitted (a draft, and one withdrawn as a draft): last in either submission order,
    // on both databases.
    for (const ordering of ["submittedAt", "-submittedAt"]) {
      const order = ids(await list(admin, `${mine}&${statuses}&ordering=${ordering}`));
      expect(order.slice(-2).sort()).toEqual([annLaw, cydMarine].sort());
    }
    expect(ids(await list(admin, `${mine}&${statuses}&ordering=createdAt`))).toEqual([
      annMarine,
      annLaw,
      bobMarine,
      cydLaw,
      cydMarine,
    ]);
  });

  test.each([
    ["status=pending", "/query/status"],
    ["status=submitted,", "/query/status"],
    ["ordering=status", "/query/ordering"],
    ["limit=1000", "/query/limit"],
    // offset 0 is in range: the pointer names the parameter that failed, not its neighbour.
    ["offset=0&limit=0", "/query/limit"],
  ])("%s → 422 at %s", async (query, path) => {
    const res = await app.handle(as(admin, "GET", `/api/v1/applications/?${query}`));
    const problem = await problemOf(res);
    expect(problem.code).toBe("VALIDATION_FAILED");
    expect(problem.errors?.map((e) => e.path)).toEqual([path]);
  });

  test("a status that is none lists the statuses, not the pattern", async () => {
    const res = await app.handle(
      as(admin, "GET", "/api/v1/applications/?status=submitted,pending"),
    );
    const [error] = (await problemOf(res)).errors ?? [];
    expect(error?.message).toStartWith("Expected one or more of, separated by commas: draft, ");
    expect(error?.message).toContain("under_review");
    expect(error?.message).not.toContain("^(");
  });
});

describe("running totals stay exact", () => {
  test("after every insert and move, each total equals a fresh count", async () => {
    const totals = await ctx.db.run(
      (sql) => sql`SELECT intake_id, status, total FROM application_counts WHERE total > 0`,
    );
    const actual = await ctx.db.run(
      (sql) => sql`SELECT intake_id, status, count(*) AS total FROM applications
        GROUP BY intake_id, status`,
    );
    const key = (row: { intake_id: string; status: string; total: unknown }) =>
      `${row.intake_id}/${row.status}=${Number(row.total)}`;
    expect(totals.map(key).sort()).toEqual(actual.map(key).sort());
  });
});
