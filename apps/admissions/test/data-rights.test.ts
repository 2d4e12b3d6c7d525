import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { purgeExpiredPayments } from "../src/modules/data-rights/service.ts";
import {
  applicantWithData,
  exportOf,
  feeIntake,
  type RequestJson,
  requestErasure,
} from "./data-rights-support.ts";
import { sha256 } from "./files.ts";
import { emailsTo, login } from "./mfa-support.ts";
import { as, json, PASSWORD, type Paged, suiteWithStaff } from "./support.ts";
import { call } from "./workflow-support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;
const intake = await feeIntake(ctx, admin);
const PORTAL = DEFAULT_SETTINGS.portalUrl;

const count = async (query: Promise<unknown[]>) =>
  Number((await query)[0] && Object.values((await query)[0] as object)[0]);

describe("export: one download of everything held", () => {
  test("a ZIP of data.json and the applicant's files, byte for byte", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Lovelace");
    const { res, entries, data } = await exportOf(ctx, ada.applicant);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="admissions-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    const filePath = `files/${ada.draft.id}/${ada.document.id}-Ada Lovelace transcript.pdf`;
    expect(Object.keys(entries).sort()).toEqual(["data.json", filePath].sort());
    expect(sha256(entries[filePath] ?? new Uint8Array())).toBe(sha256(ada.bytes));

    expect(data.account).toMatchObject({
      id: ada.applicant.user.id,
      email: ada.applicant.user.email,
    });
    expect(data.profile).toMatchObject({
      legalName: "Ada Lovelace",
      nationality: "FR",
      version: 1,
    });
    expect(data.profileHistory).toHaveLength(1);
    const [application] = data.applications as {
      id: string;
      personalStatement: string;
      history: unknown[];
    }[];
    expect(application).toMatchObject({
      id: ada.draft.id,
      personalStatement: "Statement of Ada Lovelace",
    });
    expect(application?.history).toHaveLength(1);
    expect(data.documents).toEqual([
      expect.objectContaining({ id: ada.document.id, sha256: ada.document.sha256, file: filePath }),
    ]);
    // Its sign-ins (the test's in-process requests come from the address "unknown").
    const signIns = data.signIns as { ip: string; createdAt: string }[];
    expect(signIns.length).toBeGreaterThan(0);
    expect(signIns[0]).toMatchObject({ ip: "unknown" });
    expect(data.payments).toEqual([
      expect.objectContaining({
        id: ada.payment.id,
        reference: ada.payment.reference,
        status: "pending",
      }),
    ]);
    const events = (data.emails as { event: string }[]).map((e) => e.event);
    expect(events).toContain("profile.updated");
    expect(events).toContain("data.exported");
    expect(data.dataRequests).toEqual([
      expect.objectContaining({ kind: "export", status: "completed" }),
    ]);
    expect((data.auditEntries as { action: string }[]).map((e) => e.action)).toContain(
      "data.exported",
    );
  });

  test("the download is recorded, audited and emailed", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Export");
    await exportOf(ctx, ada.applicant);
    const mine = await app.handle(as(ada.applicant, "GET", "/api/v1/data-rights/requests/"));
    expect(((await mine.json()) as Paged<RequestJson>).results).toEqual([
      expect.objectContaining({
        kind: "export",
        status: "completed",
        completedAt: expect.any(String),
      }),
    ]);
    const [email] = (await emailsTo(ctx, ada.applicant.user.email)).filter(
      (e) => e.event === "data.exported",
    );
    expect(email?.body).toContain(`${PORTAL}/account/security`);
  });

  test("staff see what was held about an applicant's application by role, never by name", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Staff");
    await call(
      ctx,
      reviewer,
      "POST",
      `/api/v1/applications/${ada.draft.id}/documents/${ada.document.id}/review/`,
      {
        decision: "rejected",
        note: "Blurred scan",
      },
    );
    const { data } = await exportOf(ctx, ada.applicant);
    const text = JSON.stringify(data);
    expect(text).toContain("Blurred scan");
    expect(text).not.toContain(reviewer.user.email);
    expect(text).not.toContain(reviewer.user.id);
  });

  test("a file missing from storage fails the download instead of leaving it short", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Missing");
    const [row] = await ctx.db.run(
      (sql) => sql`SELECT storage_key FROM documents WHERE id = ${ada.document.id}`,
    );
    await ctx.documentStorage.remove(String(row?.storage_key));
    const res = await app.handle(as(ada.applicant, "POST", "/api/v1/data-rights/export/"));
    expect(res.status).toBe(200);
    expect(res.arrayBuffer()).rejects.toThrow();
  });
});

