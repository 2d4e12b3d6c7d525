import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import type { Db } from "../../../db/client.ts";
import { notFound } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import type { AuditAction, Origin } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import { type EndpointRow, findEndpoint } from "./queries.ts";
import type { SecretBox } from "./secret.ts";
import { urlProblem } from "./target.ts";

/* An endpoint as admins send it, and what every change of one writes beside it. */

export type WebhooksDeps = {
  db: Db;
  now: () => number;
  box: SecretBox;
  /** http:// and private or loopback targets (development and tests only; see env.ts). */
  allowPrivateTargets: boolean;
};

export type AdminOrigin = Origin & { actor: User };

export function checkedUrl(url: string, allowPrivate: boolean): string {
  const problem = urlProblem(url, allowPrivate);
  if (problem) throw invalidField("/body/url", problem);
  return new URL(url).toString();
}

/** ["*"] stays alone: a list naming every type and "*" means the same, say it once. */
export const filterOf = (types: readonly string[]) =>
  types.includes("*") ? ["*"] : [...types].sort();

export async function audited(
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

export async function existing(tx: SQL, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(tx, id);
  if (!row) throw notFound("Webhook endpoint");
  return row;
}
