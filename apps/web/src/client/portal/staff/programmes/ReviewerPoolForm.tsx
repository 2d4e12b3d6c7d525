import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";

/** Who reviews the programme's applications: any active staff member, ticked (admins). */
export function ReviewerPoolForm({
  programmeId,
  staff,
  pool,
}: {
  programmeId: string;
  staff: User[];
  pool: string[];
}) {
  const [chosen, setChosen] = useState(pool);
  const { busy, problem, done, send } = useSend<unknown>();
  const submit = async (event: Event) => {
    event.preventDefault();
    await send(() => officeApi.savePool(programmeId, chosen));
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="reviewer-pool">
      {problem && <OfficeProblem problem={problem} />}
      <fieldset class="field">
        <legend>{t("office.pool.legend")}</legend>
        <p class="hint">{t("office.pool.hint")}</p>
        {staff.map((member) => (
          <label key={member.id} class="choice">
            <input
              type="checkbox"
              value={member.id}
              checked={chosen.includes(member.id)}
              onChange={(e) =>
                setChosen((now) =>
                  (e.currentTarget as HTMLInputElement).checked
                    ? [...now, member.id]
                    : now.filter((id) => id !== member.id),
                )
              }
              data-testid="pool-member"
            />
            {member.fullName} (
            {t(member.role === "admin" ? "staff.role.admin" : "staff.role.reviewer")})
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={busy} data-testid="pool-save">
        {t("office.pool.save")}
      </button>
      {done && (
        <p role="status" data-testid="pool-saved">
          {t("office.pool.saved", { count: chosen.length })}
        </p>
      )}
    </form>
  );
}
