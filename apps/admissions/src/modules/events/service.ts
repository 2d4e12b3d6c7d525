import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { type OnPublished, publishEvents } from "./internal/publish.ts";
import type { ChangeEvent, FeedPage, FeedQuery } from "./model.ts";
import { selectByIds, selectPublished, toChangeEvent } from "./queries.ts";

export { type OnPublished, publishEvents } from "./internal/publish.ts";
/*
 * The change feed: events appended in the transaction of the change they describe
 * (`recordEvent`), published in order after commit (`publishEvents`), read by cursor
 * (`readFeed`). Webhooks plug in as the publisher's `onPublished`; the app's wiring joins them.
 */
export { eventEffects, type NewEvent, recordEvent } from "./internal/record.ts";

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
