import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import { notFound } from "../../../problems.ts";
import type { ApplicationStatus, Seats } from "../model.ts";

/** Statuses that hold one of the intake's seats: an outstanding offer, or a place taken. */
export const SEAT_HOLDING: ReadonlySet<ApplicationStatus> = new Set([
  "offered",
  "conditionally_offered",
  "accepted",
  "enrolled",
]);
/** Places taken: never more than the capacity, even if the capacity was lowered since. */
export const PLACE_TAKEN: ReadonlySet<ApplicationStatus> = new Set(["accepted", "enrolled"]);

/**
 * The intake's seats from the running totals (constant time). Callers that act on the answer
 * hold the intake's lock (`lockIntake`), so it cannot change before they commit.
 */
export async function seatsOf(sql: SQL, intakeId: string): Promise<Seats> {
  const [intake] = await sql`SELECT capacity FROM intakes WHERE id = ${intakeId}`;
  if (!intake) throw notFound("Intake");
  const rows = (await sql`SELECT status, total FROM application_counts
    WHERE intake_id = ${intakeId}`) as { status: ApplicationStatus; total: unknown }[];
  const sum = (set: ReadonlySet<ApplicationStatus>) =>
    rows.filter((row) => set.has(row.status)).reduce((all, row) => all + toInt(row.total), 0);
  const capacity = toInt(intake.capacity);
  const held = sum(SEAT_HOLDING);
  return {
    intakeId,
    capacity,
    held,
    taken: sum(PLACE_TAKEN),
    available: Math.max(0, capacity - held),
    waitlisted: sum(new Set<ApplicationStatus>(["waitlisted"])),
  };
}
