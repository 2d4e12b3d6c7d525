import { useEffect, useState } from "preact/hooks";
import type { ApiAnswer } from "../api/client.ts";
import type { MessageKey } from "../i18n/index.ts";
import { t } from "../i18n/use.ts";
import { Layout } from "./Layout.tsx";
import { ProblemNotice } from "./ProblemNotice.tsx";
import { useSession } from "./session.ts";
import { takeToken } from "./token.ts";
import { useSend } from "./useForm.ts";

/**
 * A page an emailed link opens: it posts the link's token once, on arrival (the token left the
 * address bar when this module loaded), and says what happened.
 */
export function LinkConfirmation({
  confirm,
  doneKey,
  testId,
}: {
  confirm: (token: string) => Promise<ApiAnswer<null>>;
  doneKey: MessageKey;
  testId: string;
}) {
  const [token] = useState(takeToken);
  const session = useSession();
  const { problem, done, send } = useSend<null>();
  useEffect(() => {
    if (token) send(() => confirm(token));
  }, []);
  // Onwards to what the applicant came for (their applications), never to account settings.
  const next =
    session.status === "signed-in"
      ? "/portal/applications/"
      : `/portal/login?next=${encodeURIComponent("/portal/applications/")}`;
  return (
    <Layout session={session}>
      {!token && <p role="alert">{t("link.missing")}</p>}
      {problem && <ProblemNotice problem={problem} testId={`${testId}-problem`} />}
      {done && (
        <p role="status" data-testid={testId}>
          {t(doneKey)}
        </p>
      )}
      {token && !problem && !done && <p aria-busy="true">{t("common.loading")}</p>}
      <p>
        <a href={next}>{t("common.continue")}</a>
      </p>
    </Layout>
  );
}
