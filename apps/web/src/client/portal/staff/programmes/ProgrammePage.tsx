import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { pathId } from "../../routes.ts";
import { useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import { OFFICE_ROUTES } from "../office/routes.ts";
import type { Program } from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { IntakesSection } from "./IntakesSection.tsx";
import { ProgrammeForm } from "./ProgrammeForm.tsx";
import { ReviewerPoolForm } from "./ReviewerPoolForm.tsx";
import { ReviewSettingsForm } from "./ReviewSettingsForm.tsx";
import { RubricForm } from "./RubricForm.tsx";

/**
 * One programme's settings (admins): its details and required documents, open or closed, its
 * intakes, the rubric and weights, blind review, and who reviews it. Each part saves on its own.
 */
export default function ProgrammePage() {
  const session = useStaffSession();
  const id = pathId();
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState(
    new URLSearchParams(location.search).has("created") ? t("office.programme.created") : "",
  );
  const programme = useLoad(session, () => officeApi.programme(id), [reloads]);
  const rubric = useLoad(session, () => officeApi.rubric(id));
  const settings = useLoad(session, () => officeApi.reviewSettings(id));
  const pool = useLoad(session, () => officeApi.pool(id));
  const staff = useLoad(session, () => officeApi.staff());
  const toggle = useSend<Program>();
  const changed = (message: string) => {
    setNotice(message);
    setReloads((n) => n + 1);
  };
  const p = programme.data;
  const setActive = async (active: boolean) => {
    const done = await toggle.send(() => officeApi.updateProgramme(id, { active }));
    if (done) changed(t(active ? "office.programme.reopened" : "office.programme.closedNow"));
  };
  return (
    <StaffLayout session={session}>
      <p>
        <a href={OFFICE_ROUTES.staffProgrammes}>{t("office.programmes.back")}</a>
      </p>
      {notice && (
        <p role="status" class="notice" data-testid="programme-notice">
          {notice}
        </p>
      )}
      <Loaded loading={!p} failure={programme.failure}>
        {p && (
          <>
            <h2 data-testid="programme-title">
              {p.code} · {p.name}
            </h2>
            <section aria-labelledby="programme-state-title" class="panel">
              <h2 id="programme-state-title">{t("office.programme.stateTitle")}</h2>
              <p data-testid="programme-state" data-active={p.active}>
                {t(p.active ? "office.programme.openText" : "office.programme.closedText")}
              </p>
              {toggle.problem && <OfficeProblem problem={toggle.problem} />}
              <button
                type="button"
                class={p.active ? "danger" : ""}
                disabled={toggle.busy}
                onClick={() => setActive(!p.active)}
                data-testid="programme-toggle"
              >
                {t(p.active ? "office.programme.close" : "office.programme.reopen")}
              </button>
            </section>
            <IntakesSection programmeId={id} intakes={p.intakes} onChanged={changed} />
            <section aria-labelledby="programme-details-title">
              <h2 id="programme-details-title">{t("office.programme.details")}</h2>
              <ProgrammeForm
                key={p.updatedAt}
                programme={p}
                onSaved={() => changed(t("office.programme.saved"))}
              />
            </section>
          </>
        )}
      </Loaded>
      <section aria-labelledby="rubric-title">
        <h2 id="rubric-title">{t("office.rubric.title")}</h2>
        {rubric.loading ? (
          <p aria-busy="true">{t("common.loading")}</p>
        ) : (
          <RubricForm programmeId={id} rubric={rubric.data} />
        )}
      </section>
      <section aria-labelledby="settings-title">
        <h2 id="settings-title">{t("office.settings.title")}</h2>
        <Loaded loading={!settings.data} failure={settings.failure}>
          {settings.data && <ReviewSettingsForm settings={settings.data} />}
        </Loaded>
      </section>
      <section aria-labelledby="pool-title">
        <h2 id="pool-title">{t("office.pool.title")}</h2>
        <Loaded loading={!pool.data || !staff.data} failure={pool.failure ?? staff.failure}>
          {pool.data && staff.data && (
            <ReviewerPoolForm
              programmeId={id}
              staff={staff.data.results.filter((u) => u.role !== "applicant")}
              pool={pool.data.map((m) => m.reviewer.id)}
            />
          )}
        </Loaded>
      </section>
      <section aria-labelledby="reasons-title">
        <h2 id="reasons-title">{t("office.reasons.title")}</h2>
        <p>
          {t("office.reasons.programmeHint")}{" "}
          <a href={OFFICE_ROUTES.staffReasons}>{t("office.programmes.reasons")}</a>
        </p>
      </section>
    </StaffLayout>
  );
}
