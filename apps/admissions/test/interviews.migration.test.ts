import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS_DIR, migrate } from "../src/db/migrate.ts";
import { testDatabaseTarget } from "./support.ts";

/*
 * Migration 0008 changes the applications' status CHECK; on SQLite that rebuilds the table
 * inside the migrations' transaction (foreign keys on). A database with data at 0007 must come
 * out with every row, its children (including the cascading ones) and its constraints intact.
 */
const target = await testDatabaseTarget();
const db = await target.open();
const before = mkdtempSync(join(tmpdir(), "migrations-0007-"));
for (const file of readdirSync(MIGRATIONS_DIR)) {
  if (file < "0008") copyFileSync(join(MIGRATIONS_DIR, file), join(before, file));
}
afterAll(async () => {
  await db.close();
  await target.drop();
  rmSync(before, { recursive: true, force: true });
});

const at = "2026-01-01T00:00:00.000Z";

describe("migration 0008 on a database with data", () => {
  test("keeps applications and their children; `interviewing` is accepted, nonsense still refused", async () => {
    await migrate(db, before);
    await db.run(async (sql) => {
      await sql`INSERT INTO users ${sql({ id: "u1", email: "a@example.org", full_name: "A", password_hash: "x", role: "applicant", created_at: at, updated_at: at })}`;
      await sql`INSERT INTO programs ${sql({ id: "p1", code: "P1", name: "P", level: "bachelor", department: "D", duration_months: 12, application_fee: 0, currency: "EUR", created_at: at, updated_at: at })}`;
      await sql`INSERT INTO intakes ${sql({ id: "i1", program_id: "p1", term: "T1", opens_at: at, deadline: "2027-01-01T00:00:00.000Z", capacity: 5, created_at: at, updated_at: at })}`;
      await sql`INSERT INTO intakes ${sql({ id: "i2", program_id: "p1", term: "T2", opens_at: at, deadline: "2028-01-01T00:00:00.000Z", capacity: 5, created_at: at, updated_at: at })}`;
      await sql`INSERT INTO applications ${sql({ id: "a1", applicant_id: "u1", program_id: "p1", intake_id: "i1", status: "accepted", version: 7, created_at: at, updated_at: at, offer_conditions: '["x"]' })}`;
      await sql`INSERT INTO offer_conditions ${sql({ id: "c1", application_id: "a1", position: 1, description: "x", due_at: at, created_at: at })}`;
      await sql`INSERT INTO deferrals ${sql({ id: "d1", application_id: "a1", from_intake_id: "i1", to_intake_id: "i2", status: "requested", requested_by: "u1", requested_at: at })}`;
      await sql`INSERT INTO application_transitions ${sql({ id: "t1", application_id: "a1", to_status: "draft", actor_id: "u1", actor_role: "applicant", created_at: at })}`;
    });
    // 0008 first; the later migrations run over the same data.
    expect((await migrate(db))[0]).toBe("0008_interviews");
    const counts = await db.run(
      async (sql) =>
        (
          await sql`SELECT
          (SELECT count(*) FROM applications) AS applications,
          (SELECT count(*) FROM offer_conditions) AS conditions,
          (SELECT count(*) FROM deferrals) AS deferrals,
          (SELECT count(*) FROM application_transitions) AS transitions`
        )[0],
    );
    expect(Object.values(counts as Record<string, unknown>).map(Number)).toEqual([1, 1, 1, 1]);
    const [row] = await db.run(
      (sql) => sql`SELECT status, version, offer_conditions FROM applications`,
    );
    expect({ ...row, version: Number(row.version) }).toEqual({
      status: "accepted",
      version: 7,
      offer_conditions: '["x"]',
    });
    await db.run((sql) => sql`UPDATE applications SET status = 'interviewing' WHERE id = 'a1'`);
    await expect(
      db.run((sql) => sql`UPDATE applications SET status = 'pondering' WHERE id = 'a1'`),
    ).rejects.toThrow();
    // Foreign keys still hold both ways.
    await expect(
      db.run(
        (sql) =>
          sql`INSERT INTO offer_conditions ${sql({ id: "c2", application_id: "nope", position: 1, description: "x", due_at: at, created_at: at })}`,
      ),
    ).rejects.toThrow();
    await expect(
      db.run(
        (sql) =>
          sql`INSERT INTO applications ${sql({ id: "a2", applicant_id: "nobody", program_id: "p1", intake_id: "i1", status: "draft", created_at: at, updated_at: at })}`,
      ),
    ).rejects.toThrow();
    // The unique (applicant, intake) constraint survived the rebuild.
    await expect(
      db.run(
        (sql) =>
          sql`INSERT INTO applications ${sql({ id: "a3", applicant_id: "u1", program_id: "p1", intake_id: "i1", status: "draft", created_at: at, updated_at: at })}`,
      ),
    ).rejects.toThrow();
  });
});
