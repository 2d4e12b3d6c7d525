import { t } from "../../i18n/use.ts";
import { formatDifference, formatScore } from "../ui/format.ts";

/** "3.9 (± 0.4)": a mean and its spread, or a dash without reviews. */
export const meanAndSpread = (mean: number | null, sd: number | null) =>
  mean === null
    ? "—"
    : t("decide.calibration.meanSd", { mean: formatScore(mean), sd: formatScore(sd ?? 0) });

/** Above 0: more generous than the colleagues who read the same applications. */
export function differenceText(difference: number | null): string {
  if (difference === null) return t("decide.calibration.alone");
  if (difference === 0) return t("decide.calibration.same");
  return t(difference > 0 ? "decide.calibration.generous" : "decide.calibration.strict", {
    difference: formatDifference(difference),
  });
}
