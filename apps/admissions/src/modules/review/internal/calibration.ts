import type { SQL } from "bun";
import { toIso, toIsoOrNull } from "../../../db/dialect.ts";
import { notFound, problem } from "../../../problems.ts";
import type { ApplicationStatus } from "../../workflow/model.ts";
import type {
  Calibration,
  CalibrationQuery,
  ExtraReview,
  ExtraReviews,
  ExtraReviewsQuery,
  Ranking,
  RankingQuery,
  Rubric,
} from "../model.ts";
import { findRubric, weightedTotal } from "./rubric.ts";
import { calibrate, normaliser, round2, type Scored, type Spread, spreadOf } from "./stats.ts";

/*
 * Reviewer calibration read from the reviews: each reviewer's totals against the panel's, the
 * ranking with optional normalisation (the arithmetic is stats.ts), the automatic extra reviews.
 */

export type CalibrationRow = {
  application_id: string;
  reviewer_id: string;
  scores: string;
  status: ApplicationStatus;
  applicant_id: string;
  applicant_name: string;
  reviewer_email: string;
  reviewer_name: string;
};

/** The program (404), the intake if named and of that program (404), and its rubric (409). */
export async function scopeOf(sql: SQL, query: CalibrationQuery): Promise<Rubric> {
  const [program] = await sql`SELECT id FROM programs WHERE id = ${query.programId}`;
  if (!program) throw notFound("Program");
  if (query.intakeId !== undefined) {
    const [intake] = await sql`SELECT id FROM intakes
      WHERE id = ${query.intakeId} AND program_id = ${query.programId}`;
    if (!intake) throw notFound("Intake");
  }
  const rubric = await findRubric(sql, query.programId);
  if (!rubric) {
    throw problem("RUBRIC_MISSING", { detail: "The program has no rubric, so no totals" });
  }
  return rubric;
}

/** The counted reviews in scope: a reviewer who declared a conflict since is left out. */
export async function reviewsIn(sql: SQL, query: CalibrationQuery): Promise<CalibrationRow[]> {
  return (await sql`SELECT r.application_id, r.reviewer_id, r.scores, a.status, a.applicant_id,
      ua.full_name AS applicant_name, u.email AS reviewer_email, u.full_name AS reviewer_name
    FROM reviews r
    JOIN applications a ON a.id = r.application_id
    JOIN users u ON u.id = r.reviewer_id
    JOIN users ua ON ua.id = a.applicant_id
    WHERE a.program_id = ${query.programId}
      ${query.intakeId === undefined ? sql`` : sql`AND a.intake_id = ${query.intakeId}`}
      AND NOT EXISTS (SELECT 1 FROM review_conflicts c
        WHERE c.application_id = r.application_id AND c.reviewer_id = r.reviewer_id)
    ORDER BY r.application_id, r.reviewer_id`) as CalibrationRow[];
}

const scoredOf = (rubric: Rubric, rows: CalibrationRow[]): Scored[] =>
  rows.map((row) => ({
    reviewerId: row.reviewer_id,
    applicationId: row.application_id,
    total: weightedTotal(rubric, JSON.parse(row.scores) as Record<string, number>),
  }));

const rounded = (s: Spread): Spread => ({
  count: s.count,
  mean: s.mean === null ? null : round2(s.mean),
  sd: s.sd === null ? null : round2(s.sd),
});

/** Each reviewer's mean and spread against the panel's. */
export function calibrationOf(
  query: CalibrationQuery,
  rubric: Rubric,
  rows: CalibrationRow[],
): Calibration {
  const scored = scoredOf(rubric, rows);
  const people = new Map(
    rows.map((r) => [
      r.reviewer_id,
      { id: r.reviewer_id, email: r.reviewer_email, fullName: r.reviewer_name },
    ]),
  );
  return {
    programId: query.programId,
    intakeId: query.intakeId ?? null,
    scale: rubric.scale,
    panel: rounded(spreadOf(scored.map((s) => s.total))),
    reviewers: calibrate(scored)
      .map((c) => ({
        reviewer: people.get(c.reviewerId) ?? { id: c.reviewerId, email: "", fullName: "" },
        ...rounded(c.own),
        panel: rounded(c.panel),
        difference: c.difference === null ? null : round2(c.difference),
        normalisable: c.normalisable,
      }))
      .sort(
        (a, b) =>
          a.reviewer.fullName.localeCompare(b.reviewer.fullName) ||
          a.reviewer.id.localeCompare(b.reviewer.id),
      ),
  };
}

