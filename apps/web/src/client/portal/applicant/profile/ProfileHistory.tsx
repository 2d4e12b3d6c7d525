import { useEffect, useState } from "preact/hooks";
import { account } from "../../api/account.ts";
import type { ProfileChange } from "../../api/types.ts";
import { en } from "../../i18n/en.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";

/** A field's name as the page calls it; the API's own name for one the page does not show. */
const fieldName = (field: string) => {
  const key = `profile.${field}`;
  return key in en ? t(key as MessageKey) : field;
};

/** Every change to the profile, newest first: when, by whom (a role), which fields. */
export function ProfileHistory() {
  const [changes, setChanges] = useState<ProfileChange[] | null>(null);
  useEffect(() => {
    account.profileHistory().then((answer) => answer.ok && setChanges(answer.data.results));
  }, []);
  if (!changes) return null;
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">{t("profile.history")}</h2>
      {changes.length === 0 ? (
        <p>{t("profile.noHistory")}</p>
      ) : (
        <ul data-testid="profile-history">
          {changes.map((change) => (
            <li key={change.id}>
              {t("profile.change", {
                when: formatDate(change.at),
                who: t(change.changedBy.role === "applicant" ? "profile.byYou" : "profile.byStaff"),
                fields: change.fields.map(fieldName).join(", "),
              })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
