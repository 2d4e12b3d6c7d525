import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { staffApi } from "../api.ts";
import type { AuditEntry } from "../types.ts";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { usePaged } from "../ui/usePaged.ts";

/** The audit log (admins), newest first, a page at a time. */
export default function StaffAuditPage() {
  const session = useStaffSession();
  const { offset, setOffset, page, failure } = usePaged<AuditEntry>(session, staffApi.audit);
  return (
    <StaffLayout session={session}>
      {failure && <ProblemNotice problem={failure.problem} />}
      {page && (
        <>
          <p role="status">{t("staff.list.count", { count: page.count })}</p>
          <div class="table-scroll">
            <table data-testid="audit-log">
              <caption class="visually-hidden">{t("page.staffAudit.title")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("staff.audit.at")}</th>
                  <th scope="col">{t("staff.audit.action")}</th>
                  <th scope="col">{t("staff.audit.actor")}</th>
                  <th scope="col">{t("staff.audit.application")}</th>
                </tr>
              </thead>
              <tbody>
                {page.results.map((entry) => (
                  <tr key={entry.id} data-testid="audit-entry">
                    <td>{formatDate(entry.at)}</td>
                    <td>
                      <code>{entry.action}</code>
                    </td>
                    <td>{entry.actor.email ?? entry.actor.role}</td>
                    <td>
                      {entry.applicationId ? (
                        <a href={`/portal/staff/applications/${entry.applicationId}`}>
                          {t("staff.audit.open")}
                        </a>
                      ) : (
                        "—"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} count={page.count} onGo={setOffset} />
        </>
      )}
    </StaffLayout>
  );
}
