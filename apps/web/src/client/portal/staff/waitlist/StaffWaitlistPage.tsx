import { useState } from "preact/hooks";
import type { Application } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import { SeatCounts } from "../application/SeatCounts.tsx";
import { pathSegment } from "../routes.ts";
import { Pager } from "../ui/Pager.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { usePaged } from "../ui/usePaged.ts";

/**
 * An intake's waiting list in order, beside its seats; an admin offers the first in line a freed
 * seat (the API refuses with NO_SEATS_AVAILABLE or WAITLIST_EMPTY, shown here).
 */
export default function StaffWaitlistPage() {
  const session = useStaffSession();
  // /portal/staff/intakes/:id/waitlist
  const intakeId = pathSegment(-2);
  const [reloads, setReloads] = useState(0);
  const { offset, setOffset, page, failure } = usePaged<Application>(
    session,
    (from) => staffApi.waitlist(intakeId, from),
    reloads,
  );
  const promote = useSend<Application>();
  const offerNext = async () => {
    await promote.send(() => staffApi.promote(intakeId));
    setReloads((n) => n + 1);
  };
  const isAdmin = session.status === "signed-in" && session.user.role === "admin";
  return (
    <StaffLayout session={session}>
      <SeatCounts intakeId={intakeId} refresh={reloads} />
      {failure && <ProblemNotice problem={failure.problem} />}
      {page && (
        <>
          <ol class="waitlist" data-testid="waitlist">
            {page.results.map((a) => (
              <li key={a.id} data-testid="waitlist-item">
                <a href={`/portal/staff/applications/${a.id}`}>{a.applicant.fullName}</a> —{" "}
                {t("staff.waitlist.position", { position: a.waitlistPosition ?? "—" })}
              </li>
            ))}
          </ol>
          {page.count === 0 && <p>{t("staff.waitlist.empty")}</p>}
          <Pager offset={offset} count={page.count} onGo={setOffset} />
        </>
      )}
      {isAdmin && (
        <>
          {promote.problem && <ProblemNotice problem={promote.problem} testId="promote-problem" />}
          {promote.done && (
            <p role="status" data-testid="promoted">
              {t("staff.waitlist.promoted", { name: promote.done.data.applicant.fullName })}
            </p>
          )}
          <button type="button" disabled={promote.busy} onClick={offerNext} data-testid="promote">
            {t("staff.waitlist.promote")}
          </button>
        </>
      )}
    </StaffLayout>
  );
}