describe("erasure at once (nothing in progress)", () => {
  test("the account is erased: pseudonyms, files, profile, emails and audit cleaned; payments kept", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Erased");
    const { id: userId, email } = ada.applicant.user;
    const [stored] = await ctx.db.run(
      (sql) => sql`SELECT storage_key FROM documents WHERE id = ${ada.document.id}`,
    );
    const res = await requestErasure(ctx, ada.applicant, PASSWORD);
    expect(res.status).toBe(201);
    const request = (await res.json()) as RequestJson;
    const years = DEFAULT_SETTINGS.paymentRetentionYears;
    const retain = new Date(ctx.clock.now());
    retain.setUTCFullYear(retain.getUTCFullYear() + years);
    expect(request).toMatchObject({
      kind: "erasure",
      status: "completed",
      user: { id: userId, email: `erased+${userId}@invalid`, fullName: `Erased user ${userId}` },
      retainUntil: retain.toISOString(),
    });

    const [user] = await ctx.db.run((sql) => sql`SELECT * FROM users WHERE id = ${userId}`);
    expect(user).toMatchObject({
      email: `erased+${userId}@invalid`,
      full_name: `Erased user ${userId}`,
    });
    expect(Boolean(user?.active)).toBe(false);
    expect(
      await count(
        ctx.db.run((sql) => sql`SELECT count(*) FROM profiles WHERE user_id = ${userId}`),
      ),
    ).toBe(0);
    expect(
      await count(
        ctx.db.run((sql) => sql`SELECT count(*) FROM profile_history WHERE user_id = ${userId}`),
      ),
    ).toBe(0);
    expect(
      await count(
        ctx.db.run(
          (sql) => sql`SELECT count(*) FROM documents WHERE application_id = ${ada.draft.id}`,
        ),
      ),
    ).toBe(0);
    expect(await ctx.documentStorage.read(String(stored?.storage_key))).toBeNull();

    const [application] = await ctx.db.run(
      (sql) => sql`SELECT * FROM applications WHERE id = ${ada.draft.id}`,
    );
    expect(application).toMatchObject({
      status: "withdrawn",
      personal_statement: "",
      applicant_snapshot: null,
    });
    const [payment] = await ctx.db.run(
      (sql) => sql`SELECT * FROM payments WHERE id = ${ada.payment.id}`,
    );
    expect(payment).toMatchObject({ reference: ada.payment.reference, payer_id: userId });

    // Every email is scrubbed but the last, which tells the old address it is done.
    const left = await emailsTo(ctx, email);
    expect(left.map((e) => e.event)).toEqual(["erasure.completed"]);
    expect(left[0]?.body).toContain(
      retain.toLocaleString("en-GB", { dateStyle: "long", timeZone: "UTC" }),
    );
    const scrubbed = await ctx.db.run(
      (sql) =>
        sql`SELECT subject, body, status FROM email_outbox WHERE to_address = ${`erased+${userId}@invalid`}`,
    );
    expect(scrubbed.length).toBeGreaterThan(0);
    for (const row of scrubbed)
      expect(row).toMatchObject({ subject: "[erased]", body: "[erased]" });

    const audit = await ctx.db.run(
      (sql) => sql`SELECT action, details, client_ip, redacted_at, actor_role FROM audit_log
      WHERE subject_id = ${userId} OR actor_id = ${userId} ORDER BY created_at, id`,
    );
    expect(audit.map((r: { action: string }) => r.action)).toEqual([
      "data.erasure_requested",
      "data.erasure_completed",
    ]);
    expect(audit[0]).toMatchObject({ client_ip: null, redacted_at: expect.anything() });
    expect(audit[1]).toMatchObject({ actor_role: "system", client_ip: null });
    expect(JSON.parse(String(audit[1]?.details))).toEqual({
      requestId: request.id,
      applicationsWithdrawn: 1,
      documentsDeleted: 1,
    });
  });

  test("the account can no longer sign in: the same answer as an email never registered", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Gone");
    await requestErasure(ctx, ada.applicant, PASSWORD);
    const erased = await login(ctx, ada.applicant.user.email);
    const unknown = await login(ctx, "never-registered@example.org");
    expect(erased.status).toBe(401);
    const [a, b] = [await problemOf(erased), await problemOf(unknown)];
    expect({ code: a.code, detail: a.detail }).toEqual({ code: b.code, detail: b.detail });
    expect(a.code).toBe("INVALID_CREDENTIALS");
    // Nor with the pseudonym, whatever the password.
    expect((await login(ctx, `erased+${ada.applicant.user.id}@invalid`)).status).toBe(401);
    // Every credential of the old sign-in is dead.
    expect((await app.handle(as(ada.applicant, "GET", "/api/v1/auth/me/"))).status).toBe(401);
    expect(
      (
        await app.handle(
          json("GET", "/api/v1/auth/me/", undefined, { cookie: ada.applicant.cookie }),
        )
      ).status,
    ).toBe(401);
    const refresh = await app.handle(
      json("POST", "/api/v1/auth/refresh/", { refreshToken: ada.applicant.refreshToken }),
    );
    expect(refresh.status).toBe(401);
  });

  test("the email is free again: a new account with it starts empty", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Again");
    await requestErasure(ctx, ada.applicant, PASSWORD);
    const res = await app.handle(
      json("POST", "/api/v1/auth/register/", {
        email: ada.applicant.user.email,
        password: PASSWORD,
        fullName: "Ada Again",
      }),
    );
    expect(res.status).toBe(202);
    const fresh = await (await import("./support.ts")).logIn(ctx, ada.applicant.user.email);
    const { data, entries } = await exportOf(ctx, fresh);
    expect(data.applications).toEqual([]);
    expect(data.payments).toEqual([]);
    expect(Object.keys(entries)).toEqual(["data.json"]);
  });

  test("a wrong password erases nothing", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Careful");
    const res = await requestErasure(ctx, ada.applicant, "not-my-password");
    expect(res.status).toBe(403);
    expect((await problemOf(res)).code).toBe("CONFIRMATION_FAILED");
    expect((await app.handle(as(ada.applicant, "GET", "/api/v1/auth/me/"))).status).toBe(200);
    expect(
      await count(
        ctx.db.run(
          (sql) => sql`SELECT count(*) FROM data_requests WHERE user_id = ${ada.applicant.user.id}`,
        ),
      ),
    ).toBe(0);
  });
});

