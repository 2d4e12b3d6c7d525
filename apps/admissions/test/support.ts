import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, parseTrustedProxies, type SharedStore } from "@platform/server";
import { testStore } from "@platform/server/testing";
import { type AppDeps, createApp } from "../src/app.ts";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { type Db, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { afterResponse } from "../src/lib/after-response.ts";
import { localDiskStorage } from "../src/lib/files/storage.ts";
import { isoAt } from "../src/lib/ids.ts";
import type { PageOf } from "../src/lib/pagination.ts";
import type { Intake, Program, ProgramListItem } from "../src/modules/catalog/model.ts";
import type { Role, User } from "../src/modules/users/model.ts";
import { createUser } from "../src/modules/users/service.ts";
import type { Application } from "../src/modules/workflow/model.ts";
import { databaseUrl, dropLater, emptyDatabase, migratedDatabase } from "./pg-databases.ts";

/** Cheap argon2id for tests: same algorithm and code path, a fraction of the cost. */
export const TEST_PASSWORD_COST = { memoryCost: 64, timeCost: 1 };
export const TEST_SECRET = "test-secret-that-is-long-enough-0123456789";
export const PASSWORD = "correct-horse-battery";

/**
 * A database for one suite: in-memory SQLite (or `sqliteFile`) by default; with
 * TEST_DATABASE_URL (a PostgreSQL server), a database of its own, dropped after
 * (`migrated`: a copy of the migrated template; test/pg-databases.ts). `env` points the CLI
 * commands at the same database.
 */
export async function testDatabaseTarget(sqliteFile = ":memory:", { migrated = false } = {}) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    return {
      env: { DATABASE_URL: "", ADMISSIONS_SQLITE_FILE: sqliteFile },
      open: () => openDatabase({ sqliteFile }),
      drop: async () => {},
    };
  }
  const name = migrated ? await migratedDatabase(serverUrl) : await emptyDatabase(serverUrl);
  const url = databaseUrl(serverUrl, name);
  return {
    env: { DATABASE_URL: url, ADMISSIONS_SQLITE_FILE: sqliteFile },
    open: () => openDatabase({ url, sqliteFile, maxConnections: 4 }),
    drop: async () => dropLater(serverUrl, name),
  };
}

/** The suite's database, migrated. */
export async function testDatabase(): Promise<{ db: Db; drop(): Promise<void> }> {
  const target = await testDatabaseTarget(":memory:", { migrated: true });
  const db = await target.open();
  // Nothing left to apply on PostgreSQL's copy; it still checks the checksums.
  await migrate(db);
  return {
    db,
    async drop() {
      await db.close();
      await target.drop();
    },
  };
}

export type TestClock = { now: () => number; advance(ms: number): void; set(ms: number): void };

/** Starts at the real time: JWT `iat` is always stamped with the real clock. */
export function testClock(start = Date.now()): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

export type TestContext = Awaited<ReturnType<typeof setupApp>>;

/**
 * Every in-process request comes from one client address, so the per-IP limits on account
 * emails and links (which `signIn` uses for each applicant it verifies) are out of reach here;
 * the account tests that are about those limits set their own.
 */
export const TEST_ACCOUNT_LIMITS = {
  ...DEFAULT_SETTINGS.accountLimits,
  emailsPerIpPerHour: 1_000_000,
  linkUsesPerIpPerHour: 1_000_000,
};

/**
 * An app on the suite's database and store, with a controllable clock; torn down after all.
 * Its settings are env.ts's defaults (`DEFAULT_SETTINGS`) with the test's own on top: a
 * nested setting is given whole (`{ ...DEFAULT_SETTINGS.webhooks, allowPrivateTargets: true }`).
 */
