import { t } from "../../i18n/use.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { OfficeQueue } from "./OfficeQueue.tsx";
import { ReviewerQueue } from "./ReviewerQueue.tsx";

/**
 * The review queue. A reviewer sees their own assignments (the API's queue); an admin works the
 * office's queue: every application, filtered, sorted and paged by the API.
 */
export default function StaffQueuePage() {
  const session = useStaffSession();
  const isAdmin = session.status === "signed-in" && session.user.role === "admin";
  return (
    <StaffLayout session={session}>
      <h2>{t(isAdmin ? "staff.queue.admin" : "staff.queue.reviewer")}</h2>
      {session.status === "signed-in" &&
        (isAdmin ? <OfficeQueue session={session} /> : <ReviewerQueue session={session} />)}
    </StaffLayout>
  );
}