describe("erasure with an application in progress: an admin decides", () => {
  const submitted = async (name: string) => {
    const ada = await applicantWithData(ctx, intake.id, name);
    // The fee is paid (confirmed by staff) and the transcript is there: it can be submitted.
    const confirmed = await call(
      ctx,
      reviewer,
      "POST",
      `/api/v1/payments/${ada.payment.id}/confirm/`,
      {
        note: "Seen on the statement",
      },
    );
    if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status}`);
    const res = await call(
      ctx,
      ada.applicant,
      "POST",
      `/api/v1/applications/${ada.draft.id}/submit/`,
    );
    if (res.status !== 200) throw new Error(`submit: ${res.status} ${await res.text()}`);
    return ada;
  };

  test("pending until approved; then erased, the application withdrawn by the admin", async () => {
    const ada = await submitted("Ada Pending");
    const res = await requestErasure(ctx, ada.applicant, PASSWORD);
    expect(res.status).toBe(201);
    const request = (await res.json()) as RequestJson;
    expect(request.status).toBe("pending");
    const [received] = (await emailsTo(ctx, ada.applicant.user.email)).filter(
      (e) => e.event === "erasure.requested",
    );
    expect(received?.body).toContain(`${PORTAL}/account/data`);
    // Nothing is erased yet, and a second request waits for the first.
    expect((await app.handle(as(ada.applicant, "GET", "/api/v1/auth/me/"))).status).toBe(200);
    const again = await requestErasure(ctx, ada.applicant, PASSWORD);
    expect((await problemOf(again)).code).toBe("ERASURE_ALREADY_REQUESTED");

    for (const who of [ada.applicant, admin]) {
      const one = await app.handle(as(who, "GET", `/api/v1/data-rights/requests/${request.id}/`));
      expect(await one.json()).toMatchObject({
        id: request.id,
        status: "pending",
        user: { id: ada.applicant.user.id },
      });
    }
    const queue = await app.handle(
      as(admin, "GET", "/api/v1/data-rights/requests/?status=pending&kind=erasure"),
    );
    expect(((await queue.json()) as Paged<RequestJson>).results.map((r) => r.id)).toContain(
      request.id,
    );

    const approved = await app.handle(
      as(admin, "POST", `/api/v1/data-rights/requests/${request.id}/approve/`),
    );
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      status: "completed",
      decidedAt: expect.any(String),
    });
    const [application] = await ctx.db.run(
      (sql) => sql`SELECT status, personal_statement FROM applications WHERE id = ${ada.draft.id}`,
    );
    expect(application).toEqual({ status: "withdrawn", personal_statement: "" });
    const history = await ctx.db.run(
      (sql) => sql`SELECT to_status, actor_id, reason FROM application_transitions
      WHERE application_id = ${ada.draft.id} ORDER BY created_at, id`,
    );
    expect(history.at(-1)).toEqual({
      to_status: "withdrawn",
      actor_id: admin.user.id,
      reason: null,
    });
    // The payment (a receipt was issued) is kept.
    const [payment] = await ctx.db.run(
      (sql) => sql`SELECT status, receipt_number FROM payments WHERE id = ${ada.payment.id}`,
    );
    expect(payment?.status).toBe("succeeded");
    expect(payment?.receipt_number).not.toBeNull();
    expect((await emailsTo(ctx, ada.applicant.user.email)).map((e) => e.event)).toEqual([
      "erasure.completed",
    ]);
    const twice = await app.handle(
      as(admin, "POST", `/api/v1/data-rights/requests/${request.id}/approve/`),
    );
    expect((await problemOf(twice)).code).toBe("DATA_REQUEST_NOT_PENDING");
  });

  test("rejected with a note: the applicant is told why and keeps the account", async () => {
    const ada = await submitted("Ada Rejected");
    const request = (await (
      await requestErasure(ctx, ada.applicant, PASSWORD)
    ).json()) as RequestJson;
    const res = await app.handle(
      as(admin, "POST", `/api/v1/data-rights/requests/${request.id}/reject/`, {
        note: "Your enrolment is being finalised.",
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: "rejected",
      decisionNote: "Your enrolment is being finalised.",
    });
    const [email] = (await emailsTo(ctx, ada.applicant.user.email)).filter(
      (e) => e.event === "erasure.rejected",
    );
    expect(email?.body).toContain("Your enrolment is being finalised.");
    expect((await app.handle(as(ada.applicant, "GET", "/api/v1/auth/me/"))).status).toBe(200);
    // A new request may be made after a decision.
    expect((await requestErasure(ctx, ada.applicant, PASSWORD)).status).toBe(201);
  });

  test("cancelled by the applicant while it waits", async () => {
    const ada = await submitted("Ada Cancels");
    const request = (await (
      await requestErasure(ctx, ada.applicant, PASSWORD)
    ).json()) as RequestJson;
    const res = await app.handle(
      as(ada.applicant, "POST", `/api/v1/data-rights/requests/${request.id}/cancel/`),
    );
    expect(await res.json()).toMatchObject({ status: "cancelled" });
    const events = (await emailsTo(ctx, ada.applicant.user.email)).map((e) => e.event);
    expect(events).toContain("erasure.cancelled");
    const approve = await app.handle(
      as(admin, "POST", `/api/v1/data-rights/requests/${request.id}/approve/`),
    );
    expect((await problemOf(approve)).code).toBe("DATA_REQUEST_NOT_PENDING");
  });
});

describe("payments are kept for the retention period, then deleted", () => {
  test("the purge pass leaves them until retainUntil, and deletes them after", async () => {
    const ada = await applicantWithData(ctx, intake.id, "Ada Retained");
    const request = (await (
      await requestErasure(ctx, ada.applicant, PASSWORD)
    ).json()) as RequestJson;
    const payments = () =>
      count(ctx.db.run((sql) => sql`SELECT count(*) FROM payments WHERE id = ${ada.payment.id}`));
    const until = Date.parse(request.retainUntil ?? "");
    await purgeExpiredPayments(ctx.db, until - 1);
    expect(await payments()).toBe(1);
    expect(await purgeExpiredPayments(ctx.db, until)).toBeGreaterThanOrEqual(1);
    expect(await payments()).toBe(0);
    expect(await purgeExpiredPayments(ctx.db, until + 1)).toBe(0);
  });
});

describe("the archive is streamed", () => {
  test("a large file goes out as it is read, never whole in memory; the result is a valid ZIP", async () => {
    const { zipStream } = await import("../src/modules/data-rights/internal/zip.ts");
    const { unzipSync } = await import("fflate");
    const CHUNK = 64 * 1024;
    const CHUNKS = 64; // 4 MiB
    let pulled = 0;
    const big = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled === CHUNKS) return controller.close();
          pulled++;
          controller.enqueue(new Uint8Array(CHUNK).fill(pulled % 251));
        },
      });
    async function* entries() {
      yield { name: "data.json", compress: true, open: async () => new TextEncoder().encode("{}") };
      yield { name: "files/big.bin", compress: false, open: async () => big() };
    }
    const reader = zipStream(entries()).getReader();
    const parts: Uint8Array[] = [];
    let out = 0;
    // A megabyte of the big file is out while most of it is still unread.
    while (out < 16 * CHUNK) {
      const next = await reader.read();
      if (next.done) break;
      parts.push(next.value);
      out += next.value.byteLength;
    }
    expect(out).toBeGreaterThanOrEqual(16 * CHUNK);
    expect(pulled).toBeLessThan(CHUNKS / 2);
    for (let next = await reader.read(); !next.done; next = await reader.read())
      parts.push(next.value);
    expect(pulled).toBe(CHUNKS);
    const zip = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let offset = 0;
    for (const part of parts) {
      zip.set(part, offset);
      offset += part.byteLength;
    }
    const files = unzipSync(zip);
    expect(files["files/big.bin"]?.byteLength).toBe(CHUNK * CHUNKS);
    expect(new TextDecoder().decode(files["data.json"])).toBe("{}");
  });
});
