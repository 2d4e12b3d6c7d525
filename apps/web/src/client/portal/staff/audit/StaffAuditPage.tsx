import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { staffApi } from "../api.ts";
import type { AuditEntry } from "../types.ts";
import { PagedTable } from "../ui/PagedTable.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { usePaged } from "../ui/usePaged.ts";

/** The audit log (admins), newest first, a page at a time. */
export default function StaffAuditPage() {
  const session = useStaffSession();
  const paged = usePaged<AuditEntry>(session, staffApi.audit);
  return (
    <StaffLayout session={session}>
      {paged.failure && <ProblemNotice problem={paged.failure.problem} />}
      <PagedTable
        {...paged}
        testId="audit-log"
        caption="page.staffAudit.title"
        columns={[
          "staff.audit.at",
          "staff.audit.action",
          "staff.audit.actor",
          "staff.audit.application",
        ]}
        row={(entry) => (
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
        )}
      />
    </StaffLayout>
  );
}
