import type { Db } from "../../../db/client.ts";
import { toInt, toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { type Page, type PageOf, toPage } from "../../../lib/pagination.ts";
import { notFound, problem } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import type { Origin } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import type { WebhookDelivery, WebhookDeliveryDetail, WebhookDeliveryQuery } from "../model.ts";
import { type DeliveryView, deliveryView, findEndpoint, toDelivery } from "../queries.ts";

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
