import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { EmailField, NewPasswordField } from "../../ui/AccountFields.tsx";
import { Field } from "../../ui/Field.tsx";
import { fieldError, ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";

/** A new reviewer or admin, with an initial password they then change. */
export function NewStaffForm({ onCreated }: { onCreated: () => void }) {
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<"reviewer" | "admin">("reviewer");
  const { busy, problem, done, send } = useSend<User>();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await send(() => staffApi.createUser({ fullName, email, password, role }))) {
      setFullName("");
      setEmail("");
      setPassword("");
      onCreated();
    }
  };
  return (
    <form class="form" onSubmit={submit} noValidate data-testid="new-staff">
      {problem && <ProblemNotice problem={problem} />}
      <Field
        id="new-staff-name"
        label={t("field.fullName")}
        value={fullName}
        error={fieldError(problem, "fullName")}
        onInput={(e) => setFullName(inputValue(e))}
        required
      />
      <EmailField
        id="new-staff-email"
        autocomplete="off"
        value={email}
        onValue={setEmail}
        error={fieldError(problem, "email")}
      />
      <NewPasswordField
        id="new-staff-password"
        label={t("staff.users.initialPassword")}
        value={password}
        onValue={setPassword}
        error={fieldError(problem, "password")}
      />
      <div class="field">
        <label for="new-staff-role">{t("staff.users.role")}</label>
        <select
          id="new-staff-role"
          value={role}
          onChange={(e) => setRole(inputValue(e) === "admin" ? "admin" : "reviewer")}
        >
          <option value="reviewer">{t("staff.role.reviewer")}</option>
          <option value="admin">{t("staff.role.admin")}</option>
        </select>
      </div>
      <button type="submit" disabled={busy} data-testid="create-staff">
        {t("staff.users.create")}
      </button>
      {done && (
        <p role="status" data-testid="staff-created">
          {t("staff.users.created", { name: done.data.fullName })}
        </p>
      )}
    </form>
  );
}
