import type { SQL } from "bun";
import { toBool, toInt, toIso, toIsoOrNull } from "../../../db/dialect.ts";
import type { WebhookDelivery, WebhookEndpoint } from "../model.ts";

export type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  event_types: string;
  secret_sealed: string;
  enabled: unknown;
  created_by: string | null;
  created_at: unknown;
  updated_at: unknown;
};

export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_id: string;
  status: WebhookDelivery["status"];
  attempts: unknown;
  next_attempt_at: unknown;
  last_status_code: unknown;
  last_error: string | null;
  created_at: unknown;
  delivered_at: unknown;
};

/** A delivery with its event's type and position (joined from events). */
export type DeliveryView = DeliveryRow & { event_type: string; event_position: unknown };

export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: JSON.parse(row.event_types) as string[],
  enabled: toBool(row.enabled),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export const toDelivery = (row: DeliveryView): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  eventPosition: toInt(row.event_position),
  status: row.status,
  attempts: toInt(row.attempts),
  nextAttemptAt: row.status === "pending" ? toIso(row.next_attempt_at) : null,
  lastStatusCode: row.last_status_code === null ? null : toInt(row.last_status_code),
  lastError: row.last_error,
  createdAt: toIso(row.created_at),
  deliveredAt: toIsoOrNull(row.delivered_at),
});

export async function findEndpoint(sql: SQL, id: string): Promise<EndpointRow | null> {
  const [row] = (await sql`SELECT * FROM webhook_endpoints WHERE id = ${id}`) as EndpointRow[];
  return row ?? null;
}

export const deliveryView = (sql: SQL) => sql`SELECT d.*, e.type AS event_type,
  e.position AS event_position FROM webhook_deliveries d JOIN events e ON e.id = d.event_id`;