export async function setupApp(overrides: Partial<AppDeps> = {}) {
  const { db, drop } = await testDatabase();
  const store: SharedStore = testStore("admissions");
  const clock = testClock();
  const documentsDir = mkdtempSync(join(tmpdir(), "admissions-documents-"));
  const documentStorage = localDiskStorage(documentsDir);
  const deps: AppDeps = {
    ...DEFAULT_SETTINGS,
    db,
    store,
    logger: createLogger({ service: "admissions", level: "silent" }),
    jwtSecret: TEST_SECRET,
    trustedProxies: parseTrustedProxies("loopback"),
    now: clock.now,
    passwordCost: TEST_PASSWORD_COST,
    documentStorage,
    accountLimits: TEST_ACCOUNT_LIMITS,
    afterResponse: afterResponse(createLogger({ service: "admissions", level: "silent" })),
    ...overrides,
  };
  const app = createApp(deps);
  afterAll(async () => {
    await store.close();
    await drop();
    rmSync(documentsDir, { recursive: true, force: true });
  });
  return { app, db, store, clock, deps, documentStorage };
}

let counter = 0;
export const uniqueEmail = (label = "user") =>
  `${label}-${++counter}-${crypto.randomUUID().slice(0, 8)}@example.org`;

export type Session = {
  user: User;
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
  /** `name=value` of the session cookie, for a Cookie header. */
  cookie: string;
};

/**
 * A user of `role` created directly, then logged in through the API. An applicant's email is
 * then verified through the API (`verifyEmail`), as submitting needs.
 */
export async function signIn(ctx: TestContext, role: Role = "applicant"): Promise<Session> {
  const email = uniqueEmail(role);
  await createUser(
    ctx.db,
    { email, fullName: `Test ${role}`, password: PASSWORD, role },
    TEST_PASSWORD_COST,
    ctx.clock.now(),
  );
  const session = await logIn(ctx, email);
  if (role === "applicant") await verifyEmail(ctx, session);
  return session;
}

/** What most staff-side suites start with: an app of their own, an admin and a reviewer. */
export async function suiteWithStaff(overrides: Partial<AppDeps> = {}) {
  const ctx = await setupApp(overrides);
  return { ctx, admin: await signIn(ctx, "admin"), reviewer: await signIn(ctx, "reviewer") };
}

/**
 * Verifies the account's email as its owner does: asks for a link, reads it in the email the
 * outbox holds for them, and opens it.
 */
export async function verifyEmail(ctx: TestContext, session: Session): Promise<void> {
  const sent = await ctx.app.handle(as(session, "POST", "/api/v1/account/email-verification/"));
  if (sent.status !== 202)
    throw new Error(`verification link: ${sent.status} ${await sent.text()}`);
  const token = await takeLinkToken(ctx, session.user.email, "email_verification");
  const res = await ctx.app.handle(
    json("POST", "/api/v1/account/email-verification/confirm/", { token }),
  );
  if (res.status !== 204) throw new Error(`verify: ${res.status} ${await res.text()}`);
}

/**
 * The link token in the newest `event` email to `to`, read from the outbox as the recipient
 * reads it. That email is then marked sent (to the test's inbox), so the suites that count
 * deliveries see only the emails they are about.
 */
export async function takeLinkToken(ctx: TestContext, to: string, event: string): Promise<string> {
  const [row] = (await ctx.db.run(
    (sql) => sql`SELECT id, body FROM email_outbox WHERE to_address = ${to} AND event = ${event}
      ORDER BY created_at DESC, id DESC LIMIT 1`,
  )) as { id: string; body: string }[];
  const token = /[?&]token=([\w-]+)/.exec(row?.body ?? "")?.[1];
  if (!row || !token) throw new Error(`no ${event} email with a link to ${to}`);
  await ctx.db.run(
    (sql) => sql`UPDATE email_outbox SET status = 'sent', sent_at = ${isoAt(ctx.clock.now())},
      transport = 'test-inbox' WHERE id = ${row.id}`,
  );
  return token;
}

export async function logIn(ctx: TestContext, email: string, password = PASSWORD) {
  const res = await ctx.app.handle(json("POST", "/api/v1/auth/login/", { email, password }));
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Omit<Session, "cookie">;
  return { ...body, cookie: sessionCookieOf(res) };
}

