import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { staffApi } from "../api.ts";
import type { OutboxEmail } from "../types.ts";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { usePaged } from "../ui/usePaged.ts";

/** The outbox (admins): every email to applicants, whether it went, and why not. */
export default function StaffOutboxPage() {
  const session = useStaffSession();
  const { offset, setOffset, page, failure } = usePaged<OutboxEmail>(session, staffApi.outbox);
  return (
    <StaffLayout session={session}>
      {failure && <ProblemNotice problem={failure.problem} />}
      {page && (
        <>
          <p role="status">{t("staff.list.count", { count: page.count })}</p>
          <div class="table-scroll">
            <table data-testid="outbox">
              <caption class="visually-hidden">{t("page.staffOutbox.title")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("staff.outbox.created")}</th>
                  <th scope="col">{t("staff.outbox.to")}</th>
                  <th scope="col">{t("staff.outbox.subject")}</th>
                  <th scope="col">{t("staff.outbox.status")}</th>
                  <th scope="col">{t("staff.outbox.attempts")}</th>
                </tr>
              </thead>
              <tbody>
                {page.results.map((email) => (
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
