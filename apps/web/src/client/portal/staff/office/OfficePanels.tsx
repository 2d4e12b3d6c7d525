import type { Application } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { AssignmentPanel } from "../assignment/AssignmentPanel.tsx";
import { FeePanel } from "../payments/FeePanel.tsx";
import type { StaffSession } from "../ui/session.ts";

/**
 * The office's part of the application page: who reviews it (everyone: a conflict to declare;
 * admins: assigning), and for admins the fee and its payments, and the application's audit log.
 */
export function OfficePanels({
  session,
  application,
}: {
  session: StaffSession;
  application: Application;
}) {
  const isAdmin = session.status === "signed-in" && session.user.role === "admin";
  return (
    <>
      <AssignmentPanel session={session} application={application} />
      {isAdmin && <FeePanel session={session} applicationId={application.id} />}
      {isAdmin && (
        <p>
          <a
            href={`/portal/staff/audit?applicationId=${application.id}`}
            data-testid="application-audit"
          >
            {t("office.audit.ofApplication")}
          </a>
        </p>
      )}
    </>
  );
}
