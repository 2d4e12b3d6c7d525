import type {
  Calibration,
  ExtraReview,
  Program,
  ProgramDetail,
  Ranking,
} from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../api/client.ts";
import { t } from "../../i18n/use.ts";
import { inputValue } from "../../ui/useForm.ts";
import { formatScore } from "../ui/format.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { useStaffSession } from "../ui/session.ts";
import { calibrationApi, calibrationHref } from "./api.ts";
import { CalibrationTable } from "./CalibrationTable.tsx";
import { meanAndSpread } from "./format.ts";

type Read = { calibration: Calibration; ranking: Ranking; flagged: ExtraReview[] };

/**
 * How a programme's reviewers score against each other (admins): each reviewer's mean and
 * spread beside the panel's on the same applications, the applications ranked raw or
 * normalised for reviewers' habits, and the extra reviews nobody was free for. The programme
 * and intake are in the address, so an application's page links straight here.
 */
export default function CalibrationPage() {
  const session = useStaffSession();
  const params = new URLSearchParams(location.search);
  const [programId, setProgramId] = useState(params.get("programId") ?? "");
  const [intakeId, setIntakeId] = useState(params.get("intakeId") ?? "");
  const [normalised, setNormalised] = useState(false);
  const [programmes, setProgrammes] = useState<Program[] | null>(null);
  const [detail, setDetail] = useState<ProgramDetail | null>(null);
  const [read, setRead] = useState<Read | null>(null);
  const [refused, setRefused] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);
  const signedIn = session.status === "signed-in";
  useEffect(() => {
    if (signedIn) calibrationApi.programmes().then((a) => a.ok && setProgrammes(a.data.results));
  }, [signedIn]);
  useEffect(() => {
    if (!signedIn || !programId) return;
    // Only the answers to the latest choice are shown (an earlier one can come last).
    let current = true;
    history.replaceState(null, "", calibrationHref(programId, intakeId || undefined));
    calibrationApi.programme(programId).then((a) => current && setDetail(a.ok ? a.data : null));
    // What was read stays in view while the next is read (the ranking toggled, say).
    setLoading(true);
    setRefused(null);
    const intake = intakeId || undefined;
    Promise.all([
      calibrationApi.calibration(programId, intake),
      calibrationApi.ranking(programId, intake, normalised),
      calibrationApi.flagged(programId),
    ]).then(([calibration, ranking, flagged]) => {
      if (!current) return;
      setLoading(false);
      const failed = [calibration, ranking, flagged].find((a) => !a.ok);
      if (failed && !failed.ok) {
        setRead(null);
        return setRefused(failed);
      }
      if (calibration.ok && ranking.ok && flagged.ok) {
        setRead({
          calibration: calibration.data,
          ranking: ranking.data,
          flagged: flagged.data.items,
        });
      }
    });
    return () => {
      current = false;
    };
  }, [signedIn, programId, intakeId, normalised]);
  return (
    <StaffLayout session={session}>
      <form class="search" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="calibration-programme">{t("decide.calibration.programme")}</label>
          <select
            id="calibration-programme"
            value={programId}
            onChange={(e) => {
              setProgramId(inputValue(e));
              setIntakeId("");
            }}
            data-testid="calibration-programme"
          >
            <option value="">{t("decide.calibration.choose")}</option>
            {programmes?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.code} · {p.name}
              </option>
            ))}
          </select>
        </div>
        {detail && (
          <div class="field">
            <label for="calibration-intake">{t("decide.calibration.intake")}</label>
            <select
              id="calibration-intake"
              value={intakeId}
              onChange={(e) => setIntakeId(inputValue(e))}
            >
              <option value="">{t("decide.calibration.allIntakes")}</option>
              {detail.intakes.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.term}
                </option>
              ))}
            </select>
          </div>
        )}
      </form>
      {!programId && <p>{t("decide.calibration.pick")}</p>}
      {refused && <StaffProblem problem={refused.problem} />}
      {programId && loading && !read && <p aria-busy="true">{t("common.loading")}</p>}
      {read && (
        <>
          <section class="panel" aria-labelledby="calibration-reviewers">
            <h2 id="calibration-reviewers">{t("decide.calibration.reviewers")}</h2>
            <p data-testid="calibration-panel">
              {t("decide.calibration.whole", {
                value: meanAndSpread(read.calibration.panel.mean, read.calibration.panel.sd),
                count: read.calibration.panel.count,
                min: read.calibration.scale.min,
                max: read.calibration.scale.max,
              })}
            </p>
            {read.calibration.reviewers.length === 0 ? (
              <p>{t("decide.calibration.noReviews")}</p>
            ) : (
              <CalibrationTable rows={read.calibration.reviewers} />
            )}
          </section>
          <section class="panel" aria-labelledby="calibration-ranking">
            <h2 id="calibration-ranking">{t("decide.ranking.title")}</h2>
            <label class="choice">
              <input
                type="checkbox"
                checked={normalised}
                onChange={(e) => setNormalised((e.currentTarget as HTMLInputElement).checked)}
                data-testid="ranking-normalised"
              />{" "}
              {t("decide.ranking.normalise")}
            </label>
            <p class="hint">{t("decide.ranking.hint")}</p>
            {read.ranking.items.length === 0 ? (
              <p>{t("decide.calibration.noReviews")}</p>
            ) : (
              <ol
                class="ranking"
                aria-busy={loading}
                data-testid="calibration-ranking"
                data-normalised={String(read.ranking.normalised)}
              >
                {read.ranking.items.map((item) => (
                  <li key={item.applicationId}>
                    <a href={`/portal/staff/applications/${item.applicationId}`}>
                      {item.applicant.fullName}
                    </a>{" "}
                    —{" "}
                    {t(
                      read.ranking.normalised
                        ? "decide.ranking.normalisedScore"
                        : "decide.ranking.rawScore",
                      {
                        score: formatScore(item.score),
                        raw: formatScore(item.rawScore),
                        count: item.reviews,
                      },
                    )}
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section class="panel" aria-labelledby="calibration-flagged">
            <h2 id="calibration-flagged">{t("decide.flagged.title")}</h2>
            {read.flagged.length === 0 ? (
              <p>{t("decide.flagged.none")}</p>
            ) : (
              <ul data-testid="calibration-flagged">
                {read.flagged.map((x) => (
                  <li key={x.applicationId}>
                    <a href={`/portal/staff/applications/${x.applicationId}`}>
                      {t("decide.flagged.item", {
                        low: formatScore(x.lowTotal),
                        high: formatScore(x.highTotal),
                        threshold: formatScore(x.threshold),
                      })}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </StaffLayout>
  );
}
