import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS_DIR, migrate } from "../src/db/migrate.ts";
import { weightedTotal } from "../src/modules/review/internal/rubric.ts";
import type { Rubric } from "../src/modules/review/model.ts";
import { testDatabaseTarget } from "./support.ts";

/*
 * Migration 0014 keeps each review's weighted total beside its scores. Reviews written before
 * it get theirs computed in SQL from the JSON scores and the rubric's criteria, on each
 * database its own way: the result must be what the app computes (review/internal/rubric.ts).
 */
const target = await testDatabaseTarget();
const db = await target.open();
const before = mkdtempSync(join(tmpdir(), "migrations-0013-"));
for (const file of readdirSync(MIGRATIONS_DIR)) {
  if (file < "0014") copyFileSync(join(MIGRATIONS_DIR, file), join(before, file));
}
afterAll(async () => {
  await db.close();
  await target.drop();
  rmSync(before, { recursive: true, force: true });
});

const at = "2026-01-01T00:00:00.000Z";
const rubric: Rubric = {
  programId: "p1",
  updatedAt: at,
  scale: { min: 1, max: 5 },
  criteria: [
    { key: "academic_record", label: "Academic record", weight: 3 },
    { key: "statement", label: "Statement", weight: 1 },
    { key: "fit", label: "Fit", weight: 2 },
  ],
};
const reviews = [
  { id: "r1", scores: { academic_record: 4, statement: 5, fit: 3 } },
  { id: "r2", scores: { academic_record: 1, statement: 2, fit: 5 } },
];

describe("migration 0014 on a database with reviews", () => {
  test("each review's weighted total, as the app computes it; payments keep what they had", async () => {
    await migrate(db, before);
    await db.run(async (sql) => {
      await sql`INSERT INTO users ${sql({ id: "u1", email: "a@example.org", full_name: "A", password_hash: "x", role: "applicant", created_at: at, updated_at: at })}`;
      await sql`INSERT INTO users ${sql({ id: "s1", email: "s@example.org", full_name: "S", password_hash: "x", role: "reviewer", created_at: at, updated_at: at })}`;
      await sql`INSERT INTO users ${sql({ id: "s2", email: "t@example.org", full_name: "T", password_hash: "x", role: "reviewer", created_at: at, updated_at: at })}`;
      await sql`INSERT INTO programs ${sql({ id: "p1", code: "P1", name: "P", level: "bachelor", department: "D", duration_months: 12, application_fee: 0, currency: "EUR", created_at: at, updated_at: at })}`;
      await sql`INSERT INTO intakes ${sql({ id: "i1", program_id: "p1", term: "T1", opens_at: at, deadline: "2027-01-01T00:00:00.000Z", capacity: 5, created_at: at, updated_at: at })}`;
      await sql`INSERT INTO applications ${sql({ id: "a1", applicant_id: "u1", program_id: "p1", intake_id: "i1", status: "under_review", version: 3, created_at: at, updated_at: at })}`;
      await sql`INSERT INTO rubrics ${sql({ program_id: "p1", min_score: 1, max_score: 5, criteria: JSON.stringify(rubric.criteria), updated_by: "s1", updated_at: at })}`;
      for (const [i, review] of reviews.entries()) {
        await sql`INSERT INTO reviews ${sql({ id: review.id, application_id: "a1", reviewer_id: `s${i + 1}`, scores: JSON.stringify(review.scores), recommendation: "discuss", created_at: at, updated_at: at })}`;
      }
    });
    expect(await migrate(db)).toContain("0014_office_desk");
    const rows = (await db.run(
      (sql) => sql`SELECT id, weighted_total FROM reviews ORDER BY id`,
    )) as { id: string; weighted_total: unknown }[];
    expect(rows.map((row) => [row.id, Number(row.weighted_total)])).toEqual(
      reviews.map((review) => [review.id, weightedTotal(rubric, review.scores)]),
    );
    // (4×3 + 5 + 3×2) / 6 = 3.83; (1×3 + 2 + 5×2) / 6 = 2.5
    expect(rows.map((row) => Number(row.weighted_total))).toEqual([3.83, 2.5]);
    const [column] = await db.run(
      (sql) => sql`SELECT count(*) AS n FROM payments WHERE amount_received IS NOT NULL`,
    );
    expect(Number(column?.n)).toBe(0);
  });
});
