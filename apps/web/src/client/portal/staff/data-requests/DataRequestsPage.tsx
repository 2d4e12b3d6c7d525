import { useState } from "preact/hooks";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, formatDay, t } from "../../i18n/use.ts";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { OFFICE_PAGE, officeApi, queryOf } from "../office/api.ts";
import type { DataRequest } from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { ReasonForm } from "../payments/ReasonForm.tsx";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";

export const REQUEST_STATUSES = ["pending", "completed", "rejected", "cancelled"] as const;

/**
 * Data-rights requests (admins): exports (recorded as made) and erasures, newest first. A
 * waiting erasure (the applicant has an application in progress) is approved, which erases the
 * account now, or rejected with a note the applicant is emailed.
 */
export default function DataRequestsPage() {
  const session = useStaffSession();
  const [status, setStatus] = useState("pending");
  const [offset, setOffset] = useState(0);
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState("");
  const [rejecting, setRejecting] = useState<DataRequest | null>(null);
  const query = queryOf({ status, limit: OFFICE_PAGE, offset });
  const list = useLoad(session, () => officeApi.dataRequests(query), [query, reloads]);
  const approve = useSend<DataRequest>();
  const changed = (message: string) => {
    setNotice(message);
    setRejecting(null);
    setReloads((n) => n + 1);
  };
  return (
    <StaffLayout session={session}>
      <div class="field">
        <label for="requests-status">{t("office.requests.status")}</label>
        <select
          id="requests-status"
          value={status}
          onChange={(e) => {
            setOffset(0);
            setStatus(inputValue(e));
          }}
        >
          <option value="">{t("office.requests.every")}</option>
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`office.requests.status.${s}` as MessageKey)}
            </option>
          ))}
        </select>
      </div>
      {notice && (
        <p role="status" class="notice" data-testid="request-notice">
          {notice}
        </p>
      )}
      {approve.problem && <OfficeProblem problem={approve.problem} />}
      <Loaded
        loading={!list.data}
        failure={list.failure}
        empty={list.data?.count === 0}
        emptyText={t(status === "pending" ? "office.requests.noneWaiting" : "office.requests.none")}
      >
        {list.data && (
          <>
            <div class="table-scroll">
              <table data-testid="data-requests">
                <caption class="visually-hidden">{t("page.staffDataRequests.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("staff.col.applicant")}</th>
                    <th scope="col">{t("office.requests.kind")}</th>
                    <th scope="col">{t("office.requests.status")}</th>
                    <th scope="col">{t("office.requests.asked")}</th>
                    <th scope="col">{t("office.actions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.results.map((r) => (
                    <tr
                      key={r.id}
                      data-testid="data-request"
                      data-kind={r.kind}
                      data-status={r.status}
                    >
                      <th scope="row">
                        {r.user.fullName}
                        <span class="muted block">{r.user.email}</span>
                      </th>
                      <td>{t(`office.requests.kind.${r.kind}` as MessageKey)}</td>
                      <td>
                        {t(`office.requests.status.${r.status}` as MessageKey)}
                        {r.decisionNote && <span class="muted block">{r.decisionNote}</span>}
                        {r.retainUntil && (
                          <span class="muted block">
                            {t("office.requests.retain", { until: formatDay(r.retainUntil) })}
                          </span>
                        )}
                      </td>
                      <td>
                        {formatDate(r.createdAt)}
                        {r.reason && <span class="muted block">{r.reason}</span>}
                      </td>
                      <td class="row-actions">
                        {r.kind === "erasure" && r.status === "pending" && (
                          <>
                            <button
                              type="button"
                              class="danger"
                              disabled={approve.busy}
                              data-testid="request-approve"
                              onClick={async () => {
                                if (await approve.send(() => officeApi.approveErasure(r.id))) {
                                  changed(t("office.requests.approved", { name: r.user.fullName }));
                                }
                              }}
                            >
                              {t("office.requests.approve")}
                              <span class="visually-hidden">
                                {" "}
                                {t("office.requests.approveOne", { name: r.user.fullName })}
                              </span>
                            </button>
                            <button
                              type="button"
                              class="secondary"
                              data-testid="request-reject"
                              onClick={() => setRejecting(r)}
                            >
                              {t("office.requests.reject")}
                              <span class="visually-hidden">
                                {" "}
                                {t("office.requests.rejectOne", { name: r.user.fullName })}
                              </span>
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} count={list.data.count} onGo={setOffset} />
          </>
        )}
      </Loaded>
      {rejecting && (
        <section class="panel" aria-labelledby="reject-title">
          <h2 id="reject-title">
            {t("office.requests.rejectTitle", { name: rejecting.user.fullName })}
          </h2>
          <ReasonForm<DataRequest>
            key={rejecting.id}
            id="request-reject-form"
            label={t("office.requests.note")}
            submitLabel={t("office.requests.reject")}
            run={(note) => officeApi.rejectErasure(rejecting.id, note)}
            onDone={() => changed(t("office.requests.rejected", { name: rejecting.user.fullName }))}
          />
        </section>
      )}
    </StaffLayout>
  );
}
