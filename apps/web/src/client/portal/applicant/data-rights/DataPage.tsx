import { useEffect, useState } from "preact/hooks";
import { account } from "../../api/account.ts";
import type { DataRequest } from "../../api/types.ts";
import { t } from "../../i18n/use.ts";
import { Layout } from "../../ui/Layout.tsx";
import { useSession } from "../../ui/session.ts";
import { AccountLinks } from "../account/AccountLinks.tsx";
import { DataRequests } from "./DataRequests.tsx";
import { ErasureForm } from "./ErasureForm.tsx";
import { ExportButton } from "./ExportButton.tsx";

/** Download everything held about me; ask for my account to be erased; my requests. */
export default function DataPage() {
  const session = useSession(true);
  const [requests, setRequests] = useState<DataRequest[] | null>(null);
  const [erased, setErased] = useState(false);
  const load = () =>
    account.dataRequests().then((answer) => answer.ok && setRequests(answer.data.results));
  useEffect(() => {
    if (session.status === "signed-in") load();
  }, [session.status]);
  if (erased)
    return (
      <p role="status" class="panel" data-testid="erasure-done">
        {t("data.erased")} <a href="/portal/">{t("nav.programs")}</a>
      </p>
    );
  const pending = requests?.some((r) => r.kind === "erasure" && r.status === "pending") ?? false;
  return (
    <Layout session={session}>
      {session.status === "signed-in" && (
        <>
          <AccountLinks />
          <section aria-labelledby="export-heading">
            <h2 id="export-heading">{t("data.export")}</h2>
            <p>{t("data.exportIntro")}</p>
            <ExportButton onDone={load} />
          </section>
          <section aria-labelledby="erasure-heading">
            <h2 id="erasure-heading">{t("data.erasure")}</h2>
            {pending ? (
              <p>{t("data.erasurePending")}</p>
            ) : (
              <ErasureForm
                onDone={(request) => (request.status === "completed" ? setErased(true) : load())}
              />
            )}
          </section>
          {requests && <DataRequests requests={requests} onChange={load} />}
        </>
      )}
    </Layout>
  );
}
