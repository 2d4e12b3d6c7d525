import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { QUEUE_PAGE, staffApi } from "../api.ts";
import { useLoad } from "../office/ui/useLoad.ts";
import type { StaffSession } from "../ui/session.ts";

/** A reviewer's own assignments awaiting a decision, oldest submission first, paged by the API. */
export function ReviewerQueue({ session }: { session: StaffSession }) {
  const [offset, setOffset] = useState(0);
  const { data, failure } = useLoad(session, () => staffApi.queue(offset), [offset]);
  return (
    <>
      {failure && <ProblemNotice problem={failure.problem} />}
      {data && (
        <>
          <p role="status" data-testid="queue-count">
            {t("staff.queue.count", { count: data.count })}
          </p>
          <div class="table-scroll">
            <table data-testid="staff-queue">
              <caption class="visually-hidden">{t("staff.queue.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("staff.col.applicant")}</th>
                  <th scope="col">{t("staff.col.programme")}</th>
                  <th scope="col">{t("staff.col.submitted")}</th>
                  <th scope="col">{t("staff.col.status")}</th>
                  <th scope="col">{t("staff.col.reviewed")}</th>
                </tr>
              </thead>
              <tbody>
                {data.results.map(({ application: a, reviewed }) => (
                  <tr key={a.id} data-testid="queue-item">
                    <th scope="row">
                      <a href={`/portal/staff/applications/${a.id}`}>{a.applicant.fullName}</a>
                    </th>
                    <td>
                      {a.program.code} · {a.program.name} ({a.intake.term})
                    </td>
                    <td>{a.submittedAt ? formatDate(a.submittedAt) : "—"}</td>
                    <td>{t(`status.${a.status}` as MessageKey)}</td>
                    <td>{t(reviewed ? "staff.yes" : "staff.no")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.count === 0 && <p data-testid="queue-empty">{t("office.queue.noneYours")}</p>}
          <nav aria-label={t("programs.pages")} class="pager">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - QUEUE_PAGE))}
            >
              {t("common.previous")}
            </button>
            <button
              type="button"
              disabled={offset + QUEUE_PAGE >= data.count}
              onClick={() => setOffset(offset + QUEUE_PAGE)}
              data-testid="queue-next"
            >
              {t("common.next")}
            </button>
          </nav>
        </>
      )}
    </>
  );
}
