import { invalidField } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { isUniqueViolation, toBool, toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { notFound, problem } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import { type Origin, REASON_KIND_OF, type TransitionEffects } from "../../workflow/model.ts";
import { recordAudit } from "../../workflow/service.ts";
import type { Reason, ReasonCreate, ReasonQuery, ReasonUpdate } from "../model.ts";

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

export type ReasonsDeps = { db: Db; now: () => number };

/** The list to pick from: everyone signed in sees the active codes; admins may ask for all. */
export function listReasons(deps: ReasonsDeps, viewer: User, query: ReasonQuery) {
  const active = viewer.role === "admin" ? query.active : true;
  return deps.db.run(async (sql) => {
    const rows = (await sql`SELECT * FROM reasons
      WHERE ${query.kind ? sql`kind = ${query.kind}` : sql`1 = 1`}
        AND ${active === undefined ? sql`1 = 1` : sql`active = ${active}`}
      ORDER BY kind, code`) as ReasonRow[];
    return { results: rows.map(toReason) };
  });
}

export function createReason(deps: ReasonsDeps, origin: Origin, body: ReasonCreate) {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
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
    const reason = toReason(created[0] as ReasonRow);
    await recordAudit(
      tx,
      origin,
      {
        action: "reason.created",
        subject: { type: "reason", id: `${reason.kind}:${reason.code}` },
        details: { label: reason.label },
      },
      at,
    );
    return reason;
  });
}

/** Codes are never deleted (the history names them): relabelled or deactivated. */
export function updateReason(
  deps: ReasonsDeps,
  origin: Origin,
  key: { kind: Reason["kind"]; code: string },
  body: ReasonUpdate,
) {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
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
    const reason = toReason(row as ReasonRow);
    await recordAudit(
      tx,
      origin,
      {
        action: "reason.updated",
        subject: { type: "reason", id: `${key.kind}:${key.code}` },
        details: { before: toReason(before), after: reason },
      },
      at,
    );
    return reason;
  });
}

/**
 * A move's `reasonCode`: only on a rejection, withdrawal or decline, and only an active code of
 * that kind (422 naming the field otherwise). The history keeps it beside the free text.
 */
export const reasonEffects: TransitionEffects = {
  async prepare(move) {
    if (move.reasonCode === null) return {};
    const kind = REASON_KIND_OF[move.to];
    if (!kind) {
      throw invalidField(
        "/body/reasonCode",
        "applies to rejections, withdrawals and declines only",
      );
    }
    const [row] = await move.tx`SELECT active FROM reasons
      WHERE kind = ${kind} AND code = ${move.reasonCode}`;
    if (!row || !toBool(row.active)) {
      throw invalidField("/body/reasonCode", `is not an active ${kind} reason`);
    }
    return {};
  },
  settle: async () => {},
};
