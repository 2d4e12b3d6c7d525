import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import type { Stats, StatsQuery } from "../model.ts";

type Row = {
  status: string;
  total: unknown;
  program_id: string;
  code: string;
  name: string;
  intake_id: string;
  term: string;
  capacity: unknown;
};

/**
 * Counts by status, program and intake, from the running totals kept with every move: a few
 * hundred rows however many applications there are.
 */
export async function statsIn(sql: SQL, query: StatsQuery): Promise<Stats> {
  const rows = (await sql`SELECT c.status, c.total, c.program_id, p.code, p.name,
      c.intake_id, i.term, i.capacity
    FROM application_counts c
    JOIN programs p ON p.id = c.program_id
    JOIN intakes i ON i.id = c.intake_id
    WHERE c.total > 0
      AND ${query.programId ? sql`c.program_id = ${query.programId}` : sql`1 = 1`}
      AND ${query.intakeId ? sql`c.intake_id = ${query.intakeId}` : sql`1 = 1`}
    ORDER BY p.code, i.term, c.status`) as Row[];
  const stats: Stats = { total: 0, byStatus: {}, byProgram: [], byIntake: [] };
  const programs = new Map<string, Stats["byProgram"][number]>();
  const intakes = new Map<string, Stats["byIntake"][number]>();
  for (const row of rows) {
    const n = toInt(row.total);
    stats.total += n;
    stats.byStatus[row.status] = (stats.byStatus[row.status] ?? 0) + n;
    let program = programs.get(row.program_id);
    if (!program) {
      program = {
        program: { id: row.program_id, code: row.code, name: row.name },
        total: 0,
        byStatus: {},
      };
      programs.set(row.program_id, program);
      stats.byProgram.push(program);
    }
    program.total += n;
    program.byStatus[row.status] = (program.byStatus[row.status] ?? 0) + n;
    let intake = intakes.get(row.intake_id);
    if (!intake) {
      intake = {
        intake: {
          id: row.intake_id,
          term: row.term,
          programId: row.program_id,
          capacity: toInt(row.capacity),
        },
        total: 0,
        byStatus: {},
      };
      intakes.set(row.intake_id, intake);
      stats.byIntake.push(intake);
    }
    intake.total += n;
    intake.byStatus[row.status] = n;
  }
  return stats;
}
