import { account } from "../../api/account.ts";
import type { DataRequest } from "../../api/types.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";

/** My data requests, newest first; a waiting erasure can be cancelled. */
export function DataRequests({
  requests,
  onChange,
}: {
  requests: DataRequest[];
  onChange: () => void;
}) {
  const { busy, problem, send } = useSend<DataRequest>();
  const cancel = async (id: string) => {
    if (await send(() => account.cancelRequest(id))) onChange();
  };
  return (
    <section aria-labelledby="requests-heading">
      <h2 id="requests-heading">{t("data.requests")}</h2>
      {problem && <ProblemNotice problem={problem} />}
      {requests.length === 0 ? (
        <p>{t("data.noRequests")}</p>
      ) : (
        <table data-testid="data-requests">
          <caption>{t("data.requestsCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("data.kind")}</th>
              <th scope="col">{t("data.requested")}</th>
              <th scope="col">{t("data.status")}</th>
              <th scope="col">{t("account.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r) => (
              <tr key={r.id} data-testid="data-request" data-status={r.status} data-kind={r.kind}>
                <td>{t(`data.kind.${r.kind}`)}</td>
                <td>{formatDate(r.createdAt)}</td>
                <td>
                  {t(`data.status.${r.status}`)}
                  {r.decisionNote && <p>{r.decisionNote}</p>}
                </td>
                <td>
                  {r.kind === "erasure" && r.status === "pending" && (
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy}
                      onClick={() => cancel(r.id)}
                      data-testid="cancel-request"
                    >
                      {t("data.cancel")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
