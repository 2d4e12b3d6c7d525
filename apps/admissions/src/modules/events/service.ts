import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toInt, toIso } from "../../db/dialect.ts";
import { newId } from "../../lib/ids.ts";
import type { TransitionEffects } from "../workflow/model.ts";
import type { ChangeEvent, EventType, FeedPage, FeedQuery } from "./model.ts";

/*
 * The change feed: events appended in the transaction of the change they describe
 * (`recordEvent`), published in order after commit (`publishEvents`), read by cursor
 * (`readFeed`). Webhooks plug in as the publisher's `onPublished`; the app's wiring joins them.
 */

type EventRow = {
  id: string;
  position: unknown;
  type: string;
  application_id: string | null;
  subject_type: string;
  subject_id: string;
  data: string;
  created_at: unknown;
};

const toChangeEvent = (row: EventRow): ChangeEvent => ({
  id: row.id,
  position: toInt(row.position),
  type: row.type,
  applicationId: row.application_id,
  subject: { type: row.subject_type, id: row.subject_id },
  data: JSON.parse(row.data) as Record<string, unknown>,
  timestamp: toIso(row.created_at),
});

/** Published events after `after`, oldest first (optionally of one type). */
const selectPublished = async (
  sql: SQL,
  after: number,
  limit: number,
  type: string | undefined,
): Promise<EventRow[]> =>
  (await sql`SELECT * FROM events WHERE position > ${after}
    ${type ? sql`AND type = ${type}` : sql``}
    ORDER BY position LIMIT ${limit}`) as EventRow[];

const selectByIds = async (sql: SQL, ids: string[]): Promise<EventRow[]> =>
  ids.length === 0 ? [] : ((await sql`SELECT * FROM events WHERE id IN ${sql(ids)}`) as EventRow[]);

export type NewEvent = {
  type: EventType;
  applicationId: string | null;
  subject: { type: string; id: string };
  /** Ids and statuses only: no personal data (see EVENT_TYPES). */
  data?: Record<string, unknown>;
};

/**
 * Appends an event in the caller's transaction (a transactional outbox): it exists, and is
 * published to the feed and the webhooks, only if the change it describes commits. Its
 * position comes later, from the publisher (`publishEvents`), so writing it takes no lock
 * that other transactions would wait for.
 */
export async function recordEvent(tx: SQL, event: NewEvent, at: string): Promise<string> {
  const id = newId();
  await tx`INSERT INTO events ${tx({
    id,
    position: null,
    type: event.type,
    application_id: event.applicationId,
    subject_type: event.subject.type,
    subject_id: event.subject.id,
    data: JSON.stringify(event.data ?? {}),
    created_at: at,
  })}`;
  return id;
}

/** Every move of an application is an `application.status_changed` event, in its transaction. */
export const eventEffects: TransitionEffects = {
  prepare: async () => ({}),
  async settle(move, after) {
    await recordEvent(
      move.tx,
      {
        type: "application.status_changed",
        applicationId: after.id,
        subject: { type: "application", id: after.id },
        data: {
          from: move.before.status,
          to: after.status,
          via: move.via,
          version: after.version,
          programId: after.program.id,
          intakeId: after.intake.id,
        },
      },
      move.at,
    );
  },
};

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

export type FeedDeps = { db: Db; onPublished: OnPublished };

/**
 * Events after the cursor, oldest first. Publishes what is waiting first, so a reader sees
 * every committed event without waiting for the background pass.
 */
export async function readFeed(deps: FeedDeps, query: FeedQuery): Promise<FeedPage> {
  await publishEvents(deps.db, deps.onPublished);
  const after = query.after ?? 0;
  const limit = query.limit ?? 100;
  const rows = await deps.db.run((sql) => selectPublished(sql, after, limit + 1, query.type));
  const events = rows.slice(0, limit).map(toChangeEvent);
  return {
    events,
    next: events.at(-1)?.position ?? after,
    hasMore: rows.length > limit,
  };
}

/** Events by id, in any order (webhook deliveries carry them). */
export const eventsByIds = async (sql: SQL, ids: string[]): Promise<ChangeEvent[]> =>
  (await selectByIds(sql, ids)).map(toChangeEvent);
