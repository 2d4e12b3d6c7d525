import type { SQL } from "bun";
import { toBool } from "../../../db/dialect.ts";
import { newId } from "../../../lib/ids.ts";
import type { ChangeEvent } from "../../events/model.ts";
import { ALL_EVENTS } from "../model.ts";

/**
 * The publisher's hook (events' `OnPublished`): each event just given its feed position becomes
 * one pending delivery per enabled endpoint that wants its type, in the publisher's
 * transaction. Every event is published once, so it fans out once; the UNIQUE (endpoint, event)
 * pair makes a second insert impossible anyway. An endpoint gets the events published after it
 * was created; a disabled one gets none while it is disabled.
 */
export async function fanOut(tx: SQL, events: ChangeEvent[]): Promise<void> {
  const endpoints = (await tx`SELECT id, event_types, enabled FROM webhook_endpoints`) as {
    id: string;
    event_types: string;
    enabled: unknown;
  }[];
  const wanting = endpoints
    .filter((endpoint) => toBool(endpoint.enabled))
    .map((endpoint) => ({ id: endpoint.id, types: JSON.parse(endpoint.event_types) as string[] }));
  if (wanting.length === 0) return;
  const rows = events.flatMap((event) =>
    wanting
      .filter(
        (endpoint) => endpoint.types.includes(ALL_EVENTS) || endpoint.types.includes(event.type),
      )
      .map((endpoint) => ({
        id: newId(),
        endpoint_id: endpoint.id,
        event_id: event.id,
        status: "pending",
        attempts: 0,
        next_attempt_at: event.timestamp,
        last_status_code: null,
        last_error: null,
        created_at: event.timestamp,
        delivered_at: null,
      })),
  );
  // In slices: one INSERT holds at most a few hundred rows' parameters (SQLite's limit).
  for (let i = 0; i < rows.length; i += 50) {
    await tx`INSERT INTO webhook_deliveries ${tx(rows.slice(i, i + 50))}
      ON CONFLICT (endpoint_id, event_id) DO NOTHING`;
  }
}
