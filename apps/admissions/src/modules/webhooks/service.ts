import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toBool, toInt, toIso } from "../../db/dialect.ts";
import { isoAt, newId } from "../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import type { ChangeEvent } from "../events/model.ts";
import { eventsByIds } from "../events/service.ts";
import type { User } from "../users/model.ts";
import type { Origin } from "../workflow/model.ts";
import { recordAudit } from "../workflow/service.ts";
import {
  type AdminOrigin,
  audited,
  checkedUrl,
  existing,
  filterOf,
  type WebhooksDeps,
} from "./internal/endpoints.ts";
import {
  type DeliveryView,
  deliveryView,
  type EndpointRow,
  findEndpoint,
  toDelivery,
  toEndpoint,
} from "./internal/queries.ts";
import { newSecret } from "./internal/secret.ts";
import { claimDue, post, settle, type WebhookSender } from "./internal/worker.ts";
import {
  ALL_EVENTS,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryQuery,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
  type WebhookEndpointUpdate,
  type WebhookEndpointWithSecret,
} from "./model.ts";

/*
 * Signed outgoing webhooks (issue 19): admins' endpoints with sealed secrets, one delivery per
 * event and endpoint made when the event is published (`fanOut`, the change feed publisher's
 * hook), and their delivery with retries, backoff and a dead letter, as the email outbox does.
 */

/** Built once by the app: endpoint secrets sealed at rest (AES-256-GCM, key by HKDF). */
export { type SecretBox, secretBox } from "./internal/secret.ts";
export type { WebhookSender, WebhooksDeps };

/** A new endpoint with a fresh secret, returned this once in clear. */
export async function createEndpoint(
  deps: WebhooksDeps,
  origin: AdminOrigin,
  body: WebhookEndpointCreate,
): Promise<WebhookEndpointWithSecret> {
  const url = checkedUrl(body.url, deps.allowPrivateTargets);
  const id = newId();
  const secret = newSecret();
  const at = isoAt(deps.now());
  const row: EndpointRow = {
    id,
    url,
    description: body.description?.trim() || null,
    event_types: JSON.stringify(filterOf(body.eventTypes)),
    secret_sealed: await deps.box.seal(id, secret),
    enabled: true,
    created_by: origin.actor.id,
    created_at: at,
    updated_at: at,
  };
  await deps.db.transaction(async (tx) => {
    await tx`INSERT INTO webhook_endpoints ${tx(row)}`;
    await audited(
      tx,
      origin,
      "webhook.created",
      id,
      { url, eventTypes: filterOf(body.eventTypes) },
      at,
    );
  });
  return { ...toEndpoint(row), secret };
}

export const listEndpoints = (db: Db) =>
  db.run(async (sql) => ({
    results: (
      (await sql`SELECT * FROM webhook_endpoints ORDER BY created_at, id`) as EndpointRow[]
    ).map(toEndpoint),
  }));

export const getEndpoint = (db: Db, id: string): Promise<WebhookEndpoint> =>
  db.run(async (sql) => toEndpoint(await existing(sql, id)));

export async function updateEndpoint(
  deps: WebhooksDeps,
  origin: AdminOrigin,
  id: string,
  body: WebhookEndpointUpdate,
): Promise<WebhookEndpoint> {
  const at = isoAt(deps.now());
  const changes: Record<string, unknown> = { updated_at: at };
  if (body.url !== undefined) changes.url = checkedUrl(body.url, deps.allowPrivateTargets);
  if (body.description !== undefined) changes.description = body.description?.trim() || null;
  if (body.eventTypes !== undefined)
    changes.event_types = JSON.stringify(filterOf(body.eventTypes));
  if (body.enabled !== undefined) changes.enabled = body.enabled;
  return deps.db.transaction(async (tx) => {
    await existing(tx, id);
    await tx`UPDATE webhook_endpoints SET ${tx(changes)} WHERE id = ${id}`;
    const { updated_at: _, ...details } = changes;
    await audited(tx, origin, "webhook.updated", id, details, at);
    return toEndpoint(await existing(tx, id));
  });
}

/** Deletes the endpoint with its deliveries and their attempts (ON DELETE CASCADE). */
export async function deleteEndpoint(deps: WebhooksDeps, origin: AdminOrigin, id: string) {
  const at = isoAt(deps.now());
  await deps.db.transaction(async (tx) => {
    const row = await existing(tx, id);
    await tx`DELETE FROM webhook_endpoints WHERE id = ${id}`;
    await audited(tx, origin, "webhook.deleted", id, { url: row.url }, at);
  });
}

/**
 * A new secret, effective at once for every delivery attempt from now on (pending retries
 * included); the old one stops signing. Shown this once.
 */
export async function rotateSecret(
  deps: WebhooksDeps,
  origin: AdminOrigin,
  id: string,
): Promise<WebhookEndpointWithSecret> {
  const secret = newSecret();
  const sealed = await deps.box.seal(id, secret);
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    await existing(tx, id);
    await tx`UPDATE webhook_endpoints SET secret_sealed = ${sealed}, updated_at = ${at}
      WHERE id = ${id}`;
    await audited(tx, origin, "webhook.secret_rotated", id, {}, at);
    return { ...toEndpoint(await existing(tx, id)), secret };
  });
}

