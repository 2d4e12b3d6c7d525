import { useEffect, useState } from "preact/hooks";
import type { ApiAnswer, ApiError } from "../../api/client.ts";
import type { Application } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { QUEUE_PAGE, staffApi } from "../api.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { BulkActions } from "./BulkActions.tsx";
import { QueueSearch } from "./QueueSearch.tsx";

type Row = { application: Application; reviewed?: boolean };
type Rows = { count: number; rows: Row[] };

/** An admin's rows are the applications awaiting a decision; a reviewer's, their own queue. */
async function loadRows(
  isAdmin: boolean,
  offset: number,
  search: string,
): Promise<ApiAnswer<Rows>> {
  if (isAdmin) {
    const answer = await staffApi.awaiting(offset, search);
    if (!answer.ok) return answer;
    const rows = answer.data.results.map((application) => ({ application }));
    return { ...answer, data: { count: answer.data.count, rows } };
  }
  const answer = await staffApi.queue(offset);
  if (!answer.ok) return answer;
  return { ...answer, data: { count: answer.data.count, rows: answer.data.results } };
}

/**
 * The review queue. A reviewer sees their own assignments (the API's queue); an admin sees every
 * application awaiting a decision, and can search them. Paged and filtered by the API
 * (limit/offset, search), oldest submission first: 10,000 waiting cost one page of rows here.
 */
export default function StaffQueuePage() {
  const session = useStaffSession();
  const [offset, setOffset] = useState(0);
  const [search, setSearch] = useState("");
  const [rows, setRows] = useState<Rows | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [reloads, setReloads] = useState(0);
  const tick = (id: string, on: boolean) =>
    setSelected((now) => (on ? [...now, id] : now.filter((x) => x !== id)));
  const isAdmin = session.status === "signed-in" && session.user.role === "admin";
  useEffect(() => {
    if (session.status !== "signed-in") return;
    loadRows(isAdmin, offset, search).then((answer) =>
      answer.ok ? setRows(answer.data) : setFailure(answer),
    );
  }, [session.status, offset, search, reloads]);
  return (
    <StaffLayout session={session}>
      <h2>{t(isAdmin ? "staff.queue.admin" : "staff.queue.reviewer")}</h2>
      {isAdmin && (
        <QueueSearch
          onSearch={(words) => {
            setOffset(0);
            setSearch(words);
          }}
        />
      )}
      {failure && <ProblemNotice problem={failure.problem} />}
      {rows && (
        <>
          <p role="status" data-testid="queue-count">
            {t("staff.queue.count", { count: rows.count })}
          </p>
          <div class="table-scroll">
            <table data-testid="staff-queue">
              <caption class="visually-hidden">{t("staff.queue.caption")}</caption>
              <thead>
                <tr>
                  {isAdmin && <th scope="col">{t("staff.bulk.select")}</th>}
                  <th scope="col">{t("staff.col.applicant")}</th>
                  <th scope="col">{t("staff.col.programme")}</th>
                  <th scope="col">{t("staff.col.submitted")}</th>
                  <th scope="col">{t("staff.col.status")}</th>
                  {!isAdmin && <th scope="col">{t("staff.col.reviewed")}</th>}
                </tr>
              </thead>
              <tbody>
                {rows.rows.map(({ application: a, reviewed }) => (
                  <tr key={a.id} data-testid="queue-item">
                    {isAdmin && (
                      <td>
                        <input
                          type="checkbox"
                          checked={selected.includes(a.id)}
                          onChange={(e) =>
                            tick(a.id, (e.currentTarget as HTMLInputElement).checked)
                          }
                          aria-label={t("staff.bulk.selectOne", { name: a.applicant.fullName })}
                          data-testid="queue-select"
                        />
                      </td>
                    )}
                    <th scope="row">
                      <a href={`/portal/staff/applications/${a.id}`}>{a.applicant.fullName}</a>
                    </th>
                    <td>
                      {a.program.code} · {a.program.name} ({a.intake.term})
                    </td>
                    <td>{a.submittedAt ? formatDate(a.submittedAt) : "—"}</td>
                    <td>{t(`status.${a.status}` as MessageKey)}</td>
                    {!isAdmin && <td>{t(reviewed ? "staff.yes" : "staff.no")}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
              disabled={offset + QUEUE_PAGE >= rows.count}
              onClick={() => setOffset(offset + QUEUE_PAGE)}
              data-testid="queue-next"
            >
              {t("common.next")}
            </button>
          </nav>
          {isAdmin && (
            <BulkActions
              selected={selected}
              onMoved={() => {
                setSelected([]);
                setReloads((n) => n + 1);
              }}
            />
          )}
        </>
      )}
    </StaffLayout>
  );
}
