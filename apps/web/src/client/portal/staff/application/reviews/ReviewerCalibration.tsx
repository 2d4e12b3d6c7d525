import type { Calibration } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../../api/client.ts";
import { t } from "../../../i18n/use.ts";
import { calibrationApi, calibrationHref } from "../../calibration/api.ts";
import { CalibrationTable } from "../../calibration/CalibrationTable.tsx";
import { meanAndSpread } from "../../calibration/format.ts";
import { StaffProblem } from "../../ui/StaffProblem.tsx";
import type { ApplicationView } from "../view.ts";

/**
 * Each reviewer of this application against the panel (admins): their mean weighted total and
 * spread over the intake, the other reviewers' on the same applications, and the difference,
 * so a 4 from a generous reviewer reads as what it is. The whole table is the calibration page.
 */
export function ReviewerCalibration({ view }: { view: ApplicationView }) {
  const { application, reviews } = view;
  const [calibration, setCalibration] = useState<Calibration | null>(null);
  const [refused, setRefused] = useState<ApiError | null>(null);
  const reviewerIds = new Set(reviews?.reviews.map((r) => r.reviewer.id) ?? []);
  useEffect(() => {
    if (!view.isAdmin || reviewerIds.size === 0) return;
    calibrationApi
      .calibration(application.program.id, application.intake.id)
      .then((a) => (a.ok ? setCalibration(a.data) : setRefused(a)));
  }, [reviews]);
  if (!view.isAdmin || reviewerIds.size === 0) return null;
  const rows = calibration?.reviewers.filter((r) => reviewerIds.has(r.reviewer.id)) ?? [];
  return (
    <div class="calibration" data-testid="reviewer-calibration">
      <h3>{t("decide.calibration.title")}</h3>
      {refused && <StaffProblem problem={refused.problem} />}
      {!calibration && !refused && <p aria-busy="true">{t("common.loading")}</p>}
      {calibration && (
        <>
          <p>
            {t("decide.calibration.panel", {
              term: application.intake.term,
              value: meanAndSpread(calibration.panel.mean, calibration.panel.sd),
              count: calibration.panel.count,
            })}
          </p>
          <CalibrationTable rows={rows} compact />
        </>
      )}
      <p>
        <a href={calibrationHref(application.program.id, application.intake.id)}>
          {t("decide.calibration.all", { code: application.program.code })}
        </a>
      </p>
    </div>
  );
}
