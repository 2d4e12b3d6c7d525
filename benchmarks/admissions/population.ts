/**
 * Grows a benchmark database to a given number of applications, fast: multi-row INSERTs inside
 * one transaction per step, then the running totals rebuilt once. Applicants are reused (up to
 * one application per intake each), so 100k applications need about 25k accounts.
 */
import type { Db } from "../../apps/admissions/src/db/client.ts";
import { isoAt, newId } from "../../apps/admissions/src/lib/ids.ts";
import type { ApplicationStatus } from "../../apps/admissions/src/modules/workflow/model.ts";
import { rebuildCounts } from "../../apps/admissions/src/modules/workflow/service.ts";
import { insertRows } from "../../apps/admissions/src/seed/bulk.ts";

const DAY = 86_400_000;
const APPLICATIONS_PER_APPLICANT = 4;

/** Roughly how an intake season's applications are spread over the lifecycle. */
const STATUS_MIX: [ApplicationStatus, number][] = [
  ["draft", 15],
  ["submitted", 25],
  ["under_review", 20],
  ["offered", 8],
  ["conditionally_offered", 4],
  ["waitlisted", 5],
  ["rejected", 10],
  ["accepted", 5],
  ["declined", 2],
  ["enrolled", 3],
  ["withdrawn", 3],
];
const WEIGHT = STATUS_MIX.reduce((sum, [, weight]) => sum + weight, 0);

/** A small deterministic generator, so every run builds the same data. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function pickStatus(draw: number): ApplicationStatus {
  let left = draw * WEIGHT;
  for (const [status, weight] of STATUS_MIX) {
    left -= weight;
    if (left < 0) return status;
  }
  return "draft";
}

export type Catalog = { intakes: { id: string; programId: string }[] };

export async function loadCatalog(db: Db): Promise<Catalog> {
  const rows = await db.run((sql) => sql`SELECT id, program_id FROM intakes ORDER BY id`);
  return {
    intakes: rows.map((row: { id: string; program_id: string }) => ({
      id: row.id,
      programId: row.program_id,
    })),
  };
}

/** Adds applications (and their applicants) until the table holds `target` rows. */
export async function growTo(
  db: Db,
  catalog: Catalog,
  from: number,
  target: number,
  passwordHash: string,
  nowMs: number,
): Promise<void> {
  const next = random(target);
  const users: Record<string, unknown>[] = [];
  const applications: (Record<string, unknown> & { created_at: string })[] = [];
  for (let n = from; n < target; n += APPLICATIONS_PER_APPLICANT) {
    const applicantId = newId();
    const createdMs = nowMs - Math.floor(next() * 300) * DAY - Math.floor(next() * DAY);
    users.push({
      id: applicantId,
      email: `applicant-${n}@bench.example`,
      full_name: `Applicant ${n}`,
      password_hash: passwordHash,
      role: "applicant",
      active: true,
      created_at: isoAt(createdMs),
      updated_at: isoAt(createdMs),
    });
    const first = Math.floor(next() * catalog.intakes.length);
    for (let k = 0; k < APPLICATIONS_PER_APPLICANT && n + k < target; k++) {
      const intake = catalog.intakes[(first + k * 7) % catalog.intakes.length];
      if (!intake) throw new Error("empty catalog");
      const status = pickStatus(next());
      const at = createdMs + k * 3_600_000;
      applications.push({
        id: newId(),
        applicant_id: applicantId,
        program_id: intake.programId,
        intake_id: intake.id,
        status,
        version: 1,
        personal_statement: "Benchmark statement.",
        prior_qualification: "Diploma",
        prior_institution: "Bench Academy",
        graduation_year: 2024,
        created_at: isoAt(at),
        updated_at: isoAt(at),
        submitted_at: status === "draft" ? null : isoAt(at + DAY),
      });
    }
  }
  // In creation order, as they would have arrived: the time-ordered indexes then grow at their
  // right edge instead of splitting pages all over.
  applications.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
  await db.transaction(async (tx) => {
    await insertRows(tx, "users", users);
    await insertRows(tx, "applications", applications);
    await rebuildCounts(tx);
  });
  // Fresh planner statistics, as autovacuum (PostgreSQL) or a periodic ANALYZE would keep them.
  await db.run((sql) => sql`ANALYZE`);
}
