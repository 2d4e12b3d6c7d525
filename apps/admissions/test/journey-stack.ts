import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForHttp } from "@platform/server/testing";
import type { Subprocess } from "bun";
import { startSmtpServer } from "./smtp.ts";
import { testDatabaseTarget, uniqueEmail } from "./support.ts";

/**
 * The journeys' stack (journey*.test.ts): the real admissions app and the real gateway, started
 * as `bun run start` starts them, on a temporary SQLite file (or a fresh PostgreSQL database with
 * TEST_DATABASE_URL), Redis with TEST_REDIS_URL, and a real SMTP server on loopback; an admin, a
 * reviewer, and helpers that call through the gateway. Every step goes over HTTP.
 */
export async function startJourneyStack(extraEnv: Record<string, string> = {}) {
  const APPS = join(import.meta.dir, "../..");
  const dir = mkdtempSync(join(tmpdir(), "admissions-journey-"));
  const target = await testDatabaseTarget(join(dir, "admissions.sqlite"));
  const smtp = await startSmtpServer();
  const ports = { gateway: await freePort(), admissions: await freePort(), dead: await freePort() };
  const base = `http://127.0.0.1:${ports.gateway}`;
  const ADMIN = { email: uniqueEmail("head"), password: "a-long-admin-password" };

  const baseEnv = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
  };
  const admissionsEnv = {
    ...baseEnv,
    ...target.env,
    ADMISSIONS_PORT: String(ports.admissions),
    ADMISSIONS_DOCUMENTS_DIR: join(dir, "documents"),
    ADMISSIONS_JOBS_INTERVAL_MS: "100",
    SMTP_URL: smtp.url,
    ADMISSIONS_MAIL_FROM: "Admissions Office <admissions@example.org>",
    ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    // Registrations, emails sent and links used are counted per address for an hour, in Redis
    // across runs of this file on the same server (one address, one "admissions:" namespace):
    // the journeys are not about those limits (auth and account tests are), so they are lifted.
    ADMISSIONS_REGISTER_RATE_LIMIT: "100000",
    ADMISSIONS_ACCOUNT_EMAIL_RATE_LIMIT: "100000",
    ADMISSIONS_ACCOUNT_LINK_RATE_LIMIT: "100000",
    ADMISSIONS_REFERENCE_LINK_RATE_LIMIT: "100000",
    ADMISSIONS_LOGIN_MAX_FAILURES_PER_IP: "100000",
    ...extraEnv,
  };

  const migrated = Bun.spawnSync(
    ["bun", "run", "create-admin", "--", "--email", ADMIN.email, "--password", ADMIN.password],
    {
      cwd: join(APPS, "admissions"),
      env: admissionsEnv,
    },
  );
  if (migrated.exitCode !== 0) throw new Error(`create-admin: ${migrated.stderr.toString()}`);

  const procs: Subprocess<"ignore", "pipe", "pipe">[] = [];
  function start(app: string, env: Record<string, string>) {
    const proc = Bun.spawn(["bun", "run", "start"], {
      cwd: join(APPS, app),
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    procs.push(proc);
    return proc;
  }
  const admissions = start("admissions", admissionsEnv);
  const gateway = start("gateway", {
    ...baseEnv,
    GATEWAY_PORT: String(ports.gateway),
    ADMISSIONS_URL: `http://127.0.0.1:${ports.admissions}`,
    LEADERBOARD_PORT: String(ports.dead),
    RUNNER_PORT: String(ports.dead),
    BENCH_PORT: String(ports.dead),
  });
  await waitForHttp(`http://127.0.0.1:${ports.admissions}/health/live/`, 20_000);
  await waitForHttp(`${base}/gateway/live`, 20_000);

  /** Stops both processes (if a test has not), the SMTP server, and drops the database. */
  async function stop() {
    for (const proc of procs) if (proc.exitCode === null) proc.kill("SIGTERM");
    await Promise.all(procs.map((proc) => proc.exited));
    await smtp.close();
    await target.drop();
    rmSync(dir, { recursive: true, force: true });
  }

  const session = (email: string, password: string) => openSession(base, email, password);

  async function register(fullName: string): Promise<Caller> {
    const email = uniqueEmail("applicant");
    const password = "applicant-password-1";
    const res = await fetch(`${base}/api/v1/auth/register/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, fullName }),
    });
    expect(res.status).toBe(202);
    await verifyByEmail(email);
    return session(email, password);
  }

  /**
   * Opens the verification link registration emailed, as the applicant does: the message as it
   * arrived over SMTP, its link's token posted to the API (what the portal's page does).
   */
  async function verifyByEmail(email: string) {
    const deadline = Date.now() + 15_000;
    let token: string | undefined;
    while (!token && Date.now() < deadline) {
      const message = smtp.messages.find(
        (m) => m.to.includes(email) && m.headers["x-admissions-event"] === "email_verification",
      );
      token = /\/account\/verify-email\?token=([\w-]+)/.exec(message?.text ?? "")?.[1];
      if (!token) await Bun.sleep(50);
    }
    const res = await fetch(`${base}/api/v1/account/email-verification/confirm/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(204);
  }

  /** The emails that arrived for an application, by event, once `events` are all there. */
  async function emailsFor(applicationId: string, events: string[]) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const arrived = smtp.messages.filter(
        (m) => m.headers["x-admissions-application"] === applicationId,
      );
      const seen = arrived.map((m) => m.headers["x-admissions-event"]);
      if (events.every((e) => seen.includes(e)) || Date.now() > deadline) return arrived;
      await Bun.sleep(50);
    }
  }

  const admin = await session(ADMIN.email, ADMIN.password);
  const reviewerEmail = uniqueEmail("reviewer");
  await admin.call(
    "POST",
    "/api/v1/staff/users/",
    {
      email: reviewerEmail,
      fullName: "Riley Reviewer",
      password: "reviewer-password-1",
      role: "reviewer",
    },
    201,
  );
  const reviewer = await session(reviewerEmail, "reviewer-password-1");
  const RUBRIC = {
    scale: { min: 1, max: 5 },
    criteria: [
      { key: "academics", label: "Academic record", weight: 3 },
      { key: "motivation", label: "Motivation", weight: 1 },
    ],
  };

  /** A program with a rubric and the reviewer in its pool, and one open intake. */
  async function program(capacity: number, extra: Record<string, unknown> = {}) {
    const created = await admin.call(
      "POST",
      "/api/v1/catalog/programs/",
      {
        code: `J-${crypto.randomUUID().slice(0, 8).toUpperCase()}`,
        name: "Journey Studies",
        level: "master",
        department: "Testing",
        durationMonths: 12,
        applicationFee: { amount: 0, currency: "EUR" },
        ...extra,
      },
      201,
    );
    await admin.call("PUT", `/api/v1/staff/programs/${created.id}/rubric/`, RUBRIC);
    await admin.call("PUT", `/api/v1/staff/programs/${created.id}/reviewers/`, {
      reviewerIds: [reviewer.user.id],
    });
    const now = Date.now();
    const intake = await admin.call(
      "POST",
      `/api/v1/catalog/programs/${created.id}/intakes/`,
      {
        term: "Autumn",
        opensAt: new Date(now - 86_400_000).toISOString(),
        deadline: new Date(now + 30 * 86_400_000).toISOString(),
        capacity,
      },
      201,
    );
    return { program: created, intake };
  }
  return {
    base,
    smtp,
    admin,
    reviewer,
    admissions,
    gateway,
    session,
    register,
    verifyByEmail,
    emailsFor,
    program,
    stop,
  };
}

export type Json = Record<string, unknown> & { id: string };

/** A signed-in caller through the gateway (bearer token). */
export async function openSession(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/v1/auth/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const { accessToken, user } = (await res.json()) as { accessToken: string; user: Json };
  async function call<T = Json>(
    method: string,
    path: string,
    body?: unknown,
    status = 200,
    headers = {},
  ) {
    const init: RequestInit = {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...headers },
    };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await fetch(base + path, init);
    if (res.status !== status)
      throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? null : await res.json()) as T;
  }
  return { user, call };
}
export type Caller = Awaited<ReturnType<typeof openSession>>;
export type JourneyStack = Awaited<ReturnType<typeof startJourneyStack>>;
