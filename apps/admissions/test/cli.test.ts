import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStore } from "@platform/server";
import type { Db } from "../src/db/client.ts";
import { DEMO_USERS } from "../src/seed/demo.ts";
import { as, json, logIn, setupApp, testDatabaseTarget } from "./support.ts";

// Every test here starts the CLI as processes of their own (Bun, then the database): seconds on
// a busy machine, past bun's 5 s default for a test.
setDefaultTimeout(30_000);

const APP_DIR = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "admissions-cli-"));
const target = await testDatabaseTarget(join(dir, "data", "admissions.sqlite"));
let db: Db | undefined;
afterAll(async () => {
  await db?.close();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a package script's entry file as `bun run <script>` does, against the test database. */
async function run(
  script: string,
  args: string[] = [],
  opts: { stdin?: string; env?: object } = {},
) {
  const proc = Bun.spawn(["bun", `src/cli/${script}.ts`, ...args], {
    cwd: APP_DIR,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent", ...target.env, ...opts.env },
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, out: stdout + stderr };
}

describe("bun run migrate", () => {
  test("creates the database (and its folder) and applies the migrations once", async () => {
    const first = await run("migrate");
    expect(first).toMatchObject({ code: 0 });
    expect(first.out).toContain("migrations applied: 0001_core");
    const second = await run("migrate");
    expect(second.out).not.toContain("migrations applied");
    expect(second.out).toContain("up to date");
  });
});

describe("bun run create-admin", () => {
  test("creates an admin who can log in and use staff routes", async () => {
    const result = await run("create-admin", [
      "--email",
      "Head@Example.org",
      "--password",
      "a-long-admin-password",
      "--name",
      "Head Admin",
    ]);
    expect(result.code).toBe(0);
    expect(result.out).toContain("created admin head@example.org");
    db = await target.open();
    const ctx = await setupApp({ db, store: memoryStore() });
    const admin = await logIn(ctx, "head@example.org", "a-long-admin-password");
    expect(admin.user).toMatchObject({ role: "admin", fullName: "Head Admin" });
    const res = await ctx.app.handle(
      as(admin, "POST", "/api/v1/catalog/programs/", {
        code: "CLI-1",
        name: "X",
        level: "bachelor",
        department: "X",
        durationMonths: 12,
        applicationFee: { amount: 0, currency: "EUR" },
      }),
    );
    expect(res.status).toBe(201);
  });

  test("reads the password from stdin with --password-stdin", async () => {
    const result = await run(
      "create-admin",
      ["--email", "second@example.org", "--password-stdin"],
      {
        stdin: "from-standard-input\n",
      },
    );
    expect(result.code).toBe(0);
  });

  test("refuses a taken email and bad arguments, with exit status 1", async () => {
    const taken = await run("create-admin", [
      "--email",
      "head@example.org",
      "--password",
      "another-password",
    ]);
    expect(taken.code).toBe(1);
    expect(taken.out).toContain("already exists");
    const bad = await run("create-admin", ["--email", "nope", "--password", "short"]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("--email must be an email address");
    expect(bad.out).toContain("10 to 128 characters");
    expect(bad.out).toContain("usage:");
    const name = await run("create-admin", [
      "--email",
      "third@example.org",
      "--password",
      "a-long-admin-password",
      "--name",
      "Head\r\nAdmin",
    ]);
    expect(name.code).toBe(1);
    expect(name.out).toContain("--name must be 1 to 120 characters of one line");
  });
});

describe("bun run seed", () => {
  test("loads the demo catalog, accounts and applications once; demo users can sign in", async () => {
    const result = await run("seed", ["--password", "demo-pass-for-tests"]);
    expect(result.code).toBe(0);
    expect(result.out).toContain("seeded 24 programs, 72 intakes, 6 users, 8 applications");
    expect((await run("seed")).out).toContain("already present");

    db ??= await target.open();
    const ctx = await setupApp({ db, store: memoryStore() });
    const catalog = await ctx.app.handle(
      json("GET", "/api/v1/catalog/programs/?openForApplications=true"),
    );
    expect(((await catalog.json()) as { count: number }).count).toBe(24);
    const ada = DEMO_USERS.find((user) => user.email.startsWith("ada"));
    const session = await logIn(ctx, ada?.email ?? "", "demo-pass-for-tests");
    const mine = await ctx.app.handle(as(session, "GET", "/api/v1/applications/"));
    const page = (await mine.json()) as { count: number; results: { status: string }[] };
    expect(page.results.map((a) => a.status).sort()).toEqual(["draft", "submitted"]);
    const reviewer = await logIn(ctx, "reviewer@northbridge.example", "demo-pass-for-tests");
    const all = await ctx.app.handle(
      as(reviewer, "GET", "/api/v1/applications/?status=submitted,under_review"),
    );
    expect(((await all.json()) as { count: number }).count).toBe(2);
    const enrolled = await ctx.app.handle(
      as(reviewer, "GET", "/api/v1/applications/?status=enrolled"),
    );
    const [alan] = ((await enrolled.json()) as { results: { id: string }[] }).results;
    const history = await ctx.app.handle(
      as(reviewer, "GET", `/api/v1/applications/${alan?.id}/history/`),
    );
    const moves = ((await history.json()) as { results: { to: string }[] }).results.map(
      (t) => t.to,
    );
    expect(moves).toEqual([
      "draft",
      "submitted",
      "under_review",
      "offered",
      "accepted",
      "enrolled",
    ]);
  });

  test("is refused in production, before touching the database", async () => {
    const result = await run("seed", [], {
      env: {
        NODE_ENV: "production",
        ADMISSIONS_JWT_SECRET: "p".repeat(40),
        ADMISSIONS_MAIL_DROP: "true",
      },
    });
    expect(result.code).toBe(1);
    expect(result.out).toContain("refusing in production");
  });
});
