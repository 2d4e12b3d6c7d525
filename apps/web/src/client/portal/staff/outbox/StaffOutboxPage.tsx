import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { staffApi } from "../api.ts";
import type { OutboxEmail } from "../types.ts";
import { PagedTable } from "../ui/PagedTable.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { usePaged } from "../ui/usePaged.ts";

/** The outbox (admins): every email to applicants, whether it went, and why not. */
export default function StaffOutboxPage() {
  const session = useStaffSession();
  const paged = usePaged<OutboxEmail>(session, staffApi.outbox);
  return (
    <StaffLayout session={session}>
      {paged.failure && <ProblemNotice problem={paged.failure.problem} />}
      <PagedTable
        {...paged}
        testId="outbox"
        caption="page.staffOutbox.title"
        columns={[
          "staff.outbox.created",
          "staff.outbox.to",
          "staff.outbox.subject",
          "staff.outbox.status",
          "staff.outbox.attempts",
        ]}
        row={(email) => (
          <tr key={email.id} data-testid="outbox-email" data-status={email.status}>
            <td>{formatDate(email.createdAt)}</td>
            <td>{email.to}</td>
            <td>{email.subject}</td>
            <td>
              {t(`staff.outbox.${email.status}` as MessageKey)}
              {email.lastError && ` — ${email.lastError}`}
            </td>
            <td>{email.attempts}</td>
          </tr>
        )}
      />
    </StaffLayout>
  );
}
