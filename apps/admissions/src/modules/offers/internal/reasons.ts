import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { isUniqueViolation, toBool, toIso } from "../../../db/dialect.ts";
import { notFound, problem } from "../../../problems.ts";
import { type Move, REASON_KIND_OF } from "../../workflow/model.ts";
import type { Reason, ReasonCreate, ReasonQuery, ReasonUpdate } from "../model.ts";

/*
 * The configurable reasons for rejection, withdrawal and decline (issue 19) as rows: the list
 * admins manage and everyone picks from, and the check a move's `reasonCode` passes.
 */

type ReasonRow = {
  kind: Reason["kind"];
  code: string;
  label: string;
  active: unknown;
  created_at: unknown;
  updated_at: unknown;
};

const toReason = (row: ReasonRow): Reason => ({
  kind: row.kind,
  code: row.code,
  label: row.label,
  active: toBool(row.active),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export type ReasonKey = { kind: Reason["kind"]; code: string };

export async function reasonsIn(
  sql: SQL,
  kind: ReasonQuery["kind"],
  active: boolean | undefined,
): Promise<Reason[]> {
  const rows = (await sql`SELECT * FROM reasons
    WHERE ${kind ? sql`kind = ${kind}` : sql`1 = 1`}
      AND ${active === undefined ? sql`1 = 1` : sql`active = ${active}`}
    ORDER BY kind, code`) as ReasonRow[];
  return rows.map(toReason);
}

/** A new code of its kind (409 REASON_CODE_TAKEN for one in use, deactivated ones too). */
export async function insertReason(tx: SQL, body: ReasonCreate, at: string): Promise<Reason> {
  const row = { ...body, label: body.label.trim(), active: true, created_at: at, updated_at: at };
  let created: ReasonRow[];
  try {
    created = await tx`INSERT INTO reasons ${tx(row)} RETURNING *`;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw problem("REASON_CODE_TAKEN", {
      detail: `There is already a ${body.kind} reason "${body.code}" (deactivated ones too)`,
    });
  }
  return toReason(created[0] as ReasonRow);
}

/** Relabels or (de)activates a reason (404 for an unknown one): before and after. */
export async function changeReason(tx: SQL, key: ReasonKey, body: ReasonUpdate, at: string) {
  const [before] = (await tx`SELECT * FROM reasons
    WHERE kind = ${key.kind} AND code = ${key.code}`) as ReasonRow[];
  if (!before) throw notFound("Reason");
  const columns = {
    ...(body.label !== undefined ? { label: body.label.trim() } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
    updated_at: at,
  };
  const [row] = (await tx`UPDATE reasons SET ${tx(columns)}
    WHERE kind = ${key.kind} AND code = ${key.code} RETURNING *`) as ReasonRow[];
  return { before: toReason(before), after: toReason(row as ReasonRow) };
}

/**
 * A move's `reasonCode`: only on a rejection, withdrawal or decline, and only an active code of
 * that kind (422 naming the field otherwise).
 */
export async function assertReasonCode(move: Move): Promise<void> {
  if (move.reasonCode === null) return;
  const kind = REASON_KIND_OF[move.to];
  if (!kind) {
    throw invalidField(
      "/body/reasonCode",
      "applies to rejections, withdrawals and declines only",
      "notAllowed",
    );
  }
  const [row] = await move.tx`SELECT active FROM reasons
    WHERE kind = ${kind} AND code = ${move.reasonCode}`;
  if (!row || !toBool(row.active)) {
    throw invalidField("/body/reasonCode", `is not an active ${kind} reason`, "enum");
  }
}
