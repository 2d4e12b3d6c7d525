import { account } from "../../api/account.ts";
import { admissions } from "../../api/admissions.ts";
import type { Application } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDay, t } from "../../i18n/use.ts";
import { applicationPath } from "../../routes.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { SECTION_PATH, SECTIONS, taskStates } from "./tasks.ts";
import { useLoaded } from "./useApplication.ts";

/**
 * A draft as GOV.UK's task list: each section a link to its own page, with its state; then
 * "check your answers". What counts as each state: tasks.ts.
 */
export function TaskList({ application }: { application: Application }) {
  const id = application.id;
  const profile = useLoaded(true, account.profile);
  const checklist = useLoaded(true, () => admissions.checklist(id));
  const fee = useLoaded(true, () => admissions.fee(id));
  const referees = useLoaded(true, () => admissions.referees(id));
  const failure = profile.failure ?? checklist.failure ?? fee.failure ?? referees.failure;
  const loaded = profile.data && checklist.data && fee.data && referees.data;
  const states = taskStates({
    application,
    profile: profile.data,
    checklist: checklist.data,
    fee: fee.data,
    referees: referees.data,
  });
  const done = SECTIONS.filter((s) => states[s] === "completed").length;
  const late = Date.parse(application.intake.deadline) <= Date.now();
  const deadline = formatDay(application.intake.deadline);
  return (
    <>
      <p class={late ? "problem" : "deadline"} data-testid="application-deadline">
        {late ? t("tasks.deadlinePassed", { deadline }) : t("tasks.applyBy", { deadline })}
      </p>
      {failure && <ProblemNotice problem={failure.problem} />}
      {!loaded && !failure && <p aria-busy="true">{t("common.loading")}</p>}
      {loaded && (
        <>
          <p>{t("tasks.progress", { done, total: SECTIONS.length })}</p>
          <ul class="task-list" aria-label={t("tasks.listLabel")} data-testid="task-list">
            {SECTIONS.map((section) => (
              <li key={section} class="task" data-testid="task-item" data-status={states[section]}>
                <a
                  href={applicationPath(id, SECTION_PATH[section])}
                  aria-describedby={`task-${section}-state`}
                  data-testid={`task-${section}`}
                >
                  {t(`section.${section}` as MessageKey)}
                </a>
                <strong id={`task-${section}-state`} class={`tag task-${states[section]}`}>
                  {t(`taskState.${states[section]}` as MessageKey)}
                </strong>
              </li>
            ))}
          </ul>
          <p class="hint">{t("tasks.checkHint")}</p>
          <p>
            <a class="button" href={applicationPath(id, "check")} data-testid="check-link">
              {t("tasks.check")}
            </a>
          </p>
        </>
      )}
    </>
  );
}
