import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import {
  applicantWithData,
  exportOf,
  feeIntake,
  type RequestJson,
  requestErasure,
} from "./data-rights-support.ts";
import { sha256 } from "./files.ts";
import {
  as,
  createDraft,
  json,
  logIn,
  PASSWORD,
  type Paged,
  signIn,
  suiteWithStaff,
} from "./support.ts";
import { call } from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;
const intake = await feeIntake(ctx, admin);

describe("another account's data", () => {
  test("an export holds the caller's data only, never another applicant's", async () => {
    const mine = await applicantWithData(ctx, intake.id, "Ada Mine");
    const theirs = await applicantWithData(ctx, intake.id, "Bob Theirs");
    const { entries } = await exportOf(ctx, mine.applicant);
    const everything = Object.entries(entries);
    const text = new TextDecoder().decode(entries["data.json"]);
    for (const secret of [
      theirs.applicant.user.email,
      theirs.applicant.user.id,
      theirs.draft.id,
      theirs.document.id,
      theirs.payment.reference,
      "Bob Theirs",
    ]) {
      expect(text).not.toContain(secret);
      expect(everything.some(([name]) => name.includes(secret))).toBe(false);
    }
    const theirFile = sha256(theirs.bytes);
    expect(everything.some(([, bytes]) => sha256(bytes) === theirFile)).toBe(false);
  });

  test("requests: another applicant's is a 404, like a made-up id; applicants cannot decide", async () => {
    const owner = await signIn(ctx);
    const other = await signIn(ctx);
    // An export is a request of its own (recorded as completed).
    await exportOf(ctx, owner);
    const list = await app.handle(as(owner, "GET", "/api/v1/data-rights/requests/"));
    const [request] = ((await list.json()) as Paged<RequestJson>).results;
    const id = request?.id ?? "";
    for (const [method, path] of [
      ["GET", `/api/v1/data-rights/requests/${id}/`],
      ["POST", `/api/v1/data-rights/requests/${id}/cancel/`],
    ] as const) {
      expect((await app.handle(as(other, method, path))).status).toBe(404);
      expect(
        (await app.handle(as(other, method, path.replace(id, crypto.randomUUID())))).status,
      ).toBe(404);
    }
    for (const action of ["approve", "reject"]) {
      const res = await app.handle(
        as(other, "POST", `/api/v1/data-rights/requests/${id}/${action}/`, { note: "x" }),
      );
      expect(res.status).toBe(403);
    }
    // A userId filter does not widen an applicant's list.
    const filtered = await app.handle(
      as(other, "GET", `/api/v1/data-rights/requests/?userId=${owner.user.id}`),
    );
    expect(((await filtered.json()) as Paged<RequestJson>).count).toBe(0);
  });

  test("staff other than admins see no requests; staff cannot export or erase", async () => {
    expect((await app.handle(as(reviewer, "GET", "/api/v1/data-rights/requests/"))).status).toBe(
      403,
    );
    expect((await app.handle(as(reviewer, "POST", "/api/v1/data-rights/export/"))).status).toBe(
      403,
    );
    expect(
      (await app.handle(as(admin, "POST", "/api/v1/data-rights/erasure/", { password: PASSWORD })))
        .status,
    ).toBe(403);
    expect((await app.handle(json("POST", "/api/v1/data-rights/export/"))).status).toBe(401);
  });
});

describe("CSRF on cookie sessions", () => {
  test.each([
    ["POST", "/api/v1/data-rights/export/", undefined],
    ["POST", "/api/v1/data-rights/erasure/", { password: PASSWORD }],
  ] as const)("%s %s with the cookie alone → 403, nothing done", async (method, path, body) => {
    const applicant = await signIn(ctx);
    const res = await app.handle(json(method, path, body, { cookie: applicant.cookie }));
    expect(res.status).toBe(403);
    expect((await problemOf(res)).code).toBe("CSRF_TOKEN_MISSING");
    const rows = await ctx.db.run(
      (sql) => sql`SELECT id FROM data_requests WHERE user_id = ${applicant.user.id}`,
    );
    expect(rows).toEqual([]);
    expect((await app.handle(as(applicant, "GET", "/api/v1/auth/me/"))).status).toBe(200);
  });

  test("with the token the cookie works (the portal's way)", async () => {
    const applicant = await signIn(ctx);
    const res = await app.handle(
      json("POST", "/api/v1/data-rights/export/", undefined, {
        cookie: applicant.cookie,
        csrf: applicant.csrfToken,
      }),
    );
    expect(res.status).toBe(200);
  });
});

