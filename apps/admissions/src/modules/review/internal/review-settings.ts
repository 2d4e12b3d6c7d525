import type { SQL } from "bun";
import { toBool } from "../../../db/dialect.ts";
import { notFound } from "../../../problems.ts";
import type { ReviewSettings } from "../model.ts";

/*
 * A program's review settings, kept on its row: blind review and the disagreement threshold
 * that asks for an extra review.
 */

type Row = { id: string; blind_review: unknown; review_disagreement_threshold: unknown };

/** `defaultThreshold`: ADMISSIONS_REVIEW_DISAGREEMENT_THRESHOLD; 0 means none. */
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

/** The settings in force for a program (404 for an unknown one). */
export async function findReviewSettings(
  sql: SQL,
  programId: string,
  defaultThreshold: number,
): Promise<ReviewSettings> {
  const [row] = (await sql`SELECT id, blind_review, review_disagreement_threshold
    FROM programs WHERE id = ${programId}`) as Row[];
  if (!row) throw notFound("Program");
  return toSettings(row, defaultThreshold);
}
