import type { Logger } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { toInt } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import type { ChangeEvent } from "../../events/model.ts";
import { backoffMs, type DeliveryPolicy } from "../../outbox/service.ts";
import type { SecretBox } from "./secret.ts";
import { signedHeaders } from "./signature.ts";
import { type PinnedTarget, pinTargets, type Resolver } from "./target.ts";

export type WebhookSender = {
  db: Db;
  logger: Logger;
  now: () => number;
  box: SecretBox;
  allowPrivateTargets: boolean;
  /** The email outbox's retry policy: attempts, lease, batch, doubling backoff. */
  policy: DeliveryPolicy;
  /** A receiver that has not answered by then counts as a failed attempt. */
  timeoutMs: number;
  /** The HTTP client: fetch, unless a test gives its own. */
  fetch?: (url: string, init: BunFetchRequestInit) => Promise<Response>;
  /** How names are resolved at delivery (the system's resolver unless a test gives one). */
  resolve?: Resolver;
};

type Claimed = {
  id: string;
  attempts: unknown;
  event_id: string;
  endpoint_id: string;
  url: string;
  secret_sealed: string;
};

/**
 * Takes up to `batchSize` due deliveries of enabled endpoints, as the email outbox takes
 * emails: one statement pushes them a lease ahead and counts the attempt, so another replica
 * (SKIP LOCKED) or the next pass leaves them alone while they are sent, and a crash mid-send
 * only delays them until the lease ends.
 */
export async function claimDue(deps: WebhookSender): Promise<Claimed[]> {
  const { db, policy } = deps;
  const nowMs = deps.now();
  const lock = (sql: SQL) =>
    db.dialect === "postgres" ? sql.unsafe(" FOR UPDATE OF d SKIP LOCKED") : sql``;
  const claimed = (await db.run(
    (sql) => sql`UPDATE webhook_deliveries
      SET next_attempt_at = ${isoAt(nowMs + policy.leaseMs)}, attempts = attempts + 1
      WHERE id IN (SELECT d.id FROM webhook_deliveries d
        JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= ${isoAt(nowMs)} AND w.enabled = TRUE
        ORDER BY d.next_attempt_at, d.id LIMIT ${policy.batchSize}${lock(sql)})
      RETURNING id`,
  )) as { id: string }[];
  if (claimed.length === 0) return [];
  const ids = claimed.map((row) => row.id);
  return (await db.run(
    (sql) => sql`SELECT d.id, d.attempts, d.event_id, d.endpoint_id, w.url, w.secret_sealed
      FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE d.id IN ${sql(ids)}`,
  )) as Claimed[];
}

type Outcome = { statusCode: number | null; error: string | null; durationMs: number };

/** Errors of a connection that was never made: nothing was sent, the next address may be tried. */
const UNREACHABLE = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);
const unreachable = (error: unknown) =>
  error instanceof Error && UNREACHABLE.has((error as Error & { code?: string }).code ?? "");

/**
 * The POST to the addresses judged for this attempt, in the resolver's order, moving on only
 * when one cannot be connected to. The name goes as the Host header and the TLS server name,
 * so the receiver (and its certificate) is the one the URL names, reached at the address that
 * was checked rather than at whatever fetch would resolve the name to a moment later.
 */
async function postPinned(deps: WebhookSender, targets: PinnedTarget[], init: RequestInit) {
  const send = deps.fetch ?? ((url, options) => fetch(url, options));
  for (const [i, target] of targets.entries()) {
    const headers = { ...(init.headers as Record<string, string>), host: target.host };
    const tls = target.serverName === null ? {} : { tls: { serverName: target.serverName } };
    try {
      return await send(target.url, { ...init, headers, ...tls });
    } catch (error) {
      if (i === targets.length - 1 || !unreachable(error)) throw error;
    }
  }
  throw new Error("refused: no address to send to");
}

/**
 * One POST: signed afresh (a new timestamp per attempt, the same webhook-id), no redirects
 * followed (a 3xx is a failure: a receiver must not bounce us elsewhere), a time limit, and
 * the response body left unread.
 */
export async function post(
  deps: WebhookSender,
  row: Claimed,
  event: ChangeEvent,
): Promise<Outcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const targets = await pinTargets(row.url, deps.allowPrivateTargets, deps.resolve);
    const secret = await deps.box.open(row.endpoint_id, row.secret_sealed);
    const body = JSON.stringify(event);
    const headers = signedHeaders(secret, event.id, Math.floor(deps.now() / 1000), body);
    const response = await postPinned(deps, targets, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        "user-agent": "admissions-webhooks/1",
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return {
      statusCode: response.status,
      error: ok ? null : `receiver answered ${response.status}`,
      durationMs: took(),
    };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { statusCode: null, error: message.slice(0, 500), durationMs: took() };
  }
}

export async function settle(
  deps: WebhookSender,
  row: Claimed,
  outcome: Outcome,
): Promise<boolean> {
  const at = isoAt(deps.now());
  const attempts = toInt(row.attempts);
  const delivered = outcome.error === null;
  const retryAt =
    delivered || attempts >= deps.policy.maxAttempts
      ? null
      : deps.now() + backoffMs(deps.policy, attempts);
  await deps.db.transaction(async (tx) => {
    await tx`INSERT INTO webhook_attempts ${tx({
      id: newId(),
      delivery_id: row.id,
      attempted_at: at,
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
    })}`;
    if (delivered) {
      await tx`UPDATE webhook_deliveries SET status = 'delivered', delivered_at = ${at},
          last_status_code = ${outcome.statusCode}, last_error = NULL
        WHERE id = ${row.id} AND status = 'pending'`;
    } else if (retryAt === null) {
      await tx`UPDATE webhook_deliveries SET status = 'dead',
          last_status_code = ${outcome.statusCode}, last_error = ${outcome.error}
        WHERE id = ${row.id} AND status = 'pending'`;
    } else {
      await tx`UPDATE webhook_deliveries SET next_attempt_at = ${isoAt(retryAt)},
          last_status_code = ${outcome.statusCode}, last_error = ${outcome.error}
        WHERE id = ${row.id} AND status = 'pending'`;
    }
  });
  if (!delivered) {
    deps.logger.warn("webhook delivery failed", {
      deliveryId: row.id,
      endpointId: row.endpoint_id,
      attempts,
      retryAt: retryAt === null ? "never (dead)" : isoAt(retryAt),
      error: outcome.error,
    });
  }
  return delivered;
}