/** An endpoint's deliveries, newest first; 404 for an endpoint that does not exist. */
export function listDeliveries(
  db: Db,
  endpointId: string,
  query: WebhookDeliveryQuery,
  page: Page,
  requestUrl: string,
): Promise<PageOf<WebhookDelivery>> {
  return db.run(async (sql) => {
    if (!(await findEndpoint(sql, endpointId))) throw notFound("Webhook endpoint");
    const where = query.status
      ? sql`d.endpoint_id = ${endpointId} AND d.status = ${query.status}`
      : sql`d.endpoint_id = ${endpointId}`;
    const [total] = await sql`SELECT count(*) AS total FROM webhook_deliveries d WHERE ${where}`;
    const rows = (await sql`${deliveryView(sql)} WHERE ${where}
      ORDER BY e.position DESC, d.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`) as DeliveryView[];
    return toPage(requestUrl, page, toInt(total?.total ?? 0), rows.map(toDelivery));
  });
}

/** One delivery with every attempt; 404 unless it belongs to the endpoint named. */
export function getDelivery(
  db: Db,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryDetail> {
  return db.run(async (sql) => {
    const [row] = (await sql`${deliveryView(sql)}
      WHERE d.id = ${deliveryId} AND d.endpoint_id = ${endpointId}`) as DeliveryView[];
    if (!row) throw notFound("Webhook delivery");
    const attempts = (await sql`SELECT * FROM webhook_attempts WHERE delivery_id = ${deliveryId}
      ORDER BY attempted_at, id`) as {
      attempted_at: unknown;
      status_code: unknown;
      error: string | null;
      duration_ms: unknown;
    }[];
    return {
      ...toDelivery(row),
      attemptLog: attempts.map((a) => ({
        at: toIso(a.attempted_at),
        statusCode: a.status_code === null ? null : toInt(a.status_code),
        error: a.error,
        durationMs: toInt(a.duration_ms),
      })),
    };
  });
}

/**
 * Sends a delivered or dead delivery again, as soon as the next pass runs, with a fresh round of
 * attempts. It keeps its webhook-id: a receiver that did process it will drop it as a duplicate.
 * A pending one is already on its way (409).
 */
export async function redeliver(
  deps: { db: Db; now: () => number },
  origin: Origin & { actor: User },
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryDetail> {
  const at = isoAt(deps.now());
  await deps.db.transaction(async (tx) => {
    const changed = await tx`UPDATE webhook_deliveries SET status = 'pending', attempts = 0,
        next_attempt_at = ${at}, last_error = NULL, delivered_at = NULL
      WHERE id = ${deliveryId} AND endpoint_id = ${endpointId} AND status <> 'pending'`;
    if (changed.count !== 1) {
      const [row] = await tx`SELECT status FROM webhook_deliveries
        WHERE id = ${deliveryId} AND endpoint_id = ${endpointId}`;
      if (!row) throw notFound("Webhook delivery");
      throw problem("WEBHOOK_DELIVERY_PENDING", {
        detail: "This delivery is still pending: it is retried on its own",
      });
    }
    await recordAudit(
      tx,
      origin,
      {
        action: "webhook.redelivered",
        subject: { type: "webhook", id: endpointId },
        details: { deliveryId },
      },
      at,
    );
  });
  return getDelivery(deps.db, endpointId, deliveryId);
}

/** Deliveries by status (pending is the backlog, dead the ones out of tries): metrics. */
export function deliveryCounts(db: Db): Promise<Record<WebhookDelivery["status"], number>> {
  return db.run(async (sql) => {
    const rows = (await sql`SELECT status, count(*) AS n FROM webhook_deliveries
      GROUP BY status`) as { status: WebhookDelivery["status"]; n: unknown }[];
    const counts = { pending: 0, delivered: 0, dead: 0 };
    for (const row of rows) counts[row.status] = toInt(row.n);
    return counts;
  });
}

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

/**
 * One pass: claims the due deliveries and posts them side by side (a slow receiver holds up
 * only its own), outside any transaction. Each attempt is logged; the delivery is then
 * delivered, due again after its backoff, or dead after the last attempt.
 */
export async function deliverDueWebhooks(
  deps: WebhookSender,
): Promise<{ delivered: number; failed: number }> {
  const claimed = await claimDue(deps);
  if (claimed.length === 0) return { delivered: 0, failed: 0 };
  const events = new Map(
    (
      await deps.db.run((sql) =>
        eventsByIds(
          sql,
          claimed.map((row) => row.event_id),
        ),
      )
    ).map((event) => [event.id, event]),
  );
  const results = await Promise.all(
    claimed.map(async (row) => {
      const event = events.get(row.event_id);
      if (!event) return false; // deleted with its endpoint's cascade meanwhile
      return settle(deps, row, await post(deps, row, event));
    }),
  );
  const delivered = results.filter(Boolean).length;
  return { delivered, failed: results.length - delivered };
}
