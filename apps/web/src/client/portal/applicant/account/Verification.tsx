import { useEffect, useState } from "preact/hooks";
import { admissions } from "../../api/admissions.ts";
import type { EmailVerification } from "../../api/types.ts";
import { formatDate, t } from "../../i18n/use.ts";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { useSend } from "../../ui/useForm.ts";

export function Verification() {
  const [state, setState] = useState<EmailVerification | null>(null);
  const { busy, problem, done, send } = useSend<unknown>();
  useEffect(() => {
    admissions.verification().then((answer) => answer.ok && setState(answer.data));
  }, []);
  if (!state) return null;
  return (
    <div data-testid="verification" data-verified={String(state.verified)}>
      {state.verified && state.verifiedAt ? (
        <p>{t("account.verified", { email: state.email, when: formatDate(state.verifiedAt) })}</p>
      ) : (
        <>
          <p>{t("account.unverified", { email: state.email })}</p>
          {problem && <ProblemNotice problem={problem} />}
          {done ? (
            <p role="status">{t("account.verificationSent")}</p>
          ) : (
            <button
              type="button"
              disabled={busy}
              onClick={() => send(admissions.resendVerification)}
              data-testid="resend-verification"
            >
              {t("account.resend")}
            </button>
          )}
        </>
      )}
    </div>
  );
}
