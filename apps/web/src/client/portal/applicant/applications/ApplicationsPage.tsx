import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { Application } from "../../api/types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { useSession } from "../../ui/session.ts";

export default function ApplicationsPage() {
  const session = useSession(true);
  const [applications, setApplications] = useState<Application[] | null>(null);
  useEffect(() => {
    if (session.status !== "signed-in") return;
    admissions.applications().then((answer) => {
      if (answer.ok) setApplications(answer.data.results);
    });
  }, [session.status]);
  return (
    <Layout session={session}>
      {applications?.length === 0 && (
        <p>
          {t("applications.none")} <a href="/portal/">{t("nav.programs")}</a>
        </p>
      )}
      {applications && applications.length > 0 && (
        <ul class="cards" data-testid="application-list">
          {applications.map((a) => (
            <li class="card" key={a.id}>
              <h2>
                <a href={`/portal/applications/${a.id}`}>
                  {a.program.name} · {a.intake.term}
                </a>
              </h2>
              <p>
                <span class={`badge status-${a.status}`}>
                  {t(`status.${a.status}` as MessageKey)}
                </span>
              </p>
              <p class="muted">{t("applications.updated", { when: formatDate(a.updatedAt) })}</p>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
