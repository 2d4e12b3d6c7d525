import type { Application } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { t } from "../../i18n/use.ts";

/** The programme and intake the page is about, and where the application stands. */
export function ApplicationTitle({ application }: { application: Application }) {
  return (
    <div class="application-title">
      <h2>
        {application.program.name} · {application.intake.term}
      </h2>
      <p>
        {t("application.status")}{" "}
        <strong
          class={`tag status-${application.status}`}
          data-testid="application-status"
          data-status={application.status}
        >
          {t(`status.${application.status}` as MessageKey)}
        </strong>
      </p>
    </div>
  );
}
