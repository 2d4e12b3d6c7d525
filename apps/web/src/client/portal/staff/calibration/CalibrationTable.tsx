import type { Calibration } from "@platform/admissions/models";
import { t } from "../../i18n/use.ts";
import { ScrollTable } from "../ui/ScrollTable.tsx";
import { differenceText, meanAndSpread } from "./format.ts";

/**
 * Reviewers against the panel, a row each: how many reviews, their mean and spread, the other
 * reviewers' on the same applications, and the difference in words. On the calibration page
 * every reviewer of the programme, the count a column of its own; on an application's page,
 * its own reviewers in the narrow review column, so the count goes beside the mean (`compact`)
 * and the difference stays in view without scrolling sideways.
 */
export function CalibrationTable({
  rows,
  compact = false,
}: {
  rows: Calibration["reviewers"];
  compact?: boolean;
}) {
  return (
    <ScrollTable label={t("decide.calibration.title")}>
      <table data-testid="calibration-table">
        <caption class="visually-hidden">{t("decide.calibration.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("decide.calibration.reviewer")}</th>
            {!compact && <th scope="col">{t("decide.calibration.count")}</th>}
            <th scope="col">{t("decide.calibration.theirs")}</th>
            <th scope="col">{t("decide.calibration.others")}</th>
            <th scope="col">{t("decide.calibration.difference")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.reviewer.id} data-testid="calibration-row">
              <th scope="row">{r.reviewer.fullName}</th>
              {!compact && <td>{r.count}</td>}
              <td>
                {meanAndSpread(r.mean, r.sd)}
                {compact && ` · ${t("decide.calibration.reviews", { count: r.count })}`}
              </td>
              <td>{meanAndSpread(r.panel.mean, r.panel.sd)}</td>
              <td>{differenceText(r.difference)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}
