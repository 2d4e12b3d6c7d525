import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { uploaded } from "./files.ts";
import { draftWithFee, type PaymentJson, pay } from "./payments-support.ts";
import {
  createDraft,
  createIntake,
  createProgram,
  json,
  type Paged,
  setupApp,
  signIn,
} from "./support.ts";
import {
  applicationUnderReview,
  call,
  decide,
  expectJson,
  intakeWithSeats,
} from "./workflow-support.ts";

const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const reviewer = await signIn(ctx, "reviewer");

type Entry = {
  id: string;
  actor: { id: string | null; role: string; email: string | null };
  action: string;
  applicationId: string | null;
  details: Record<string, unknown>;
  clientIp: string | null;
  at: string;
};
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
