import { describe, expect, test } from "bun:test";
import { freePort, problemOf } from "@platform/server/testing";
import { isoAt } from "../src/lib/ids.ts";
import type { AuditEntry } from "../src/modules/audit/model.ts";
import { uploaded } from "./files.ts";
import { draftWithFee, type PaymentJson, pay } from "./payments-support.ts";
import {
  createDraft,
  createIntake,
  createProgram,
  json,
  type Paged,
  type ProgramJson,
  type Session,
  signIn,
  suiteWithStaff,
  uniqueCode,
} from "./support.ts";
import {
  applicationUnderReview,
  call,
  decide,
  expectJson,
  intakeWithSeats,
} from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();

type Entry = AuditEntry;
const read = async (query = "") =>
  expectJson<Paged<Entry>>(
    await call(ctx, admin, "GET", `/api/v1/staff/audit/?limit=100&${query}`),
  );

describe("the audit log", () => {
  test("records staff actions: who, what, which application, when, from which address", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { application } = await applicationUnderReview(ctx, reviewer, intake.id);
    const res = await ctx.app.handle(
      json(
        "POST",
        `/api/v1/applications/${application.id}/decision/`,
        { decision: "waitlist", reason: "Good, but full" },
        { token: admin.accessToken },
      ),
    );
    expect(res.status).toBe(200);
    const entries = (await read(`applicationId=${application.id}`)).results;
    expect(entries.map((e) => [e.action, e.details.to, e.actor.role])).toEqual([
      ["application.transition", "waitlisted", "admin"],
      ["application.transition", "under_review", "reviewer"],
    ]);
    expect(entries[0]).toMatchObject({
      actor: { id: admin.user.id, email: admin.user.email },
      details: {
        from: "under_review",
        reason: "Good, but full",
        via: "decision",
        waitlistPosition: 1,
      },
      at: new Date(ctx.clock.now()).toISOString(),
    });
    // In-process requests have no peer address; the journey test checks the address recorded
    // for requests that came through the gateway.
    expect(entries[0]).toHaveProperty("clientIp");
  });

  test("each entry names who did it, whose application and what it acted on, to be read in words", async () => {
    const { program, intake } = await intakeWithSeats(ctx, admin);
    const { application, applicant } = await applicationUnderReview(ctx, reviewer, intake.id);
    const entries = (await read(`applicationId=${application.id}`)).results;
    expect(entries[0]).toMatchObject({
      action: "application.transition",
      actor: { id: reviewer.user.id, fullName: reviewer.user.fullName },
      application: {
        applicantName: applicant.user.fullName,
        program: { code: program.code, name: program.name },
        term: intake.term,
      },
    });
    const made = await expectJson<{ id: string }>(
      await call(ctx, admin, "POST", "/api/v1/staff/users/", {
        email: `nell-${crypto.randomUUID().slice(0, 8)}@example.org`,
        fullName: "Nell Newhire",
        password: "a-long-initial-password",
        role: "reviewer",
      }),
      201,
    );
    const [created] = (await read(`actorId=${admin.user.id}&action=staff.created`)).results;
    expect(created).toMatchObject({
      subject: { type: "user", id: made.id, name: "Nell Newhire" },
      actor: { fullName: admin.user.fullName },
      application: null,
    });
  });

  test("applicants' own moves are history, not staff actions", async () => {
    const { intake } = await intakeWithSeats(ctx, admin);
    const { applicant, application } = await applicationUnderReview(ctx, reviewer, intake.id);
    await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
    await expectJson(
      await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/accept/`),
    );
    const entries = (await read(`applicationId=${application.id}`)).results;
    expect(entries.map((e) => e.details.to)).toEqual(["offered", "under_review"]);
  });

  test("document and payment staff actions are audited too", async () => {
    const program = await createProgram(ctx, admin, {
      applicationFee: { amount: 5000, currency: "EUR" },
      requiredDocuments: ["transcript"],
    });
    const applicant = await signIn(ctx);
    const draft = await createDraft(
      ctx,
      applicant,
      (await createIntake(ctx, admin, program.id)).id,
    );
    const doc = await uploaded(ctx, applicant, draft.id, "transcript");
    await expectJson(
      await call(
        ctx,
        reviewer,
        "POST",
        `/api/v1/applications/${draft.id}/documents/${doc.id}/review/`,
        {
          decision: "verified",
        },
      ),
    );
    const payment = await expectJson<PaymentJson>(await pay(ctx, applicant, draft.id), 201);
    await expectJson(
      await call(ctx, reviewer, "POST", `/api/v1/payments/${payment.id}/confirm/`, {}),
    );
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/payments/${payment.id}/refunds/`, {
        amount: 1000,
        reason: "Partial goodwill refund",
      }),
      201,
    );
    const other = await draftWithFee(ctx, admin, 5000);
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/applications/${other.draft.id}/fee-waiver/`, {
        reason: "Scholarship",
      }),
      201,
    );
    const actions = (await read(`applicationId=${draft.id}`)).results.map((e) => [
      e.action,
      e.actor.id,
    ]);
    expect(actions).toEqual([
      ["payment.refunded", admin.user.id],
      ["payment.confirmed", reviewer.user.id],
      ["document.reviewed", reviewer.user.id],
    ]);
    const waived = (await read(`applicationId=${other.draft.id}`)).results;
    expect(waived).toMatchObject([{ action: "fee.waived", details: { reason: "Scholarship" } }]);
  });

  test("filters by actor, action, application and time; admins only", async () => {
    const mine = await read(`actorId=${reviewer.user.id}`);
    expect(mine.count).toBeGreaterThan(0);
    expect(mine.results.every((e) => e.actor.id === reviewer.user.id)).toBe(true);
    const future = new Date(ctx.clock.now() + 60_000).toISOString();
    expect((await read(`from=${encodeURIComponent(future)}`)).count).toBe(0);
    expect((await read(`to=${encodeURIComponent(future)}`)).count).toBeGreaterThan(0);
    const created = await read("action=staff.created");
    expect(created.results.every((e) => e.action === "staff.created")).toBe(true);
    expect((await call(ctx, admin, "GET", "/api/v1/staff/audit/?action=bogus")).status).toBe(422);
    for (const who of [reviewer, await signIn(ctx)]) {
      const res = await call(ctx, who, "GET", "/api/v1/staff/audit/");
      expect((await problemOf(res)).code).toBe("FORBIDDEN");
    }
    expect((await ctx.app.handle(json("GET", "/api/v1/staff/audit/"))).status).toBe(401);
  });

  test("never editable: no route changes it, and the database refuses UPDATE and DELETE", async () => {
    const [entry] = (await read()).results;
    if (!entry) throw new Error("no audit entry");
    for (const method of ["PATCH", "PUT", "DELETE"]) {
      const res = await call(ctx, admin, method, `/api/v1/staff/audit/${entry.id}/`, {});
      expect(res.status).toBe(404);
    }
    await expect(
      ctx.db.run((sql) => sql`UPDATE audit_log SET action = 'forged' WHERE id = ${entry.id}`),
    ).rejects.toThrow(/append-only/);
    await expect(
      ctx.db.run((sql) => sql`DELETE FROM audit_log WHERE id = ${entry.id}`),
    ).rejects.toThrow(/append-only/);
    const again = (await read()).results.find((e) => e.id === entry.id);
    expect(again).toEqual(entry);
  });
});

describe("catalog edits in the audit log", () => {
  type IntakeFields = { id: string; term: string; opensAt: string; deadline: string };
  const byActor = async (who: Session, query = "") =>
    (await read(`actorId=${who.user.id}&${query}`)).results;
  const programBody = (code = uniqueCode()) => ({
    code,
    name: "Audited Program",
    level: "bachelor",
    department: "Audit Department",
    durationMonths: 24,
    applicationFee: { amount: 0, currency: "EUR" },
  });
  const intakeBody = (term: string) => ({
    term,
    opensAt: "2030-01-01T00:00:00Z",
    deadline: "2030-06-30T00:00:00Z",
    capacity: 40,
  });

  test("each edit writes one entry: who, what, which program or intake, the changed fields", async () => {
    const editor = await signIn(ctx, "reviewer");
    const step = async (res: Response, status = 200) => {
      ctx.clock.advance(1_000);
      return expectJson<ProgramJson & IntakeFields>(res, status);
    };
    const programs = "/api/v1/catalog/programs";
    const startedAt = ctx.clock.now();
    const program = await step(
      await call(ctx, editor, "POST", `${programs}/`, {
        ...programBody(),
        requiredDocuments: ["transcript"],
        applicationFee: { amount: 5000, currency: "EUR" },
      }),
      201,
    );
    // `level` is sent unchanged, so only the name and the fee are listed.
    await step(
      await call(ctx, editor, "PATCH", `${programs}/${program.id}/`, {
        name: "Audited Science",
        level: "bachelor",
        applicationFee: { amount: 6000, currency: "EUR" },
      }),
    );
    const intake = await step(
      await call(ctx, editor, "POST", `${programs}/${program.id}/intakes/`, intakeBody("Autumn")),
      201,
    );
    // The window is rewritten on every update; unchanged, it is not listed either.
    await step(
      await call(ctx, editor, "PATCH", `/api/v1/catalog/intakes/${intake.id}/`, {
        capacity: 60,
        deadline: intake.deadline,
      }),
    );
    await step(await call(ctx, editor, "POST", `${programs}/${program.id}/deactivate/`));

    const entries = await byActor(editor);
    const asProgram = { type: "program", id: program.id };
    const asIntake = { type: "intake", id: intake.id };
    const made: [string, { type: string; id: string }][] = [
      ["program.created", asProgram],
      ["program.updated", asProgram],
      ["intake.created", asIntake],
      ["intake.updated", asIntake],
      ["program.deactivated", asProgram],
    ];
    const typeAndId = (s: { type: string; id: string } | null) => s && { type: s.type, id: s.id };
    expect(entries.map((e) => [e.action, typeAndId(e.subject), e.at])).toEqual(
      made.map(([action, subject], i) => [action, subject, isoAt(startedAt + i * 1_000)]).reverse(),
    );
    // Each subject named as it is called now, for reading the entry in words.
    const [current] = await ctx.db.run(
      (sql) => sql`SELECT name FROM programs WHERE id = ${program.id}`,
    );
    for (const entry of entries) {
      expect(entry.subject?.name).toBe(
        entry.subject?.type === "intake" ? intake.term : String(current?.name),
      );
      expect(entry.actor).toEqual({
        id: editor.user.id,
        role: "reviewer",
        email: editor.user.email,
        fullName: editor.user.fullName,
      });
      expect(entry.application).toBeNull();
      expect(entry.applicationId).toBeNull();
      // In-process requests have no peer address; the last test covers a real one.
      expect(entry.clientIp).toBeNull();
    }
    const [deactivated, intakeUpdated, intakeCreated, programUpdated, programCreated] = entries.map(
      (e) => e.details,
    );
    expect(programCreated).toEqual({
      code: program.code,
      name: "Audited Program",
      level: "bachelor",
      department: "Audit Department",
      description: "",
      durationMonths: 24,
      applicationFee: { amount: 5000, currency: "EUR" },
      entryRequirements: "",
      requiredDocuments: ["transcript"],
      active: true,
    });
    expect(programUpdated).toEqual({
      code: program.code,
      changes: {
        name: { from: "Audited Program", to: "Audited Science" },
        applicationFee: {
          from: { amount: 5000, currency: "EUR" },
          to: { amount: 6000, currency: "EUR" },
        },
      },
    });
    expect(intakeCreated).toEqual({
      programId: program.id,
      term: "Autumn",
      opensAt: "2030-01-01T00:00:00.000Z",
      deadline: "2030-06-30T00:00:00.000Z",
      capacity: 40,
    });
    expect(intakeUpdated).toEqual({
      programId: program.id,
      term: "Autumn",
      changes: { capacity: { from: 40, to: 60 } },
    });
    expect(deactivated).toEqual({
      code: program.code,
      changes: { active: { from: true, to: false } },
    });

    // The action filter picks exactly each one out.
    for (const entry of entries) {
      const picked = await byActor(editor, `action=${entry.action}`);
      expect(picked.map((e) => e.id)).toEqual([entry.id]);
    }
  });

  test("a refused edit writes no entry, and changes nothing", async () => {
    const editor = await signIn(ctx, "admin");
    const { program, intake } = await intakeWithSeats(ctx, admin, 2);
    const other = await createIntake(ctx, admin, program.id);
    const taken = await createProgram(ctx, admin);
    for (let i = 0; i < 2; i++) {
      const { applicant, application } = await applicationUnderReview(ctx, reviewer, intake.id);
      await expectJson(await decide(ctx, admin, application.id, { decision: "offer" }));
      await expectJson(
        await call(ctx, applicant, "POST", `/api/v1/applications/${application.id}/accept/`),
      );
    }
    const before = (await read()).count;
    const unknown = crypto.randomUUID();
    const refusals: [string, string, unknown, string][] = [
      ["POST", "/api/v1/catalog/programs/", programBody(taken.code), "PROGRAM_CODE_TAKEN"],
      [
        "PATCH",
        `/api/v1/catalog/programs/${program.id}/`,
        { name: "Never stored", code: taken.code },
        "PROGRAM_CODE_TAKEN",
      ],
      ["PATCH", `/api/v1/catalog/programs/${unknown}/`, { name: "X" }, "NOT_FOUND"],
      ["POST", `/api/v1/catalog/programs/${unknown}/deactivate/`, undefined, "NOT_FOUND"],
      [
        "POST",
        `/api/v1/catalog/programs/${program.id}/intakes/`,
        intakeBody(intake.term),
        "INTAKE_TERM_TAKEN",
      ],
      ["POST", `/api/v1/catalog/programs/${unknown}/intakes/`, intakeBody("New"), "NOT_FOUND"],
      ["PATCH", `/api/v1/catalog/intakes/${intake.id}/`, { capacity: 1 }, "CAPACITY_BELOW_TAKEN"],
      [
        "PATCH",
        `/api/v1/catalog/intakes/${intake.id}/`,
        { term: other.term, capacity: 30 },
        "INTAKE_TERM_TAKEN",
      ],
      [
        "PATCH",
        `/api/v1/catalog/intakes/${intake.id}/`,
        { opensAt: "2999-01-01T00:00:00Z" },
        "VALIDATION_FAILED",
      ],
      ["PATCH", `/api/v1/catalog/intakes/${unknown}/`, { capacity: 5 }, "NOT_FOUND"],
    ];
    for (const [method, path, body, code] of refusals) {
      const res = await call(ctx, editor, method, path, body);
      expect([path, (await problemOf(res)).code]).toEqual([path, code]);
    }
    const applicant = await signIn(ctx);
    const forbidden = await call(
      ctx,
      applicant,
      "POST",
      "/api/v1/catalog/programs/",
      programBody(),
    );
    expect((await problemOf(forbidden)).code).toBe("FORBIDDEN");

    expect(await byActor(editor)).toEqual([]);
    expect((await read()).count).toBe(before);
    const stored = await expectJson<ProgramJson & { intakes: { id: string; capacity: number }[] }>(
      await call(ctx, admin, "GET", `/api/v1/catalog/programs/${program.id}/`),
    );
    expect(stored.name).toBe(program.name);
    expect(stored.intakes.find((i) => i.id === intake.id)?.capacity).toBe(2);
  });

  test("the client IP over a real connection: a trusted proxy's X-Forwarded-For, else the peer", async () => {
    const port = await freePort();
    ctx.app.listen({ port, hostname: "127.0.0.1" });
    try {
      const editor = await signIn(ctx, "admin");
      const send = async (method: string, path: string, body?: unknown, forwardedFor?: string) => {
        const headers: Record<string, string> = { authorization: `Bearer ${editor.accessToken}` };
        if (body !== undefined) headers["content-type"] = "application/json";
        if (forwardedFor) headers["x-forwarded-for"] = forwardedFor;
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/catalog${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        ctx.clock.advance(1_000); // entries in the order the edits were made
        return expectJson<{ id: string }>(res, method === "POST" && body ? 201 : 200);
      };
      const program = await send("POST", "/programs/", programBody(), "203.0.113.1");
      await send("PATCH", `/programs/${program.id}/`, { name: "Over the wire" }, "203.0.113.2");
      const intake = await send(
        "POST",
        `/programs/${program.id}/intakes/`,
        intakeBody("Spring"),
        "2001:db8::3",
      );
      // No proxy header: the peer (loopback) is the client.
      await send("PATCH", `/intakes/${intake.id}/`, { capacity: 41 });
      // Read right to left, the first hop that is not a trusted proxy is the client.
      await send(
        "POST",
        `/programs/${program.id}/deactivate/`,
        undefined,
        "198.51.100.1, 203.0.113.5, 127.0.0.1",
      );
      const entries = await byActor(editor);
      expect(entries.map((e) => [e.action, e.clientIp]).reverse()).toEqual([
        ["program.created", "203.0.113.1"],
        ["program.updated", "203.0.113.2"],
        ["intake.created", "2001:db8::3"],
        ["intake.updated", "127.0.0.1"],
        ["program.deactivated", "203.0.113.5"],
      ]);
    } finally {
      await ctx.app.stop(true);
    }
  });
});
