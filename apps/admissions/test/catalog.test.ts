import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import {
  as,
  createIntake,
  createProgram,
  type IntakeJson,
  json,
  type Paged,
  type ProgramCardJson,
  type ProgramJson,
  signIn,
  suiteWithStaff,
  uniqueCode,
} from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;
const applicant = await signIn(ctx, "applicant");

const list = async (query: string, init: { token?: string } = {}) => {
  const res = await app.handle(
    json("GET", `/api/v1/catalog/programs/?${query}`, undefined, { token: init.token }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as Paged<ProgramCardJson>;
};

/** A department of its own, so each test's assertions see only its programs. */
const department = () => `Dept ${crypto.randomUUID().slice(0, 8)}`;

describe("public list", () => {
  test("anonymous callers see active programs only, with pagination links", async () => {
    const dept = department();
    for (const name of ["Alpha", "Bravo", "Charlie"]) {
      await createProgram(ctx, admin, { name, department: dept });
    }
    await createProgram(ctx, admin, { name: "Hidden", department: dept, active: false });
    const q = `department=${encodeURIComponent(dept)}`;
    const first = await list(`${q}&limit=2`);
    expect(first.count).toBe(3);
    expect(first.results.map((p) => p.name)).toEqual(["Alpha", "Bravo"]);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`/api/v1/catalog/programs/?${q.replace("%20", "+")}&limit=2&offset=2`);
    const second = await list(`${q}&limit=2&offset=2`);
    expect(second.results.map((p) => p.name)).toEqual(["Charlie"]);
    expect(second.next).toBeNull();
    expect(second.previous).toContain("offset=0");
  });

  test("each card carries its soonest open deadline, null when no intake is open", async () => {
    const dept = department();
    const open = await createProgram(ctx, admin, { name: "Open", department: dept });
    await createIntake(ctx, admin, open.id, { closesInDays: 40 });
    const soonest = await createIntake(ctx, admin, open.id, { closesInDays: 12 });
    // Closed already, and not open yet: neither is a deadline to apply by.
    await createIntake(ctx, admin, open.id, { opensInDays: -30, closesInDays: -1 });
    await createIntake(ctx, admin, open.id, { opensInDays: 2, closesInDays: 5 });
    await createProgram(ctx, admin, { name: "Shut", department: dept });
    const cards = await list(`department=${encodeURIComponent(dept)}`);
    const byName = Object.fromEntries(cards.results.map((p) => [p.name, p.nextDeadline]));
    expect(byName).toEqual({ Open: soonest.deadline, Shut: null });
  });

  test("staff see inactive programs too, and may filter on active", async () => {
    const dept = department();
    await createProgram(ctx, admin, { name: "On", department: dept });
    await createProgram(ctx, admin, { name: "Off", department: dept, active: false });
    const q = `department=${encodeURIComponent(dept)}`;
    expect((await list(q, { token: reviewer.accessToken })).count).toBe(2);
    const inactive = await list(`${q}&active=false`, { token: reviewer.accessToken });
    expect(inactive.results.map((p) => p.name)).toEqual(["Off"]);
    // The flag means nothing from the public: still active ones only.
    expect((await list(`${q}&active=false`)).results.map((p) => p.name)).toEqual(["On"]);
    expect((await list(`${q}&active=false`, { token: applicant.accessToken })).count).toBe(1);
  });

  test("search matches name, code or department in any case; % and _ are literal", async () => {
    const dept = department();
    const token = crypto.randomUUID().slice(0, 8);
    await createProgram(ctx, admin, { name: `Marine ${token} Biology`, department: dept });
    await createProgram(ctx, admin, {
      name: "Plain",
      department: `${dept} ${token.toUpperCase()}`,
    });
    await createProgram(ctx, admin, { name: "100% Maths_x", department: dept });
    expect((await list(`search=${token.toUpperCase()}`)).count).toBe(2);
    expect((await list(`search=%25&department=${encodeURIComponent(dept)}`)).count).toBe(1);
    expect((await list(`search=s_x&department=${encodeURIComponent(dept)}`)).count).toBe(1);
    expect((await list(`search=s%5Fy&department=${encodeURIComponent(dept)}`)).count).toBe(0);
  });

  test("filters: level, and programs open for applications now", async () => {
    const dept = department();
    const open = await createProgram(ctx, admin, {
      name: "Open",
      level: "master",
      department: dept,
    });
    const soon = await createProgram(ctx, admin, {
      name: "Soon",
      level: "master",
      department: dept,
    });
    await createProgram(ctx, admin, { name: "Cert", level: "certificate", department: dept });
    await createIntake(ctx, admin, open.id);
    await createIntake(ctx, admin, soon.id, { opensInDays: 5, closesInDays: 40 });
    const q = `department=${encodeURIComponent(dept)}`;
    expect((await list(`${q}&level=master`)).results.map((p) => p.name)).toEqual(["Open", "Soon"]);
    expect((await list(`${q}&openForApplications=true`)).results.map((p) => p.name)).toEqual([
      "Open",
    ]);
    expect((await list(`${q}&openForApplications=false`)).count).toBe(2);
  });

  test("ordering by name, code, fee and creation, both ways", async () => {
    const dept = department();
    await createProgram(ctx, admin, {
      name: "B",
      code: uniqueCode("A"),
      department: dept,
      applicationFee: { amount: 300, currency: "EUR" },
    });
    await createProgram(ctx, admin, {
      name: "C",
      code: uniqueCode("B"),
      department: dept,
      applicationFee: { amount: 100, currency: "EUR" },
    });
    await createProgram(ctx, admin, {
      name: "A",
      code: uniqueCode("C"),
      department: dept,
      applicationFee: { amount: 200, currency: "EUR" },
    });
    const names = async (ordering: string) =>
      (await list(`department=${encodeURIComponent(dept)}&ordering=${ordering}`)).results.map(
        (p) => p.name,
      );
    expect(await names("name")).toEqual(["A", "B", "C"]);
    expect(await names("-name")).toEqual(["C", "B", "A"]);
    expect(await names("code")).toEqual(["B", "C", "A"]);
    expect(await names("applicationFee")).toEqual(["C", "A", "B"]);
    expect(await names("-applicationFee")).toEqual(["B", "A", "C"]);
    expect(await names("createdAt")).toEqual(["B", "C", "A"]);
  });

  test.each([
    ["limit=0"],
    ["limit=101"],
    ["offset=-1"],
    ["limit=abc"],
    ["ordering=price"],
    ["level=phd"],
    ["openForApplications=maybe"],
  ])("%s → 422", async (query) => {
    const res = await app.handle(json("GET", `/api/v1/catalog/programs/?${query}`));
    expect(res.status).toBe(422);
    expect((await problemOf(res)).code).toBe("VALIDATION_FAILED");
  });

  test("a stale session cookie reads the public list anonymously; a bad bearer token is 401", async () => {
    const stale = await app.handle(
      json("GET", "/api/v1/catalog/programs/", undefined, {
        cookie: "__Host-admissions_session=ended-long-ago",
      }),
    );
    expect(stale.status).toBe(200);
    const bad = await app.handle(
      json("GET", "/api/v1/catalog/programs/", undefined, { token: "a.b.c" }),
    );
    expect((await problemOf(bad)).code).toBe("INVALID_TOKEN");
  });

  test("a new program shows in the public (cached) list at once", async () => {
    const dept = department();
    const q = `department=${encodeURIComponent(dept)}`;
    expect((await list(q)).count).toBe(0);
    await createProgram(ctx, admin, { department: dept });
    expect((await list(q)).count).toBe(1);
  });
});

describe("program detail", () => {
  test("includes intakes, soonest deadline first, each saying whether it is open", async () => {
    const program = await createProgram(ctx, admin);
    await createIntake(ctx, admin, program.id, {
      term: "Later",
      opensInDays: 10,
      closesInDays: 90,
    });
    await createIntake(ctx, admin, program.id, { term: "Now", opensInDays: -5, closesInDays: 20 });
    await createIntake(ctx, admin, program.id, {
      term: "Past",
      opensInDays: -90,
      closesInDays: -30,
    });
    const res = await app.handle(json("GET", `/api/v1/catalog/programs/${program.id}/`));
    const detail = (await res.json()) as ProgramJson & { intakes: IntakeJson[] };
    expect(detail.intakes.map((i) => [i.term, i.isOpen])).toEqual([
      ["Past", false],
      ["Now", true],
      ["Later", false],
    ]);
  });

  test("an inactive program is 404 to the public and visible to staff; unknown ids are 404", async () => {
    const program = await createProgram(ctx, admin, { active: false });
    const path = `/api/v1/catalog/programs/${program.id}`;
    expect((await app.handle(json("GET", path))).status).toBe(404);
    expect((await app.handle(as(applicant, "GET", path))).status).toBe(404);
    expect((await app.handle(as(reviewer, "GET", path))).status).toBe(200);
    for (const id of [crypto.randomUUID(), "nonsense", "1%20OR%201=1"]) {
      const res = await app.handle(json("GET", `/api/v1/catalog/programs/${id}/`));
      expect(res.status).toBe(404);
    }
  });
});

describe("staff maintain the catalog", () => {
  test("reviewers and admins create programs; the response is the stored program", async () => {
    for (const staff of [admin, reviewer]) {
      const program = await createProgram(ctx, staff, {
        description: "Desc",
        entryRequirements: "Reqs",
        requiredDocuments: ["transcript", "cv"],
        applicationFee: { amount: 7500, currency: "GBP" },
      });
      expect(program).toMatchObject({
        description: "Desc",
        entryRequirements: "Reqs",
        requiredDocuments: ["transcript", "cv"],
        applicationFee: { amount: 7500, currency: "GBP" },
        active: true,
      });
    }
  });

  test("a duplicate code is 409 PROGRAM_CODE_TAKEN, on create and on update", async () => {
    const first = await createProgram(ctx, admin);
    const second = await createProgram(ctx, admin);
    const dup = await app.handle(
      as(admin, "POST", "/api/v1/catalog/programs/", {
        code: first.code,
        name: "X",
        level: "bachelor",
        department: "X",
        durationMonths: 12,
        applicationFee: { amount: 0, currency: "EUR" },
      }),
    );
    expect((await problemOf(dup)).code).toBe("PROGRAM_CODE_TAKEN");
    const rename = await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/programs/${second.id}/`, { code: first.code }),
    );
    expect((await problemOf(rename)).code).toBe("PROGRAM_CODE_TAKEN");
  });

  test.each([
    ["a lower-case code", { code: "cs-bsc" }, "/body/code"],
    ["an unknown level", { level: "phd" }, "/body/level"],
    [
      "a negative fee",
      { applicationFee: { amount: -1, currency: "EUR" } },
      "/body/applicationFee/amount",
    ],
    [
      "a bad currency",
      { applicationFee: { amount: 1, currency: "euro" } },
      "/body/applicationFee/currency",
    ],
    ["an unknown document type", { requiredDocuments: ["selfie"] }, "/body/requiredDocuments/0"],
    ["a fractional duration", { durationMonths: 1.5 }, "/body/durationMonths"],
    ["a numeric string duration", { durationMonths: "12" }, "/body/durationMonths"],
  ])("%s → 422", async (_, override, path) => {
    const res = await app.handle(
      as(admin, "POST", "/api/v1/catalog/programs/", {
        code: uniqueCode(),
        name: "X",
        level: "bachelor",
        department: "X",
        durationMonths: 12,
        applicationFee: { amount: 0, currency: "EUR" },
        ...override,
      }),
    );
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors?.map((e) => e.path)).toContain(path);
  });

  test("PATCH changes only the fields sent", async () => {
    const program = await createProgram(ctx, admin, { level: "doctorate", durationMonths: 48 });
    const res = await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/programs/${program.id}/`, { name: "Renamed" }),
    );
    expect(res.status).toBe(200);
    const updated = (await res.json()) as ProgramJson;
    expect(updated).toMatchObject({ name: "Renamed", level: "doctorate", durationMonths: 48 });
    const empty = await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/programs/${program.id}/`, {}),
    );
    expect(empty.status).toBe(422);
    const missing = await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/programs/${crypto.randomUUID()}/`, { name: "X" }),
    );
    expect(missing.status).toBe(404);
  });

  test("deactivate hides a program from the public; PATCH active:true brings it back", async () => {
    const dept = department();
    const program = await createProgram(ctx, admin, { department: dept });
    const q = `department=${encodeURIComponent(dept)}`;
    const res = await app.handle(
      as(reviewer, "POST", `/api/v1/catalog/programs/${program.id}/deactivate/`),
    );
    expect(((await res.json()) as ProgramJson).active).toBe(false);
    expect((await list(q)).count).toBe(0);
    await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/programs/${program.id}/`, { active: true }),
    );
    expect((await list(q)).count).toBe(1);
  });
});

describe("intakes", () => {
  const intakeBody = (overrides: Record<string, unknown> = {}) => ({
    term: "Autumn 2030",
    opensAt: "2030-01-01T00:00:00Z",
    deadline: "2030-06-30T23:59:59Z",
    capacity: 10,
    ...overrides,
  });

  test("created with canonical timestamps; a duplicate term is 409 INTAKE_TERM_TAKEN", async () => {
    const program = await createProgram(ctx, admin);
    const path = `/api/v1/catalog/programs/${program.id}/intakes/`;
    const res = await app.handle(
      as(admin, "POST", path, intakeBody({ opensAt: "2030-01-01T01:00:00+01:00" })),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      programId: program.id,
      opensAt: "2030-01-01T00:00:00.000Z",
      deadline: "2030-06-30T23:59:59.000Z",
      isOpen: false,
    });
    const dup = await app.handle(as(admin, "POST", path, intakeBody()));
    expect((await problemOf(dup)).code).toBe("INTAKE_TERM_TAKEN");
  });

  test("a plain date means midnight UTC", async () => {
    const program = await createProgram(ctx, admin);
    const res = await app.handle(
      as(
        admin,
        "POST",
        `/api/v1/catalog/programs/${program.id}/intakes/`,
        intakeBody({ opensAt: "2030-01-01" }),
      ),
    );
    expect(((await res.json()) as { opensAt: string }).opensAt).toBe("2030-01-01T00:00:00.000Z");
  });

  test("the deadline must come after the opening, on create and on update", async () => {
    const program = await createProgram(ctx, admin);
    const path = `/api/v1/catalog/programs/${program.id}/intakes/`;
    const bad = await app.handle(
      as(admin, "POST", path, intakeBody({ deadline: "2029-12-31T00:00:00Z" })),
    );
    expect((await problemOf(bad)).errors?.[0]?.path).toBe("/body/deadline");
    const intake = await createIntake(ctx, admin, program.id);
    const update = await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/intakes/${intake.id}/`, {
        opensAt: "2999-01-01T00:00:00Z",
      }),
    );
    expect(update.status).toBe(422);
    const ok = await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/intakes/${intake.id}/`, { capacity: 99 }),
    );
    expect(await ok.json()).toMatchObject({ capacity: 99, term: intake.term });
  });

  test("an intake for an unknown program, or an unknown intake, is 404", async () => {
    const res = await app.handle(
      as(admin, "POST", `/api/v1/catalog/programs/${crypto.randomUUID()}/intakes/`, intakeBody()),
    );
    expect(res.status).toBe(404);
    const patch = await app.handle(
      as(admin, "PATCH", `/api/v1/catalog/intakes/${crypto.randomUUID()}/`, { capacity: 1 }),
    );
    expect(patch.status).toBe(404);
  });

  test.each([
    ["a local time without zone (ambiguous)", { opensAt: "2030-01-01T10:00:00" }],
    ["zero capacity", { capacity: 0 }],
    ["an empty term", { term: "" }],
  ])("%s → 422", async (_, override) => {
    const program = await createProgram(ctx, admin);
    const res = await app.handle(
      as(admin, "POST", `/api/v1/catalog/programs/${program.id}/intakes/`, intakeBody(override)),
    );
    expect(res.status).toBe(422);
  });
});
