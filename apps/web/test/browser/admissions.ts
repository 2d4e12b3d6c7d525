/**
 * The admissions side of the portal's tests: a fresh database (a temporary SQLite file, or a
 * new PostgreSQL database on TEST_DATABASE_URL, dropped after), an admin made with the app's own
 * `create-admin`, and the admin's calls through the gateway's API (bearer token): staff work is
 * driven through the API, the applicant's through the browser.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";

const ADMISSIONS_DIR = join(import.meta.dir, "..", "..", "..", "admissions");
/** The institution's account for transfers, as a deployment configures it (ADMISSIONS_BANK_*). */
export const BANK_ACCOUNT = {
  ADMISSIONS_BANK_ACCOUNT_NAME: "University of Example",
  ADMISSIONS_BANK_IBAN: "GB33BUKB20201555555555",
  ADMISSIONS_BANK_BIC: "BUKBGB22",
};

/**
 * The office's head. A person's name, not "Administrator" (create-admin's default): that is also
 * the English word for the role, which the French pages' check would take for a missed string.
 */
export const ADMIN = {
  email: "head@portal-test.example",
  password: "a-long-admin-password",
  fullName: "Grace Hopper",
};

export async function admissionsBackend(smtpUrl?: string) {
  const dir = mkdtempSync(join(tmpdir(), "portal-admissions-"));
  const server = process.env.TEST_DATABASE_URL;
  let database = "";
  let drop = async () => {};
  if (server) {
    const name = `portal_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const admin = new SQL(server);
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    database = url.toString();
    drop = async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    };
  }
  const env = (base: string): Record<string, string> => ({
    DATABASE_URL: database,
    ADMISSIONS_SQLITE_FILE: join(dir, "admissions.sqlite"),
    ADMISSIONS_DOCUMENTS_DIR: join(dir, "documents"),
    ADMISSIONS_JOBS_INTERVAL_MS: "100",
    // Registrations, emails sent and links used are counted per address for an hour; on Redis
    // the counts outlive a test file (one address, one "admissions:" namespace for every portal
    // file and CI step): 60 link uses an hour ran out on the fifth run of the portal files
    // against one Redis. The portal is not about those limits (admissions' auth and account
    // tests are), so they are lifted.
    ADMISSIONS_REGISTER_RATE_LIMIT: "100000",
    ADMISSIONS_ACCOUNT_EMAIL_RATE_LIMIT: "100000",
    ADMISSIONS_ACCOUNT_LINK_RATE_LIMIT: "100000",
    ADMISSIONS_REFERENCE_LINK_RATE_LIMIT: "100000",
    ADMISSIONS_LOGIN_MAX_FAILURES_PER_IP: "100000",
    ADMISSIONS_PORTAL_URL: base,
    ADMISSIONS_PAYMENT_RETURN_URL: `${base}/payments/return`,
    ADMISSIONS_MAIL_FROM: "Admissions Office <admissions@portal-test.example>",
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
  });
  const createAdmin = (base: string) => {
    const made = Bun.spawnSync(
      [
        "bun",
        "run",
        "create-admin",
        "--",
        "--email",
        ADMIN.email,
        "--password",
        ADMIN.password,
        "--name",
        ADMIN.fullName,
      ],
      { cwd: ADMISSIONS_DIR, env: { ...process.env, ...env(base) } },
    );
    if (made.exitCode !== 0) throw new Error(`create-admin: ${made.stderr.toString()}`);
  };
  return {
    env,
    createAdmin,
    async cleanup() {
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Json = Record<string, unknown> & { id: string };
export type AdminApi = Awaited<ReturnType<typeof adminApi>>;

/** The admin (or another staff account), signed in through the gateway with a bearer token. */
export async function adminApi(base: string, who: { email: string; password: string } = ADMIN) {
  const login = await fetch(`${base}/api/v1/auth/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const { accessToken } = (await login.json()) as { accessToken: string };
  async function call<T = Json>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${accessToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? null : await res.json()) as T;
  }
  return {
    call,
    /** A program with one required document and a fee, and an intake open now. */
    async openProgram(name: string) {
      const program = await call("POST", "/catalog/programs/", {
        code: `P-${crypto.randomUUID().slice(0, 6).toUpperCase()}`,
        name,
        level: "master",
        department: "School of Testing",
        description: "Everything about testing web portals.",
        durationMonths: 12,
        entryRequirements: "A bachelor's degree.",
        requiredDocuments: ["transcript"],
        applicationFee: { amount: 5000, currency: "EUR" },
      });
      const now = Date.now();
      await call("POST", `/catalog/programs/${program.id}/intakes/`, {
        term: "Autumn 2031",
        opensAt: new Date(now - 86_400_000).toISOString(),
        deadline: new Date(now + 30 * 86_400_000).toISOString(),
        capacity: 10,
      });
      return program;
    },
  };
}

/** A minimal complete PDF (the API checks the header and the end marker). */
export const pdf = () =>
  Buffer.from(
    "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\nstartxref\n0\n%%EOF\n",
  );
