/*
 * The arithmetic of reviewer calibration, apart from the database so it is tested on its own
 * (docs/admissions.md, "Reviewer calibration" has the formulas).
 */

/** One counted review: who gave which weighted total to which application. */
export type Scored = { reviewerId: string; applicationId: string; total: number };
export type Spread = { count: number; mean: number | null; sd: number | null };

/** Fewer reviews than this and a reviewer's mean and spread say too little to rescale by. */
export const MIN_REVIEWS_TO_NORMALISE = 2;

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Count, mean and population standard deviation (√(Σ(x−μ)²/n)); nulls when empty. */
export function spreadOf(values: readonly number[]): Spread {
  const count = values.length;
  if (count === 0) return { count, mean: null, sd: null };
  const mean = values.reduce((s, x) => s + x, 0) / count;
  const variance = values.reduce((s, x) => s + (x - mean) ** 2, 0) / count;
  return { count, mean, sd: Math.sqrt(variance) };
}

export type ReviewerCalibration = {
  reviewerId: string;
  own: Spread;
  /** The other reviewers' totals on the applications this reviewer scored. */
  panel: Spread;
  /** own.mean − panel.mean: above 0 scores more generously than the panel. */
  difference: number | null;
  normalisable: boolean;
};

/** Per reviewer: their spread, the rest of the panel's on the same applications, the gap. */
export function calibrate(scored: readonly Scored[]): ReviewerCalibration[] {
  const byReviewer = new Map<string, Scored[]>();
  for (const s of scored)
    byReviewer.set(s.reviewerId, [...(byReviewer.get(s.reviewerId) ?? []), s]);
  return [...byReviewer.entries()].map(([reviewerId, own]) => {
    const apps = new Set(own.map((s) => s.applicationId));
    const others = scored.filter((s) => s.reviewerId !== reviewerId && apps.has(s.applicationId));
    const ownSpread = spreadOf(own.map((s) => s.total));
    const panel = spreadOf(others.map((s) => s.total));
    return {
      reviewerId,
      own: ownSpread,
      panel,
      difference:
        ownSpread.mean !== null && panel.mean !== null ? ownSpread.mean - panel.mean : null,
      normalisable: ownSpread.count >= MIN_REVIEWS_TO_NORMALISE,
    };
  });
}

/**
 * Maps a reviewer's total onto the whole panel's scale: z = (t − μᵣ)/σᵣ (0 when σᵣ = 0), then
 * μₚ + z·σₚ, kept within the rubric's scale. A reviewer with too few reviews keeps raw totals.
 */
export function normaliser(
  scored: readonly Scored[],
  scale: { min: number; max: number },
): (s: Scored) => number {
  const panel = spreadOf(scored.map((s) => s.total));
  const perReviewer = new Map(calibrate(scored).map((c) => [c.reviewerId, c]));
  return (s) => {
    const c = perReviewer.get(s.reviewerId);
    if (!c?.normalisable || c.own.mean === null || c.own.sd === null) return s.total;
    if (panel.mean === null || panel.sd === null) return s.total;
    const z = c.own.sd > 0 ? (s.total - c.own.mean) / c.own.sd : 0;
    return Math.min(scale.max, Math.max(scale.min, panel.mean + z * panel.sd));
  };
}
