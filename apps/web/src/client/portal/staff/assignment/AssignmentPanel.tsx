import { useState } from "preact/hooks";
import type { Application } from "../../api/types.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import { officeApi } from "../office/api.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import type { StaffSession } from "../ui/session.ts";
import { ConflictForm } from "./ConflictForm.tsx";
import { ReviewerSelect, ROUND_ROBIN } from "./ReviewerSelect.tsx";

/** Applications take reviewers while submitted or under review (the API: ASSIGNMENT_CLOSED). */
const ASSIGNABLE = new Set(["submitted", "under_review"]);

/** After a change the page is read again whole (its status may have moved); this says why. */
const NOTICE = "assignment";
const reread = (message: string) =>
  location.assign(`${location.pathname}?${NOTICE}=${encodeURIComponent(message)}`);

/**
 * Who reviews this application (on its page): the reviewers assigned, each unassigned with a
 * press; one more chosen by workload or round-robin (admins); conflicts declared, and the
 * signed-in staff member's own declaration. A conflicted reviewer is never offered.
 */
export function AssignmentPanel({
  session,
  application,
}: {
  session: StaffSession;
  application: Application;
}) {
  const isAdmin = session.status === "signed-in" && session.user.role === "admin";
  const notice = new URLSearchParams(location.search).get(NOTICE);
  const reviews = useLoad(session, () => staffApi.reviews(application.id));
  const workload = useLoad(session, () =>
    isAdmin
      ? officeApi.workload(application.program.id)
      : Promise.resolve({ ok: true as const, status: 200, etag: null, data: { results: [] } }),
  );
  const [reviewer, setReviewer] = useState(ROUND_ROBIN);
  const change = useSend<unknown>();
  const assigned = reviews.data?.assignments ?? [];
  const conflicts = reviews.data?.conflicts ?? [];
  const barred = [
    ...conflicts.map((c) => ({ id: c.reviewer.id, why: t("office.assign.whyConflict") })),
    ...assigned.map((a) => ({ id: a.reviewer.id, why: t("office.assign.whyAssigned") })),
  ];
  const assign = async (event: Event) => {
    event.preventDefault();
    const done = await change.send(() => officeApi.assign(application.id, reviewer || undefined));
    if (done) reread(t("office.assign.done"));
  };
  const unassign = async (id: string, name: string) => {
    const done = await change.send(() => officeApi.unassign(application.id, id));
    if (done) reread(t("office.assign.removed", { name }));
  };
  const me = session.status === "signed-in" ? session.user.id : "";
  if (reviews.failure?.problem.code === "CONFLICT_OF_INTEREST") {
    return (
      <section aria-labelledby="assignment-title" data-testid="assignment-panel">
        <h2 id="assignment-title">{t("office.assign.title")}</h2>
        {notice && (
          <p role="status" class="notice" data-testid="assignment-notice">
            {notice}
          </p>
        )}
        <p data-testid="own-conflict">{t("office.conflict.yours")}</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="assignment-title" data-testid="assignment-panel">
      <h2 id="assignment-title">{t("office.assign.title")}</h2>
      {notice && (
        <p role="status" class="notice" data-testid="assignment-notice">
          {notice}
        </p>
      )}
      {change.problem && <OfficeProblem problem={change.problem} testId="assign-problem" />}
      <Loaded loading={!reviews.data && !reviews.failure} failure={null}>
        {assigned.length === 0 ? (
          <p data-testid="assignees-none">{t("office.assign.none")}</p>
        ) : (
          <ul class="plain" data-testid="assignees">
            {assigned.map((a) => (
              <li key={a.reviewer.id} data-testid="assignee">
                {t(a.reviewed ? "office.assign.reviewedBy" : "office.assign.waitingFor", {
                  name: a.reviewer.fullName,
                  when: formatDate(a.assignedAt),
                })}{" "}
                {isAdmin && (
                  <button
                    type="button"
                    class="link-button"
                    disabled={change.busy}
                    onClick={() => unassign(a.reviewer.id, a.reviewer.fullName)}
                    data-testid="unassign"
                  >
                    {t("office.assign.unassign")}
                    <span class="visually-hidden"> {a.reviewer.fullName}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {conflicts.length > 0 && (
          <ul class="plain" data-testid="conflicts">
            {conflicts.map((c) => (
              <li key={c.reviewer.id}>
                {t("office.assign.conflict", { name: c.reviewer.fullName, reason: c.reason })}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
      {isAdmin && ASSIGNABLE.has(application.status) && workload.data && (
        <form class="form" onSubmit={assign} noValidate>
          <ReviewerSelect
            id="assign-reviewer"
            workload={workload.data.results}
            value={reviewer}
            onValue={setReviewer}
            barred={barred}
          />
          <button type="submit" disabled={change.busy} data-testid="assign-save">
            {t("office.assign.save")}
          </button>
        </form>
      )}
      {isAdmin && !ASSIGNABLE.has(application.status) && (
        <p class="muted">{t("office.assign.closed")}</p>
      )}
      {!conflicts.some((c) => c.reviewer.id === me) && (
        <ConflictForm
          applicationId={application.id}
          onDeclared={() => reread(t("office.conflict.done"))}
        />
      )}
    </section>
  );
}
