import type { User } from "@platform/admissions/models";
import { useEffect, useState } from "preact/hooks";
import type { ApiError } from "../../api/client.ts";
import { t } from "../../i18n/use.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { StaffProblem } from "../ui/StaffProblem.tsx";
import { useStaffSession } from "../ui/session.ts";
import { interviewsApi } from "./api.ts";
import { SlotForm } from "./SlotForm.tsx";

/**
 * An admin opens an interview slot: its time and length, a place or a video link, and the
 * panel, warned of clashes as it is filled in. Saved, it opens the slot's own page.
 */
export default function NewSlotPage() {
  const session = useStaffSession();
  const [staff, setStaff] = useState<User[] | null>(null);
  const [refused, setRefused] = useState<ApiError | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    interviewsApi.staff().then((a) => (a.ok ? setStaff(a.data.results) : setRefused(a)));
  }, [session.status]);
  return (
    <StaffLayout session={session}>
      <p>
        <a href="/portal/staff/interviews">{t("decide.interviews.back")}</a>
      </p>
      {refused && <StaffProblem problem={refused.problem} />}
      {!staff && !refused && <p aria-busy="true">{t("common.loading")}</p>}
      {staff && (
        <SlotForm
          staff={staff}
          save={({ panel, ...rest }) => interviewsApi.create({ ...rest, panel })}
          onSaved={(slot) => location.assign(`/portal/staff/interviews/${slot.id}?saved=created`)}
          submitLabel={t("decide.slot.save")}
          testId="interview-slot"
          headingLevel={2}
        />
      )}
    </StaffLayout>
  );
}
