import type { Calibration } from "@platform/admissions/models";
import { t } from "../../i18n/use.ts";
import { ScrollTable } from "../ui/ScrollTable.tsx";
import { differenceText, meanAndSpread } from "./format.ts";

/**
 * Reviewers against the panel, a row each: how many reviews, their mean and spread, the other
 * reviewers' on the same applications, and the difference in words. On the calibration page
 * every reviewer of the programme; on an application's page, its own reviewers.
 */
export function CalibrationTable({ rows }: { rows: Calibration["reviewers"] }) {
  return (
    <ScrollTable label={t("decide.calibration.title")}>
      <table data-testid="calibration-table">
        <caption class="visually-hidden">{t("decide.calibration.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("decide.calibration.reviewer")}</th>
            <th scope="col">{t("decide.calibration.count")}</th>
            <th scope="col">{t("decide.calibration.theirs")}</th>
            <th scope="col">{t("decide.calibration.others")}</th>
            <th scope="col">{t("decide.calibration.difference")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.reviewer.id} data-testid="calibration-row">
              <th scope="row">{r.reviewer.fullName}</th>
              <td>{r.count}</td>
              <td>{meanAndSpread(r.mean, r.sd)}</td>
              <td>{meanAndSpread(r.panel.mean, r.panel.sd)}</td>
              <td>{differenceText(r.difference)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}
