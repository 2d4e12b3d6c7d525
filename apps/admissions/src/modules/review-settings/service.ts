import type { SQL } from "bun";
import type { Db } from "../../db/client.ts";
import { toBool } from "../../db/dialect.ts";
import { isoAt } from "../../lib/ids.ts";
import { notFound } from "../../problems.ts";
import type { Origin } from "../workflow/model.ts";
import { recordAudit } from "../workflow/service.ts";
import type { ReviewSettings, ReviewSettingsBody } from "./model.ts";

/*
 * A program's review settings: blind review and the disagreement threshold that asks for an
 * extra review. The module's public face: its controller and the reviews module read here.
 */

/** `defaultThreshold`: ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD; 0 means none. */
export type ReviewSettingsDeps = { db: Db; now: () => number; defaultThreshold: number };

type Row = { id: string; blind_review: unknown; review_disagreement_threshold: unknown };

const toSettings = (row: Row, defaultThreshold: number): ReviewSettings => {
  const own =
    row.review_disagreement_threshold === null ? null : Number(row.review_disagreement_threshold);
  const effective = own ?? (defaultThreshold > 0 ? defaultThreshold : null);
  return {
    programId: row.id,
    blindReview: toBool(row.blind_review),
    disagreementThreshold: own,
    effectiveThreshold: effective,
  };
};

async function findRow(sql: SQL, programId: string): Promise<Row> {
  const [row] = (await sql`SELECT id, blind_review, review_disagreement_threshold
    FROM programs WHERE id = ${programId}`) as Row[];
  if (!row) throw notFound("Program");
  return row;
}

/** The settings in force for a program (404 for an unknown one). */
export const findReviewSettings = async (sql: SQL, programId: string, defaultThreshold: number) =>
  toSettings(await findRow(sql, programId), defaultThreshold);

export const getReviewSettings = (deps: ReviewSettingsDeps, programId: string) =>
  deps.db.run((sql) => findReviewSettings(sql, programId, deps.defaultThreshold));

/** Admins set both at once; audited with the values before and after. */
export function setReviewSettings(
  deps: ReviewSettingsDeps,
  origin: Origin,
  programId: string,
  body: ReviewSettingsBody,
): Promise<ReviewSettings> {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    const before = toSettings(await findRow(tx, programId), deps.defaultThreshold);
    await tx`UPDATE programs SET blind_review = ${body.blindReview},
      review_disagreement_threshold = ${body.disagreementThreshold}
      WHERE id = ${programId}`;
    await recordAudit(
      tx,
      origin,
      {
        action: "program.review_settings_set",
        subject: { type: "program", id: programId },
        details: {
          before: {
            blindReview: before.blindReview,
            disagreementThreshold: before.disagreementThreshold,
          },
          after: { ...body },
        },
      },
      at,
    );
    return findReviewSettings(tx, programId, deps.defaultThreshold);
  });
}