export function sessionCookieOf(res: Response): string {
  const header = res.headers.getSetCookie().find((c) => c.startsWith("__Host-admissions_session="));
  if (!header) throw new Error("no session cookie was set");
  return header.split(";")[0] ?? "";
}

type CallOptions = {
  token?: string;
  cookie?: string;
  csrf?: string;
  headers?: Record<string, string>;
};

/** A request as a client sends it: JSON body, bearer token or cookie (+ CSRF header). */
export function json(
  method: string,
  path: string,
  body?: unknown,
  opts: CallOptions = {},
): Request {
  const headers = new Headers(opts.headers);
  if (body !== undefined) headers.set("content-type", "application/json");
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  if (opts.csrf) headers.set("x-csrf-token", opts.csrf);
  return new Request(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** As `json`, authenticated with the session's bearer token. */
export const as = (session: Session, method: string, path: string, body?: unknown) =>
  json(method, path, body, { token: session.accessToken });

const DAY = 86_400_000;
let codeCounter = 0;

/** A unique, valid program code. */
export const uniqueCode = (prefix = "P") =>
  `${prefix}-${(++codeCounter).toString(36).toUpperCase()}${crypto.randomUUID().slice(0, 6).toUpperCase()}`;

export type ProgramJson = Program;
export type ProgramCardJson = ProgramListItem;
export type IntakeJson = Intake;

/** A program created by staff through the API; no documents and no fee unless overridden. */
export async function createProgram(
  ctx: TestContext,
  staff: Session,
  overrides: Record<string, unknown> = {},
): Promise<ProgramJson> {
  const res = await ctx.app.handle(
    as(staff, "POST", "/api/v1/catalog/programs/", {
      code: uniqueCode(),
      name: "Test Program",
      level: "bachelor",
      department: "Test Department",
      durationMonths: 36,
      applicationFee: { amount: 0, currency: "EUR" },
      ...overrides,
    }),
  );
  if (res.status !== 201) throw new Error(`program: ${res.status} ${await res.text()}`);
  return (await res.json()) as ProgramJson;
}

/** An intake, open now (by the test clock) unless `opensInDays`/`closesInDays` say otherwise. */
export async function createIntake(
  ctx: TestContext,
  staff: Session,
  programId: string,
  window: { opensInDays?: number; closesInDays?: number; term?: string; capacity?: number } = {},
): Promise<IntakeJson> {
  const now = ctx.clock.now();
  const res = await ctx.app.handle(
    as(staff, "POST", `/api/v1/catalog/programs/${programId}/intakes/`, {
      term: window.term ?? `Term ${crypto.randomUUID().slice(0, 8)}`,
      opensAt: new Date(now + (window.opensInDays ?? -10) * DAY).toISOString(),
      deadline: new Date(now + (window.closesInDays ?? 30) * DAY).toISOString(),
      capacity: window.capacity ?? 50,
    }),
  );
  if (res.status !== 201) throw new Error(`intake: ${res.status} ${await res.text()}`);
  return (await res.json()) as IntakeJson;
}

export type Paged<T> = PageOf<T>;

// The API's own schemas, not hand-written twins: a change to a response shape shows here.
export type ApplicationJson = Application;

/** A draft application by `applicant` for `intakeId`, through the API. */
export async function createDraft(
  ctx: TestContext,
  applicant: Session,
  intakeId: string,
  form: Record<string, unknown> = {},
): Promise<ApplicationJson> {
  const res = await ctx.app.handle(
    as(applicant, "POST", "/api/v1/applications/", { intakeId, ...form }),
  );
  if (res.status !== 201) throw new Error(`draft: ${res.status} ${await res.text()}`);
  return (await res.json()) as ApplicationJson;
}

/** POST a move (`submit`, `withdraw`, or a `transitions` body) as `who`. */
export function move(
  ctx: TestContext,
  who: Session,
  applicationId: string,
  to: string,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  return ctx.app.handle(
    as(who, "POST", `/api/v1/applications/${applicationId}/transitions/`, { to, ...extra }),
  );
}
