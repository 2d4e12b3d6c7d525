import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForHttp } from "@platform/server/testing";
import type { Subprocess } from "bun";
import { pdf } from "./files.ts";
import { startSmtpServer } from "./smtp.ts";
import { testDatabaseTarget, uniqueEmail } from "./support.ts";

// The real admissions app and the real gateway, started as `bun run start` starts them, on a
// temporary SQLite file (or a fresh PostgreSQL database with TEST_DATABASE_URL), Redis with
// TEST_REDIS_URL, and a real SMTP server on loopback. Every step goes over HTTP through the
// gateway.
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
  // Registrations are counted per address for an hour, in Redis across runs of this file on the
  // same server: the journeys are not about that limit (auth tests are), so it is out of reach.
  ADMISSIONS_REGISTER_RATE_LIMIT: "100000",
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

afterAll(async () => {
  for (const proc of procs) if (proc.exitCode === null) proc.kill("SIGTERM");
  await Promise.all(procs.map((proc) => proc.exited));
  await smtp.close();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, unknown> & { id: string };

/** A signed-in caller through the gateway (bearer token). */
async function session(email: string, password: string) {
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
type Caller = Awaited<ReturnType<typeof session>>;

async function register(fullName: string): Promise<Caller> {
  const email = uniqueEmail("applicant");
  const password = "applicant-password-1";
  const res = await fetch(`${base}/api/v1/auth/register/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, fullName }),
  });
  expect(res.status).toBe(201);
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

describe("journey through the gateway: apply, review, offer, accept, enrol", () => {
  test("every step over HTTP; history, audit log and emails show each one", async () => {
    const { intake } = await program(10, {
      requiredDocuments: ["transcript"],
      applicationFee: { amount: 5000, currency: "EUR" },
    });
    const ada = await register("Ada Applicant");
    const draft = await ada.call("POST", "/api/v1/applications/", { intakeId: intake.id }, 201);
    const id = draft.id;

    const form = new FormData();
    form.append("type", "transcript");
    form.append("file", new Blob([pdf()], { type: "application/pdf" }), "transcript.pdf");
    const doc = await ada.call("POST", `/api/v1/applications/${id}/documents/`, form, 201);
    const payment = await ada.call(
      "POST",
      `/api/v1/applications/${id}/payments/`,
      { provider: "manual" },
      201,
      {
        "idempotency-key": crypto.randomUUID(),
      },
    );
    expect(payment.status).toBe("pending");
    await admin.call("POST", `/api/v1/payments/${payment.id}/confirm/`, {
      note: "Transfer received",
    });
    await admin.call("POST", `/api/v1/applications/${id}/documents/${doc.id}/review/`, {
      decision: "verified",
    });
    const submitted = await ada.call("POST", `/api/v1/applications/${id}/submit/`);
    expect(submitted.status).toBe("submitted");

    const assigned = await admin.call("POST", `/api/v1/applications/${id}/assignments/`, {}, 201);
    expect(assigned.reviewerId).toBe(reviewer.user.id);
    const queue = await reviewer.call<{ results: { application: Json }[] }>(
      "GET",
      "/api/v1/staff/queue/?pending=true",
    );
    expect(queue.results.map((item) => item.application.id)).toContain(id);
    await reviewer.call("PUT", `/api/v1/applications/${id}/reviews/mine/`, {
      scores: { academics: 5, motivation: 3 },
      recommendation: "offer",
      comment: "Excellent record",
    });
    const reviews = await admin.call("GET", `/api/v1/applications/${id}/reviews/`);
    expect(reviews.weightedTotal).toBe(4.5);

    const offered = await admin.call("POST", `/api/v1/applications/${id}/decision/`, {
      decision: "offer",
      reason: "Top of the cohort",
    });
    expect(offered.status).toBe("offered");
    const accepted = await ada.call("POST", `/api/v1/applications/${id}/accept/`);
    expect(accepted.status).toBe("accepted");
    const enrolled = await admin.call("POST", `/api/v1/applications/${id}/transitions/`, {
      to: "enrolled",
    });
    expect(enrolled.status).toBe("enrolled");

    const history = await ada.call<{
      results: { from: string | null; to: string; actor: { role: string } }[];
    }>("GET", `/api/v1/applications/${id}/history/`);
    expect(history.results.map((t) => [t.to, t.actor.role])).toEqual([
      ["draft", "applicant"],
      ["submitted", "applicant"],
      ["under_review", "admin"],
      ["offered", "admin"],
      ["accepted", "applicant"],
      ["enrolled", "admin"],
    ]);

    const audit = await admin.call<{
      results: { action: string; clientIp: string | null; actor: { id: string } }[];
    }>("GET", `/api/v1/staff/audit/?applicationId=${id}&limit=100`);
    expect(audit.results.map((e) => e.action).reverse()).toEqual([
      "payment.confirmed",
      "document.reviewed",
      "application.reviewer_assigned",
      "application.transition",
      "review.saved",
      "application.transition",
      "application.transition",
    ]);
    // The gateway forwards the caller's address; admissions trusts it from loopback.
    expect(audit.results.every((e) => e.clientIp === "127.0.0.1")).toBe(true);

    const emails = await emailsFor(id, ["submitted", "offered", "accepted", "enrolled"]);
    expect(emails.map((m) => m.headers["x-admissions-event"])).toEqual([
      "submitted",
      "offered",
      "accepted",
      "enrolled",
    ]);
    expect(emails.every((m) => m.to[0] === ada.user.email)).toBe(true);
    expect(emails[1]?.subject).toBe("Offer of a place: Journey Studies");
  });
});

describe("journey through the gateway: waitlist promotion after a decline", () => {
  test("the only seat is declined and goes to the first waitlisted applicant", async () => {
    const { intake } = await program(1);
    const [first, second] = [await register("Finn First"), await register("Sam Second")];
    const ids: string[] = [];
    for (const who of [first, second]) {
      const draft = await who.call("POST", "/api/v1/applications/", { intakeId: intake.id }, 201);
      await who.call("POST", `/api/v1/applications/${draft.id}/submit/`);
      await admin.call("POST", `/api/v1/applications/${draft.id}/assignments/`, {}, 201);
      ids.push(draft.id);
    }
    const [a, b] = ids as [string, string];
    await admin.call("POST", `/api/v1/applications/${a}/decision/`, { decision: "offer" });
    const waitlisted = await admin.call("POST", `/api/v1/applications/${b}/decision/`, {
      decision: "waitlist",
    });
    expect(waitlisted.waitlistPosition).toBe(1);
    await admin.call("POST", `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`, {}, 409);

    await first.call("POST", `/api/v1/applications/${a}/decline/`);
    const seats = await admin.call("GET", `/api/v1/staff/intakes/${intake.id}/seats/`);
    expect(seats).toMatchObject({ capacity: 1, held: 0, available: 1, waitlisted: 1 });
    const promoted = await admin.call(
      "POST",
      `/api/v1/staff/intakes/${intake.id}/waitlist/promote/`,
      {},
    );
    expect(promoted).toMatchObject({ id: b, status: "offered", waitlistPosition: null });
    await second.call("POST", `/api/v1/applications/${b}/accept/`);

    const audit = await admin.call<{ results: { details: { to?: string; via?: string } }[] }>(
      "GET",
      `/api/v1/staff/audit/?applicationId=${b}&action=application.transition`,
    );
    expect(audit.results.map((e) => [e.details.to, e.details.via])).toEqual([
      ["offered", "promotion"],
      ["waitlisted", "decision"],
      ["under_review", "assignment"],
    ]);
    const firstEmails = await emailsFor(a, ["submitted", "offered", "declined"]);
    expect(firstEmails.map((m) => m.headers["x-admissions-event"])).toEqual([
      "submitted",
      "offered",
      "declined",
    ]);
    const secondEmails = await emailsFor(b, ["submitted", "waitlisted", "offered", "accepted"]);
    expect(secondEmails.map((m) => m.headers["x-admissions-event"])).toEqual([
      "submitted",
      "waitlisted",
      "offered",
      "accepted",
    ]);
    expect(secondEmails[1]?.text).toContain("position 1");
  });
});

describe("shutdown", () => {
  test("both processes stop cleanly on SIGTERM", async () => {
    for (const proc of [gateway, admissions]) proc.kill("SIGTERM");
    expect(await gateway.exited).toBe(0);
    expect(await admissions.exited).toBe(0);
  });
});
