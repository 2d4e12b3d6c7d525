import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";

/**
 * Waitlist positions per intake are 1..n without gaps. Joining at `position` (default: the
 * end) moves those at and behind it down one; leaving moves those behind up one. Callers hold
 * the intake's lock, so positions cannot be handed out twice.
 */
export async function joinWaitlist(
  tx: SQL,
  intakeId: string,
  wanted: number | undefined,
): Promise<number> {
  const [row] = await tx`SELECT count(*) AS total FROM applications
    WHERE intake_id = ${intakeId} AND status = 'waitlisted'`;
  const end = toInt(row?.total ?? 0) + 1;
  const position = Math.min(wanted ?? end, end);
  if (position < end) {
    await tx`UPDATE applications SET waitlist_position = waitlist_position + 1
      WHERE intake_id = ${intakeId} AND status = 'waitlisted'
        AND waitlist_position >= ${position}`;
  }
  return position;
}

export async function leaveWaitlist(
  tx: SQL,
  intakeId: string,
  position: number | null,
): Promise<void> {
  if (position === null) return;
  await tx`UPDATE applications SET waitlist_position = waitlist_position - 1
    WHERE intake_id = ${intakeId} AND status = 'waitlisted'
      AND waitlist_position > ${position}`;
}
