import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { Session } from "../../api/types.ts";
import { formatDate, t } from "../../i18n/use.ts";

/** Every sign-in of the account; any can be ended here (ending this one signs out). */
export function Sessions() {
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const load = () =>
    admissions.sessions().then((answer) => answer.ok && setSessions(answer.data.results));
  useEffect(() => {
    load();
  }, []);
  const end = async (session: Session) => {
    await admissions.endSession(session.id);
    if (session.current) location.assign("/portal/login");
    else load();
  };
  const endOthers = async () => {
    await admissions.endOtherSessions();
    load();
  };
  if (!sessions) return null;
  return (
    <div>
      <table data-testid="sessions">
        <caption>{t("account.sessionsCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("account.device")}</th>
            <th scope="col">{t("account.signedIn")}</th>
            <th scope="col">{t("account.lastUsed")}</th>
            <th scope="col">{t("account.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} data-testid="session" data-current={String(s.current)}>
              <td>
                {s.device ?? t("account.unknownDevice")}
                {s.current && <strong> ({t("account.thisDevice")})</strong>}
              </td>
              <td>{formatDate(s.createdAt)}</td>
              <td>{formatDate(s.lastUsedAt)}</td>
              <td>
                <button
                  type="button"
                  class="secondary"
                  onClick={() => end(s)}
                  data-testid={s.current ? "end-this-session" : "end-session"}
                >
                  {s.current ? t("nav.logout") : t("account.endSession")}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {sessions.length > 1 && (
        <button type="button" onClick={endOthers} data-testid="end-other-sessions">
          {t("account.endOthers")}
        </button>
      )}
    </div>
  );
}
