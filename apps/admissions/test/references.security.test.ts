import { describe, expect, test } from "bun:test";
import { createLogger, memorySink } from "@platform/server";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { REFEREES_PER_HOUR } from "../src/modules/references/service.ts";
import { requestErasure } from "./data-rights-support.ts";
import { pdf } from "./files.ts";
import {
  addReferee,
  applicantWithDraft,
  assign,
  codeOf,
  listOf,
  namedReferee,
  openLink,
  PORTAL,
  REFERENCES,
  sendFile,
  sendText,
} from "./references-support.ts";
import { as, json, PASSWORD, setupApp, signIn } from "./support.ts";
import { intakeWithSeats } from "./workflow-support.ts";

const sink = memorySink();
const ctx = await setupApp({
  portalUrl: PORTAL,
  references: { ...DEFAULT_SETTINGS.references, linkUsesPerIpPerHour: 1_000_000 },
  logger: createLogger({ service: "admissions", level: "info", sink }),
});
const admin = await signIn(ctx, "admin");
const { intake } = await intakeWithSeats(ctx, admin);

/** An applicant's application with one referee who has sent a PDF. */
async function answeredReference() {
  const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
  const { reference, token } = await namedReferee(ctx, applicant, draft.id);
  const sent = await sendFile(ctx, token, pdf());
  if (sent.status !== 204) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
  return { applicant, draft, reference, token };
}

describe("who sees what", () => {
  test("another applicant: every route answers 404, as for an unknown id", async () => {
    const { draft, reference } = await answeredReference();
    const other = await signIn(ctx);
    const calls = [
      await listOf(ctx, other, draft.id),
      await addReferee(ctx, other, draft.id),
      await ctx.app.handle(as(other, "DELETE", `/api/v1/references/${reference.id}/`)),
    ];
    for (const res of calls) expect(res.status).toBe(404);
    const unknown = await ctx.app.handle(
      as(other, "DELETE", `/api/v1/references/${crypto.randomUUID()}/`),
    );
    expect(unknown.status).toBe(404);
    expect(await calls[2]?.json()).toMatchObject({ detail: "Reference not found" });
  });

  test("the applicant sees the status only: content and file are staff-only (403)", async () => {
    const { applicant, reference } = await answeredReference();
    for (const path of [
      `/api/v1/references/${reference.id}/`,
      `/api/v1/references/${reference.id}/file/`,
    ]) {
      const res = await ctx.app.handle(as(applicant, "GET", path));
      expect(res.status).toBe(403);
    }
  });

  test("reviewers read only the applications they are assigned to (and not conflicted on)", async () => {
    const { draft, reference } = await answeredReference();
    const reviewer = await signIn(ctx, "reviewer");
    const paths = [
      `/api/v1/references/?applicationId=${draft.id}`,
      `/api/v1/references/${reference.id}/`,
      `/api/v1/references/${reference.id}/file/`,
    ];
    for (const path of paths) {
      expect((await ctx.app.handle(as(reviewer, "GET", path))).status).toBe(404);
    }
    await assign(ctx, reviewer, admin, draft.id);
    for (const path of paths) {
      expect((await ctx.app.handle(as(reviewer, "GET", path))).status).toBe(200);
    }
    await ctx.db.run(
      (sql) =>
        sql`INSERT INTO review_conflicts ${sql({
          application_id: draft.id,
          reviewer_id: reviewer.user.id,
          reason: "Former student",
          created_at: new Date(ctx.clock.now()).toISOString(),
        })}`,
    );
    for (const path of paths) {
      expect((await ctx.app.handle(as(reviewer, "GET", path))).status).toBe(404);
    }
    for (const path of paths) {
      expect((await ctx.app.handle(as(admin, "GET", path))).status).toBe(200);
    }
  });

  test("staff cannot name or remove referees (403); anonymous callers get 401", async () => {
    const { applicant, draft, reference } = await answeredReference();
    expect((await addReferee(ctx, admin, draft.id)).status).toBe(403);
    const remove = await ctx.app.handle(as(admin, "DELETE", `/api/v1/references/${reference.id}/`));
    expect(remove.status).toBe(403);
    const anonymous = [
      json("GET", `/api/v1/references/?applicationId=${draft.id}`),
      json("POST", REFERENCES, {
        applicationId: draft.id,
        name: "X",
        email: "x@example.org",
        relationship: "y",
      }),
      json("GET", `/api/v1/references/${reference.id}/`),
      json("GET", `/api/v1/references/${reference.id}/file/`),
      json("DELETE", `/api/v1/references/${reference.id}/`),
    ];
    for (const request of anonymous) expect((await ctx.app.handle(request)).status).toBe(401);
    expect(applicant.user.role).toBe("applicant");
  });

  test("a cookie session without the CSRF header cannot name a referee", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const res = await ctx.app.handle(
      json(
        "POST",
        REFERENCES,
        { applicationId: draft.id, name: "X", email: "x@example.org", relationship: "y" },
        { cookie: applicant.cookie },
      ),
    );
    expect(res.status).toBe(403);
    expect(await codeOf(res)).toBe("CSRF_TOKEN_MISSING");
  });
});

