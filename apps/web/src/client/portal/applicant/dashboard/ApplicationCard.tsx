import type { Application, Condition, Interview } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, formatDay, t } from "../../i18n/use.ts";
import { applicationPath } from "../../routes.ts";
import { liveInterview, nextStep } from "../application/next-step.ts";

/** One application on the dashboard: programme, status, the next step and its deadline. */
export function ApplicationCard({
  application: a,
  interviews,
  conditions,
}: {
  application: Application;
  interviews: Interview[];
  conditions: Condition[];
}) {
  const step = nextStep(a, liveInterview(interviews), conditions);
  return (
    <li class="card" data-testid="dashboard-application" data-status={a.status}>
      <h2>
        <a href={applicationPath(a.id)}>
          {a.program.name} · {a.intake.term}
        </a>
      </h2>
      <p>
        <strong class={`tag status-${a.status}`}>{t(`status.${a.status}` as MessageKey)}</strong>
      </p>
      <p class={step.urgent ? "next-step urgent" : "next-step"} data-testid="next-step">
        <strong>{t("dashboard.next")}</strong> {step.text}
      </p>
      {step.deadline && (
        <p data-testid="dashboard-deadline">
          <strong>{t("dashboard.deadline")}</strong>{" "}
          <time dateTime={step.deadline}>{formatDay(step.deadline)}</time>
        </p>
      )}
      <p class="muted">{t("dashboard.updated", { when: formatDate(a.updatedAt) })}</p>
    </li>
  );
}
