import { t } from "../../i18n/use.ts";
import { officeApi } from "../office/api.ts";
import { ReasonForm } from "../payments/ReasonForm.tsx";

/**
 * The signed-in staff member declares a conflict of interest with the application: they are
 * taken off it for good, their review stops counting, and they no longer read the reviews.
 */
export function ConflictForm({
  applicationId,
  onDeclared,
}: {
  applicationId: string;
  onDeclared: () => void;
}) {
  return (
    <details data-testid="conflict-declare">
      <summary>{t("office.conflict.summary")}</summary>
      <p class="hint">{t("office.conflict.hint")}</p>
      <ReasonForm
        id="conflict"
        label={t("office.conflict.reason")}
        submitLabel={t("office.conflict.declare")}
        danger
        run={(reason) => officeApi.declareConflict(applicationId, reason)}
        onDone={onDeclared}
      />
    </details>
  );
}