describe("the link's token", () => {
  test("guesses are 400 INVALID_REFERENCE_LINK, whatever their shape; never a 500", async () => {
    for (const token of ["x", "A".repeat(43), "../../etc/passwd", "' OR 1=1 --"]) {
      const res = await openLink(ctx, token);
      expect(res.status).toBe(400);
      expect(await codeOf(res)).toBe("INVALID_REFERENCE_LINK");
    }
    expect((await openLink(ctx, "y".repeat(129))).status).toBe(422);
  });

  test("never reaches the log: it travels in bodies, which are not logged", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { token } = await namedReferee(ctx, applicant, draft.id);
    await openLink(ctx, token);
    await sendText(ctx, token);
    await sendText(ctx, token);
    // Request lines are written once the response is sent: wait for them (bounded).
    let lines = "";
    for (let i = 0; i < 100 && !lines.includes("/api/v1/references/link/text/"); i++) {
      await Bun.sleep(10);
      lines = JSON.stringify(sink.lines());
    }
    expect(lines).toContain("/api/v1/references/link/text/");
    expect(lines).not.toContain(token);
  });

  test("per client IP, every use (right or wrong) spends the quota: brute force meets 429", async () => {
    const limited = await setupApp({
      portalUrl: PORTAL,
      references: { ...DEFAULT_SETTINGS.references, linkUsesPerIpPerHour: 3 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await openLink(limited, `guess-${i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const upload = await sendFile(limited, "guess", pdf());
    expect(upload.status).toBe(429);
    expect(upload.headers.get("retry-after")).not.toBeNull();
  });

  test(`an applicant names at most ${REFEREES_PER_HOUR} referees an hour (each one emails a third party)`, async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    for (let i = 0; i < REFEREES_PER_HOUR; i++) {
      const { reference } = await namedReferee(ctx, applicant, draft.id);
      await ctx.app.handle(as(applicant, "DELETE", `/api/v1/references/${reference.id}/`));
    }
    const res = await addReferee(ctx, applicant, draft.id);
    expect(res.status).toBe(429);
  });
});

describe("data rights", () => {
  test("erasing the applicant deletes their referees, references and uploaded files", async () => {
    const { applicant, reference } = await answeredReference();
    const [row] = await ctx.db.run(
      (sql) => sql`SELECT storage_key FROM reference_requests WHERE id = ${reference.id}`,
    );
    const key = String(row?.storage_key);
    expect(await ctx.documentStorage.read(key)).not.toBeNull();
    const res = await requestErasure(ctx, applicant, PASSWORD);
    expect(res.status).toBe(201);
    await ctx.deps.afterResponse?.settled();
    const left = await ctx.db.run(
      (sql) => sql`SELECT id FROM reference_requests WHERE id = ${reference.id}`,
    );
    expect(left).toEqual([]);
    expect(await ctx.documentStorage.read(key)).toBeNull();
  });
});
