import type { SQL } from "bun";
import { toInt } from "../../../db/dialect.ts";
import type { ReasonStats, ReasonStatsQuery } from "../model.ts";

const KIND_OF_STATUS = {
  rejected: "rejection",
  withdrawn: "withdrawal",
  declined: "decline",
} as const;

type Row = { to_status: keyof typeof KIND_OF_STATUS; reason_code: string | null; total: unknown };

/**
 * Rejections, withdrawals and declines by reason code, from the history: these statuses are
 * final, so each application enters one of them at most once and a count of moves is a count
 * of applications.
 */
export async function reasonStatsIn(sql: SQL, query: ReasonStatsQuery): Promise<ReasonStats> {
  const rows = (await sql`SELECT t.to_status, t.reason_code, count(*) AS total
    FROM application_transitions t
    JOIN applications a ON a.id = t.application_id
    WHERE t.to_status IN ('rejected', 'withdrawn', 'declined')
      AND ${query.programId ? sql`a.program_id = ${query.programId}` : sql`1 = 1`}
      AND ${query.intakeId ? sql`a.intake_id = ${query.intakeId}` : sql`1 = 1`}
      AND ${query.from ? sql`t.created_at >= ${new Date(query.from).toISOString()}` : sql`1 = 1`}
      AND ${query.to ? sql`t.created_at < ${new Date(query.to).toISOString()}` : sql`1 = 1`}
    GROUP BY t.to_status, t.reason_code`) as Row[];
  const labels = new Map(
    (
      (await sql`SELECT kind, code, label FROM reasons`) as {
        kind: string;
        code: string;
        label: string;
      }[]
    ).map((r) => [`${r.kind}:${r.code}`, r.label]),
  );
  const stats: ReasonStats = { rejection: [], withdrawal: [], decline: [] };
  for (const row of rows) {
    const kind = KIND_OF_STATUS[row.to_status];
    stats[kind].push({
      code: row.reason_code,
      label: row.reason_code === null ? null : (labels.get(`${kind}:${row.reason_code}`) ?? null),
      total: toInt(row.total),
    });
  }
  for (const list of Object.values(stats)) {
    list.sort((a, b) => b.total - a.total || (a.code ?? "").localeCompare(b.code ?? ""));
  }
  return stats;
}
