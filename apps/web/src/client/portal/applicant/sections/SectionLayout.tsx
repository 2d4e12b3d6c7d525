import type { ComponentChildren } from "preact";
import type { Application } from "../../api/types.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { applicationPath } from "../../routes.ts";
import { Layout } from "../../ui/Layout.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import type { ApplicationState } from "../application/useApplication.ts";

/**
 * A section of the application on its own page: the way back to the task list first (GOV.UK's
 * back link), the programme it is for, then the section's form.
 */
export function SectionLayout({
  state,
  children,
  draftOnly = true,
}: {
  state: ApplicationState;
  children: (application: Application) => ComponentChildren;
  /** The section changes only while the application is a draft (all but the referees). */
  draftOnly?: boolean;
}) {
  const { session, id, application, failure } = state;
  return (
    <Layout session={session}>
      <p>
        <a class="back-link" href={applicationPath(id)} data-testid="section-back">
          {t("section.back")}
        </a>
      </p>
      {failure && <ProblemNotice problem={failure.problem} testId="application-problem" />}
      {application && (
        <>
          <p class="caption">
            {application.program.name} · {application.intake.term}
          </p>
          {draftOnly && application.status !== "draft" && application.submittedAt ? (
            <p data-testid="section-closed">
              {t("check.sent", { when: formatDate(application.submittedAt) })}
            </p>
          ) : (
            children(application)
          )}
        </>
      )}
    </Layout>
  );
}

/** The section's last step: back to the task list, once what it holds is saved. */
export function SaveAndReturn({
  id,
  save,
  busy = false,
}: {
  id: string;
  save: () => Promise<boolean>;
  busy?: boolean;
}) {
  return (
    <p>
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          if (await save()) location.assign(applicationPath(id));
        }}
        data-testid="save-and-return"
      >
        {t("section.saveAndReturn")}
      </button>
    </p>
  );
}

/** The last step of a section with nothing to save (what it holds is sent as it is done). */
export function ReturnToApplication({ id }: { id: string }) {
  return (
    <p>
      <a class="button" href={applicationPath(id)} data-testid="section-return">
        {t("section.return")}
      </a>
    </p>
  );
}
