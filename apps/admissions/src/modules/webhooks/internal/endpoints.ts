import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { notFound } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import type { AuditAction, Origin } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import type {
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from "../model.ts";
import { type EndpointRow, findEndpoint, toEndpoint } from "../queries.ts";
import { newSecret, type SecretBox } from "./secret.ts";
import { urlProblem } from "./target.ts";

export type WebhooksDeps = {
  db: Db;
  now: () => number;
  box: SecretBox;
  /** http:// and private or loopback targets (development and tests only; see env.ts). */
  allowPrivateTargets: boolean;
};

type AdminOrigin = Origin & { actor: User };

function checkedUrl(url: string, allowPrivate: boolean): string {
  const problem = urlProblem(url, allowPrivate);
  if (problem) throw invalidField("/body/url", problem);
  return new URL(url).toString();
}

/** ["*"] stays alone: a list naming every type and "*" means the same, say it once. */
const filterOf = (types: readonly string[]) => (types.includes("*") ? ["*"] : [...types].sort());

async function audited(
  tx: SQL,
  origin: AdminOrigin,
  action: AuditAction,
  endpointId: string,
  details: Record<string, unknown>,
  at: string,
) {
  await recordAudit(
    tx,
    origin,
    { action, subject: { type: "webhook", id: endpointId }, details },
    at,
  );
}

async function existing(tx: SQL, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(tx, id);
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

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
