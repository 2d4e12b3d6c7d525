import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { toInt, toIso } from "../../../db/dialect.ts";
import { notFound, problem } from "../../../problems.ts";
import type { Rubric, RubricBody } from "../model.ts";

/*
 * A program's rubric: the weighted criteria and the scale reviews score on, its row, its
 * arithmetic and its rules.
 */

type RubricRow = {
  program_id: string;
  min_score: number;
  max_score: number;
  criteria: string;
  updated_at: unknown;
};

const toRubric = (row: RubricRow): Rubric => ({
  programId: row.program_id,
  scale: { min: toInt(row.min_score), max: toInt(row.max_score) },
  criteria: JSON.parse(row.criteria) as Rubric["criteria"],
  updatedAt: toIso(row.updated_at),
});

/** Σ score × weight / Σ weight, to two decimals: on the rubric's own scale. */
export function weightedTotal(rubric: Rubric, scores: Record<string, number>): number {
  let sum = 0;
  let weights = 0;
  for (const { key, weight } of rubric.criteria) {
    sum += (scores[key] ?? 0) * weight;
    weights += weight;
  }
  return Math.round((sum / weights) * 100) / 100;
}

/** Scores must cover exactly the rubric's criteria, each within its scale (422 per key). */
export function assertScores(rubric: Rubric, scores: Record<string, number>): void {
  const keys = new Set(rubric.criteria.map((c) => c.key));
  for (const key of Object.keys(scores)) {
    if (!keys.has(key))
      throw invalidField(`/body/scores/${key}`, "is not a criterion of the rubric", "unknownField");
  }
  for (const { key } of rubric.criteria) {
    const score = scores[key];
    if (score === undefined) throw invalidField(`/body/scores/${key}`, "is required", "required");
    if (score < rubric.scale.min || score > rubric.scale.max) {
      throw invalidField(
        `/body/scores/${key}`,
        `must be between ${rubric.scale.min} and ${rubric.scale.max}`,
        score < rubric.scale.min ? "minimum" : "maximum",
        score < rubric.scale.min ? rubric.scale.min : rubric.scale.max,
      );
    }
  }
}

/** A rubric as an admin sends it: a scale that is one, criteria keys used once (422). */
export function assertRubricBody(body: RubricBody): void {
  if (body.scale.min >= body.scale.max)
    throw invalidField("/body/scale/max", "must exceed min", "later");
  const keys = body.criteria.map((c) => c.key);
  const duplicate = keys.findIndex((key, index) => keys.indexOf(key) !== index);
  if (duplicate >= 0)
    throw invalidField(`/body/criteria/${duplicate}/key`, "is used twice", "duplicate");
}

export async function findRubric(sql: SQL, programId: string): Promise<Rubric | null> {
  const [row] = (await sql`SELECT * FROM rubrics WHERE program_id = ${programId}`) as RubricRow[];
  return row ? toRubric(row) : null;
}

/**
 * Writes a program's rubric. Once a review of one of its applications exists, the rubric is
 * fixed (409 RUBRIC_IN_USE): totals already given would no longer mean the same thing.
 */
export async function saveRubric(
  tx: SQL,
  programId: string,
  body: RubricBody,
  updatedBy: string,
  at: string,
): Promise<Rubric> {
  const [program] = await tx`SELECT id FROM programs WHERE id = ${programId}`;
  if (!program) throw notFound("Program");
  const [used] = await tx`SELECT r.id FROM reviews r
    JOIN applications a ON a.id = r.application_id
    WHERE a.program_id = ${programId} LIMIT 1`;
  if (used) {
    throw problem("RUBRIC_IN_USE", {
      detail: "Applications of this program have been scored with the current rubric",
    });
  }
  const row = {
    program_id: programId,
    min_score: body.scale.min,
    max_score: body.scale.max,
    criteria: JSON.stringify(body.criteria),
    updated_by: updatedBy,
    updated_at: at,
  };
  await tx`INSERT INTO rubrics ${tx(row)} ON CONFLICT (program_id) DO UPDATE SET
    min_score = ${row.min_score}, max_score = ${row.max_score}, criteria = ${row.criteria},
    updated_by = ${row.updated_by}, updated_at = ${row.updated_at}`;
  return toRubric({ ...row });
}
