import type { SQL } from "bun";

/** The first in line: lowest position (ties, from older data, by id: UUIDv7 is time order). */
export async function firstWaitlisted(tx: SQL, intakeId: string): Promise<string | null> {
  const [row] = await tx`SELECT id FROM applications
    WHERE intake_id = ${intakeId} AND status = 'waitlisted'
    ORDER BY waitlist_position ASC, id ASC LIMIT 1`;
  return (row?.id as string | undefined) ?? null;
}
