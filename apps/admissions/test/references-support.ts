import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { isoAt } from "../src/lib/ids.ts";
import type { Reference } from "../src/modules/references/model.ts";
import { createUser } from "../src/modules/users/service.ts";
import { uploadRequest } from "./files.ts";
import {
  as,
  createDraft,
  json,
  logIn,
  PASSWORD,
  type Session,
  setupApp,
  signIn,
  TEST_PASSWORD_COST,
  type TestContext,
  takeLinkToken,
  uniqueEmail,
} from "./support.ts";
import { intakeWithSeats } from "./workflow-support.ts";

/** The portal base the references suites configure, so links are seen to follow the setting. */
export const PORTAL = "https://apply.example.edu";
export const REFERENCES = "/api/v1/references/";
export const TEXT = "I supervised the applicant's final-year project; careful, inventive work.";

export type ReferenceJson = Reference;

/**
 * A references suite's app on a database of its own: links to PORTAL, link uses per address
 * lifted (every in-process request comes from one address; the limit has its own suite), an
 * admin, an intake with seats, and what the reminders' pass is given.
 */
export async function referencesSuite() {
  const ctx = await setupApp({
    portalUrl: PORTAL,
    references: { ...DEFAULT_SETTINGS.references, linkUsesPerIpPerHour: 1_000_000 },
  });
  const admin = await signIn(ctx, "admin");
  const { program, intake } = await intakeWithSeats(ctx, admin);
  const interval = DEFAULT_SETTINGS.references.reminderIntervalMs;
  const reminders = {
    db: ctx.db,
    now: ctx.clock.now,
    portalUrl: PORTAL,
    reminderIntervalMs: interval,
  };
  return { ctx, admin, program, intake, interval, reminders };
}

/** The newest email of `event` to `to`, as the outbox keeps it. */
export async function lastEmail(ctx: TestContext, to: string, event: string) {
  const [row] = (await ctx.db.run(
    (sql) => sql`SELECT body, subject, application_id FROM email_outbox
      WHERE to_address = ${to} AND event = ${event} ORDER BY created_at DESC, id DESC LIMIT 1`,
  )) as { body: string; subject: string; application_id: string }[];
  return row;
}

/** A referee's details, unique per call. */
export const referee = (overrides: Record<string, unknown> = {}) => ({
  name: "Charles Babbage",
  email: uniqueEmail("referee"),
  relationship: "Project supervisor",
  ...overrides,
});

export const addReferee = (
  ctx: TestContext,
  who: Session,
  applicationId: string,
  overrides: Record<string, unknown> = {},
) =>
  ctx.app.handle(as(who, "POST", "/api/v1/references/", { applicationId, ...referee(overrides) }));

/** Adds a referee (201 expected); returns the request and the token emailed to the referee. */
export async function namedReferee(
  ctx: TestContext,
  who: Session,
  applicationId: string,
  overrides: Record<string, unknown> = {},
) {
  const res = await addReferee(ctx, who, applicationId, overrides);
  if (res.status !== 201) throw new Error(`referee: ${res.status} ${await res.text()}`);
  const reference = (await res.json()) as ReferenceJson;
  const token = await takeLinkToken(ctx, reference.refereeEmail, "reference_requested");
  return { reference, token };
}

/** An applicant whose email is not verified (created directly, then signed in). */
export async function unverifiedApplicant(ctx: TestContext): Promise<Session> {
  const email = uniqueEmail("unverified");
  await createUser(
    ctx.db,
    { email, fullName: "Test applicant", password: PASSWORD, role: "applicant" },
    TEST_PASSWORD_COST,
    ctx.clock.now(),
  );
  return logIn(ctx, email);
}

/** A new verified applicant with a draft for the intake. */
export async function applicantWithDraft(ctx: TestContext, intakeId: string) {
  const applicant = await signIn(ctx);
  const draft = await createDraft(ctx, applicant, intakeId);
  return { applicant, draft };
}

/** The referee's calls: no account, the token in the body. */
export const openLink = (ctx: TestContext, token: string) =>
  ctx.app.handle(json("POST", `/api/v1/references/link/`, { token }));
export const sendText = (ctx: TestContext, token: string, text = TEXT) =>
  ctx.app.handle(json("POST", `/api/v1/references/link/text/`, { token, text }));
export const sendFile = (
  ctx: TestContext,
  token: string | null,
  bytes: Uint8Array,
  filename = "reference.pdf",
) =>
  ctx.app.handle(
    uploadRequest(`/api/v1/references/link/file/`, token === null ? {} : { token }, {
      bytes,
      filename,
      contentType: "application/pdf",
    }),
  );

export const listOf = async (ctx: TestContext, who: Session, applicationId: string) =>
  ctx.app.handle(as(who, "GET", `/api/v1/references/?applicationId=${applicationId}`));

export const codeOf = async (res: Response) => (await problemOf(res)).code;

/** Puts the reviewer on the application, as an admin's assignment does. */
export const assign = (
  ctx: TestContext,
  reviewer: Session,
  admin: Session,
  applicationId: string,
) =>
  ctx.db.run(
    (sql) =>
      sql`INSERT INTO review_assignments ${sql({
        application_id: applicationId,
        reviewer_id: reviewer.user.id,
        assigned_by: admin.user.id,
        assigned_at: isoAt(ctx.clock.now()),
      })}`,
  );

/** Time travel for the referee's (unauthenticated) calls and the jobs, undone after. */
export async function later<T>(ctx: TestContext, ms: number, work: () => Promise<T>): Promise<T> {
  const start = ctx.clock.now();
  ctx.clock.advance(ms);
  try {
    return await work();
  } finally {
    ctx.clock.set(start);
  }
}
