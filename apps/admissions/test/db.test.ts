import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../src/db/client.ts";
import { isUniqueViolation } from "../src/db/dialect.ts";
import { loadMigrations, migrate } from "../src/db/migrate.ts";
import { testDatabase } from "./support.ts";

const { db, drop } = await testDatabase();
afterAll(drop);

describe("migrations", () => {
  test("every table exists and a second run applies nothing", async () => {
    expect(await migrate(db)).toEqual([]);
    const applied = await db.run((sql) => sql`SELECT version FROM schema_migrations`);
    expect(applied.map((row: { version: string }) => row.version)).toEqual([
      "0001_core",
      "0002_documents_payments",
      "0003_staff_workflows",
      "0004_system_actor_audit_guard",
      "0005_account_recovery",
      "0006_mfa_profile_data_rights",
      "0007_workflow_depth",
      "0008_interviews",
      "0009_references",
      "0010_events_webhooks",
      "0011_blind_review_calibration",
      "0012_audit_chain_signed_documents",
      "0013_email_links",
      "0014_office_desk",
    ]);
    for (const table of [
      "users",
      "programs",
      "intakes",
      "applications",
      "application_counts",
      "application_transitions",
      "documents",
      "payments",
      "payment_refunds",
      "fee_waivers",
      "receipt_counter",
      "webhook_events",
      "events",
      "webhook_endpoints",
      "webhook_deliveries",
      "webhook_attempts",
      "account_tokens",
      "user_sessions",
      "mfa_totp",
      "mfa_recovery_codes",
      "profiles",
      "profile_history",
      "data_requests",
      "interviews",
      "interview_panel",
      "interview_scores",
      "reference_requests",
      "review_extra_requests",
      "audit_chain_head",
      "audit_chain_backlog",
      "signed_documents",
      "signing_keys",
    ]) {
      const rows = await db.run((sql) => sql`SELECT count(*) AS n FROM ${sql(table)}`);
      expect(rows).toHaveLength(1);
    }
  });

  test("files are ordered, and a dialect's own file replaces the shared one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "migrations-"));
    writeFileSync(join(dir, "0002_b.sql"), "SELECT 2;");
    writeFileSync(join(dir, "0001_a.sql"), "SELECT 1;");
    writeFileSync(join(dir, "0001_a.postgres.sql"), "SELECT 'pg';");
    writeFileSync(join(dir, "README.md"), "not a migration");
    const sqlite = await loadMigrations("sqlite", dir);
    const postgres = await loadMigrations("postgres", dir);
    expect(sqlite.map((m) => m.file)).toEqual(["0001_a.sql", "0002_b.sql"]);
    expect(postgres.map((m) => m.file)).toEqual(["0001_a.postgres.sql", "0002_b.sql"]);
    rmSync(dir, { recursive: true });
  });

  test("an applied migration whose file changed is refused; a failing one leaves nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "migrations-"));
    const scratch = await openDatabase({ sqliteFile: ":memory:" });
    writeFileSync(join(dir, "0001_a.sql"), "CREATE TABLE scratch_a (id TEXT PRIMARY KEY);");
    expect(await migrate(scratch, dir)).toEqual(["0001_a"]);
    writeFileSync(join(dir, "0001_a.sql"), "CREATE TABLE scratch_a (id INTEGER);");
    await expect(migrate(scratch, dir)).rejects.toThrow(/changed after it was applied/);

    writeFileSync(join(dir, "0001_a.sql"), "CREATE TABLE scratch_a (id TEXT PRIMARY KEY);");
    writeFileSync(
      join(dir, "0002_b.sql"),
      "CREATE TABLE scratch_b (id TEXT); INSERT INTO nowhere VALUES (1);",
    );
    await expect(migrate(scratch, dir)).rejects.toThrow();
    const tables = await scratch.run(
      (sql) => sql`SELECT name FROM sqlite_master WHERE name = 'scratch_b'`,
    );
    expect(tables).toHaveLength(0);
    await scratch.close();
    rmSync(dir, { recursive: true });
  });
});

describe("the database handle", () => {
  test("a statement issued while another transaction is open is not swallowed by it", async () => {
    const email = `tx-${crypto.randomUUID()}@example.org`;
    const insert = (sql: Bun.SQL, id: string, mail: string) =>
      sql`INSERT INTO users (id, email, full_name, password_hash, role, created_at, updated_at)
        VALUES (${id}, ${mail}, 'x', 'x', 'applicant', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`;
    const failing = db
      .transaction(async (tx) => {
        await insert(tx, crypto.randomUUID(), `rolled-back-${email}`);
        await Bun.sleep(30);
        throw new Error("roll back");
      })
      .catch((error: Error) => error.message);
    await Bun.sleep(5);
    await db.run((sql) => insert(sql, crypto.randomUUID(), email));
    expect(await failing).toBe("roll back");
    const kept = await db.run(
      (sql) => sql`SELECT email FROM users WHERE email LIKE ${`%${email}`}`,
    );
    expect(kept.map((row: { email: string }) => row.email)).toEqual([email]);
  });

  test("unique violations are recognised on this database, other errors are not", async () => {
    const row = { id: crypto.randomUUID(), email: `dup-${crypto.randomUUID()}@example.org` };
    const insert = () =>
      db.run(
        (
          sql,
        ) => sql`INSERT INTO users (id, email, full_name, password_hash, role, created_at, updated_at)
          VALUES (${crypto.randomUUID()}, ${row.email}, 'x', 'x', 'applicant', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      );
    await insert();
    const error = await insert().catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    const other = await db.run((sql) => sql`SELECT * FROM missing_table`).catch((e: unknown) => e);
    expect(isUniqueViolation(other)).toBe(false);
  });

  test("ping answers while the database is open and fails once it is closed", async () => {
    const scratch = await openDatabase({ sqliteFile: ":memory:" });
    await scratch.ping();
    await scratch.close();
    await expect(scratch.ping()).rejects.toThrow();
  });
});