describe("brute force and limits", () => {
  test("guessing the password to erase an account: 429 after 5 tries in 15 minutes", async () => {
    const applicant = await signIn(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await requestErasure(ctx, applicant, `guess-${i}-password`)).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    // Even the right password waits out the window.
    expect((await requestErasure(ctx, applicant, PASSWORD)).status).toBe(429);
    ctx.clock.advance(15 * 60_000);
    // (The access token lapsed with the window too: a new sign-in.)
    const again = await logIn(ctx, applicant.user.email);
    expect((await requestErasure(ctx, again, PASSWORD)).status).toBe(201);
  });

  test("exports: 5 an hour", async () => {
    const applicant = await signIn(ctx);
    for (let i = 0; i < 5; i++) await exportOf(ctx, applicant);
    const res = await app.handle(as(applicant, "POST", "/api/v1/data-rights/export/"));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
  });
});

describe("after erasure", () => {
  test("tokens of the erased account are refused, refresh included, and cannot be replayed", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Tokens");
    await requestErasure(ctx, ada.applicant, PASSWORD);
    for (let i = 0; i < 2; i++) {
      const res = await app.handle(
        json("POST", "/api/v1/auth/refresh/", { refreshToken: ada.applicant.refreshToken }),
      );
      expect(res.status).toBe(401);
    }
    expect(
      (await app.handle(as(ada.applicant, "POST", "/api/v1/data-rights/export/"))).status,
    ).toBe(401);
  });

  test("what staff wrote about the person is wiped; scores and decisions stay", async () => {
    const applicant = await signIn(ctx);
    const staff = await signIn(ctx, "admin");
    const draft = await createDraft(ctx, applicant, intake.id, { personalStatement: "About me" });
    const waiver = await call(ctx, staff, "POST", `/api/v1/applications/${draft.id}/fee-waiver/`, {
      reason: "Hardship: family circumstances of the applicant",
    });
    expect(waiver.status).toBe(201);
    await requestErasure(ctx, applicant, PASSWORD);
    const rows = await ctx.db.run(
      (sql) => sql`SELECT reason FROM fee_waivers WHERE application_id = ${draft.id}`,
    );
    expect(rows).toEqual([{ reason: "[erased]" }]);
    const audit = await ctx.db.run(
      (sql) => sql`SELECT action, details, redacted_at FROM audit_log
      WHERE application_id = ${draft.id} ORDER BY created_at, id`,
    );
    expect(audit.length).toBeGreaterThan(0);
    for (const row of audit) {
      expect(String(row.details)).not.toContain("Hardship");
      expect(row.redacted_at).not.toBeNull();
    }
  });

  test("the audit log stays append-only: a redacted entry can be neither changed again nor deleted", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Audit");
    await requestErasure(ctx, ada.applicant, PASSWORD);
    const [entry] = await ctx.db.run(
      (sql) => sql`SELECT id FROM audit_log
      WHERE actor_id = ${ada.applicant.user.id} AND redacted_at IS NOT NULL`,
    );
    const id = String(entry?.id);
    expect(
      ctx.db.run(
        (sql) =>
          sql`UPDATE audit_log SET details = '{}', redacted_at = ${new Date().toISOString()} WHERE id = ${id}`,
      ),
    ).rejects.toThrow(/append-only/);
    expect(ctx.db.run((sql) => sql`DELETE FROM audit_log WHERE id = ${id}`)).rejects.toThrow(
      /append-only/,
    );
    // A first redaction may not touch what the entry says happened either.
    const [fresh] = await ctx.db.run(
      (sql) => sql`SELECT id FROM audit_log WHERE redacted_at IS NULL LIMIT 1`,
    );
    expect(
      ctx.db.run(
        (sql) =>
          sql`UPDATE audit_log SET action = 'forged', redacted_at = ${new Date().toISOString()} WHERE id = ${String(fresh?.id)}`,
      ),
    ).rejects.toThrow(/append-only/);
  });
});
