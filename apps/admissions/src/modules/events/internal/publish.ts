import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import type { ChangeEvent } from "../model.ts";
import { type EventRow, toChangeEvent } from "../queries.ts";

/** What else happens, in the publisher's transaction, to each batch it publishes (webhooks). */
export type OnPublished = (tx: SQL, events: ChangeEvent[]) => Promise<void>;

const PUBLISH_LOCK_KEY = 4_242_010;
const BATCH = 500;

/**
 * Gives the committed events without a position the next positions, in the order they were
 * written, and hands them to `onPublished` in the same transaction. One publisher at a time
 * (a PostgreSQL advisory lock; SQLite has one writer): positions are therefore gap-free, and
 * as a position is given only to an event already committed, no event can later appear below
 * a position a reader has seen. On PostgreSQL a publisher that finds the lock taken returns at
 * once: the one holding it publishes. Returns how many were published.
 */
export async function publishEvents(db: Db, onPublished: OnPublished): Promise<number> {
  let total = 0;
  for (;;) {
    const published = await db.transaction(async (tx) => {
      if (db.dialect === "postgres") {
        const [lock] = await tx`SELECT pg_try_advisory_xact_lock(${PUBLISH_LOCK_KEY}) AS ok`;
        if (!lock?.ok) return 0;
      }
      // Unqualified RETURNING columns: SQLite refuses `events.*`, and no FROM column shares a name.
      const rows = (await tx`UPDATE events SET position = base.top + todo.n
        FROM (SELECT COALESCE(MAX(position), 0) AS top FROM events) AS base,
          (SELECT id AS todo_id, row_number() OVER (ORDER BY created_at, id) AS n FROM events
            WHERE position IS NULL ORDER BY created_at, id LIMIT ${BATCH}) AS todo
        WHERE events.id = todo.todo_id
        RETURNING id, position, type, application_id, subject_type, subject_id, data, created_at`) as EventRow[];
      if (rows.length === 0) return 0;
      const events = rows.map(toChangeEvent).sort((a, b) => a.position - b.position);
      await onPublished(tx, events);
      return events.length;
    });
    total += published;
    if (published < BATCH) return total;
  }
}
