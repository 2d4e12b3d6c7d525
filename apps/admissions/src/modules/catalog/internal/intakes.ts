import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { isoAt } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import type { Intake } from "../model.ts";
import { type IntakeRow, toIntake } from "./queries.ts";

export async function listIntakes(db: Db, programId: string, nowMs: number): Promise<Intake[]> {
  const rows = await db.run(
    (sql): Promise<IntakeRow[]> =>
      sql`SELECT * FROM intakes WHERE program_id = ${programId} ORDER BY deadline ASC, id ASC`,
  );
  return rows.map((row) => toIntake(row, nowMs));
}

/** Stored as canonical ISO text; the deadline must come after the opening. */
export function checkedWindow(opensAt: string, deadline: string) {
  const opens = Date.parse(opensAt);
  const closes = Date.parse(deadline);
  if (!(opens < closes))
    throw invalidField("/body/deadline", "must be later than opensAt", "later");
  return { opens_at: isoAt(opens), deadline: isoAt(closes) };
}

export const termTaken = (term: string) =>
  problem("INTAKE_TERM_TAKEN", { detail: `This program already has an intake "${term}"` });

/** The first in line: lowest position (ties, from older data, by id: UUIDv7 is time order). */
export async function firstWaitlisted(tx: SQL, intakeId: string): Promise<string | null> {
  const [row] = await tx`SELECT id FROM applications
    WHERE intake_id = ${intakeId} AND status = 'waitlisted'
    ORDER BY waitlist_position ASC, id ASC LIMIT 1`;
  return (row?.id as string | undefined) ?? null;
}
