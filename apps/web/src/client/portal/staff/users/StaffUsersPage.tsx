import { useState } from "preact/hooks";
import type { User } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import { PagedTable } from "../ui/PagedTable.tsx";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { usePaged } from "../ui/usePaged.ts";
import { NewStaffForm } from "./NewStaffForm.tsx";

/** Staff accounts (admins): the list by name, a new account, and turning one off or on again. */
export default function StaffUsersPage() {
  const session = useStaffSession();
  const [reloads, setReloads] = useState(0);
  const paged = usePaged<User>(session, staffApi.users, reloads);
  const toggle = useSend<User>();
  const setActive = async (user: User, active: boolean) => {
    if (await toggle.send(() => staffApi.setActive(user.id, active))) setReloads((n) => n + 1);
  };
  const me = session.status === "signed-in" ? session.user.id : "";
  return (
    <StaffLayout session={session}>
      {paged.failure && <ProblemNotice problem={paged.failure.problem} />}
      {toggle.problem && <ProblemNotice problem={toggle.problem} />}
      <PagedTable
        {...paged}
        testId="staff-users"
        caption="page.staffUsers.title"
        columns={["field.fullName", "field.email", "staff.users.role", "staff.users.active"]}
        row={(user) => (
          <tr key={user.id} data-testid="staff-user" data-active={user.active}>
            <th scope="row">{user.fullName}</th>
            <td>{user.email}</td>
            <td>{t(user.role === "admin" ? "staff.role.admin" : "staff.role.reviewer")}</td>
            <td>
              {user.id === me ? (
                t("staff.yes")
              ) : (
                <button
                  type="button"
                  disabled={toggle.busy}
                  onClick={() => setActive(user, !user.active)}
                  aria-label={t(user.active ? "staff.users.deactivate" : "staff.users.activate", {
                    name: user.fullName,
                  })}
                >
                  {t(user.active ? "staff.users.turnOff" : "staff.users.turnOn")}
                </button>
              )}
            </td>
          </tr>
        )}
      />
      {session.status === "signed-in" && (
        <section aria-labelledby="new-staff">
          <h2 id="new-staff">{t("staff.users.new")}</h2>
          <NewStaffForm onCreated={() => setReloads((n) => n + 1)} />
        </section>
      )}
    </StaffLayout>
  );
}
