import type { SQL } from "bun";
import { toInt, toIso } from "../../db/dialect.ts";
import type { ChangeEvent } from "./model.ts";

export type EventRow = {
  id: string;
  position: unknown;
  type: string;
  application_id: string | null;
  subject_type: string;
  subject_id: string;
  data: string;
  created_at: unknown;
};

export const toChangeEvent = (row: EventRow): ChangeEvent => ({
  id: row.id,
  position: toInt(row.position),
  type: row.type,
  applicationId: row.application_id,
  subject: { type: row.subject_type, id: row.subject_id },
  data: JSON.parse(row.data) as Record<string, unknown>,
  timestamp: toIso(row.created_at),
});

/** Published events after `after`, oldest first (optionally of one type). */
export const selectPublished = async (
  sql: SQL,
  after: number,
  limit: number,
  type: string | undefined,
): Promise<EventRow[]> =>
  (await sql`SELECT * FROM events WHERE position > ${after}
    ${type ? sql`AND type = ${type}` : sql``}
    ORDER BY position LIMIT ${limit}`) as EventRow[];

export const selectByIds = async (sql: SQL, ids: string[]): Promise<EventRow[]> =>
  ids.length === 0 ? [] : ((await sql`SELECT * FROM events WHERE id IN ${sql(ids)}`) as EventRow[]);