/**
 * The reviewed applications, best first, by the mean of their counted totals: raw, or each
 * total normalised first. Computed on every read: the stored scores never change.
 */
export function rankingOf(query: RankingQuery, rubric: Rubric, rows: CalibrationRow[]): Ranking {
  const scored = scoredOf(rubric, rows);
  const normalise = query.normalised ? normaliser(scored, rubric.scale) : (s: Scored) => s.total;
  const byApplication = new Map<
    string,
    { row: CalibrationRow; raw: number[]; adjusted: number[] }
  >();
  rows.forEach((row, index) => {
    const s = scored[index];
    if (!s) return;
    const entry = byApplication.get(row.application_id) ?? { row, raw: [], adjusted: [] };
    entry.raw.push(s.total);
    entry.adjusted.push(normalise(s));
    byApplication.set(row.application_id, entry);
  });
  const mean = (xs: number[]) => round2(xs.reduce((a, b) => a + b, 0) / xs.length);
  const items = [...byApplication.values()]
    .map(({ row, raw, adjusted }) => ({
      applicationId: row.application_id,
      status: row.status,
      applicant: { id: row.applicant_id, fullName: row.applicant_name },
      reviews: raw.length,
      rawScore: mean(raw),
      score: mean(adjusted),
    }))
    .sort((a, b) => b.score - a.score || a.applicationId.localeCompare(b.applicationId))
    .map((item, index) => ({ rank: index + 1, ...item }));
  return {
    programId: query.programId,
    intakeId: query.intakeId ?? null,
    normalised: query.normalised === true,
    items,
  };
}

/** Automatic extra reviews, newest first; `flagged`: those still waiting for an admin. */
type ExtraReviewRow = {
  application_id: string;
  program_id: string;
  reviewer_id: string | null;
  low_total: unknown;
  high_total: unknown;
  threshold: unknown;
  created_at: unknown;
  resolved_at: unknown;
};

const toExtraReview = (row: ExtraReviewRow): ExtraReview => ({
  applicationId: row.application_id,
  programId: row.program_id,
  reviewerId: row.reviewer_id,
  lowTotal: Number(row.low_total),
  highTotal: Number(row.high_total),
  threshold: Number(row.threshold),
  createdAt: toIso(row.created_at),
  resolvedAt: toIsoOrNull(row.resolved_at),
});

export async function extraReviewsIn(sql: SQL, query: ExtraReviewsQuery): Promise<ExtraReviews> {
  const rows = (await sql`SELECT x.*, a.program_id FROM review_extra_requests x
    JOIN applications a ON a.id = x.application_id
    WHERE ${query.programId === undefined ? sql`1 = 1` : sql`a.program_id = ${query.programId}`}
      ${query.flagged ? sql`AND x.resolved_at IS NULL` : sql``}
    ORDER BY x.created_at DESC, x.application_id LIMIT 500`) as ExtraReviewRow[];
  return { items: rows.map(toExtraReview) };
}

/** The application's extra review, if its reviews ever disagreed past the threshold (one at most). */
export async function extraReviewOf(sql: SQL, applicationId: string): Promise<ExtraReview | null> {
  const [row] = (await sql`SELECT x.*, a.program_id FROM review_extra_requests x
    JOIN applications a ON a.id = x.application_id
    WHERE x.application_id = ${applicationId}`) as ExtraReviewRow[];
  return row ? toExtraReview(row) : null;
}
