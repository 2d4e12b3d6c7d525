import { t } from "../../i18n/use.ts";
import { OFFICE_ROUTES } from "../office/routes.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { ProgrammeForm } from "./ProgrammeForm.tsx";

/** A new programme (admins): its details; intakes, rubric and reviewers on its own page after. */
export default function NewProgrammePage() {
  const session = useStaffSession();
  return (
    <StaffLayout session={session}>
      <p>
        <a href={OFFICE_ROUTES.staffProgrammes}>{t("office.programmes.back")}</a>
      </p>
      <p class="hint">{t("office.programme.newHint")}</p>
      <ProgrammeForm
        programme={null}
        onSaved={(saved) => location.assign(`/portal/staff/programmes/${saved.id}?created=1`)}
      />
    </StaffLayout>
  );
}
