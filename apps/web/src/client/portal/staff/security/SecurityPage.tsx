import { useState } from "preact/hooks";
import { formatDate, t } from "../../i18n/use.ts";
import { CurrentPasswordField } from "../../ui/AccountFields.tsx";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { MfaStatus, RecoveryCodes, TotpEnrolment } from "../office/types.ts";
import { Loaded } from "../office/ui/Loading.tsx";
import { OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { useLoad } from "../office/ui/useLoad.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { useStaffSession } from "../ui/session.ts";
import { EnrolForm } from "./EnrolForm.tsx";
import { RecoveryCodesOnce } from "./RecoveryCodesOnce.tsx";

/**
 * The signed-in staff member's own two-factor sign-in: enrolment (QR code drawn here, the first
 * code, ten recovery codes shown once), new recovery codes, and turning it off (password and a
 * code). Every staff member, reviewers too.
 */
export default function SecurityPage() {
  const session = useStaffSession();
  const [reloads, setReloads] = useState(0);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const status = useLoad(session, () => officeApi.mfa(), [reloads]);
  const start = useSend<TotpEnrolment>();
  const regenerate = useSend<RecoveryCodes>();
  const disable = useSend<MfaStatus>();
  const s = status.data;
  const shown = (next: RecoveryCodes) => {
    setEnrolment(null);
    setCode("");
    setCodes(next.recoveryCodes);
    setReloads((n) => n + 1);
  };
  return (
    <StaffLayout session={session}>
      {codes && <RecoveryCodesOnce codes={codes} onSaved={() => setCodes(null)} />}
      <Loaded loading={!s} failure={status.failure}>
        {s && !codes && (
          <section aria-labelledby="mfa-title">
            <h2 id="mfa-title">{t("office.mfa.title")}</h2>
            <p data-testid="mfa-status" data-enabled={s.enabled}>
              {s.enabled
                ? t("office.mfa.on", {
                    since: s.enabledAt ? formatDate(s.enabledAt) : "",
                    left: s.recoveryCodesLeft,
                  })
                : t(s.required ? "office.mfa.required" : "office.mfa.off")}
            </p>
            {!s.enabled && !enrolment && (
              <>
                {start.problem && <OfficeProblem problem={start.problem} />}
                <button
                  type="button"
                  disabled={start.busy}
                  data-testid="mfa-enrol"
                  onClick={async () => {
                    const done = await start.send(() => officeApi.startTotp());
                    if (done) setEnrolment(done.data);
                  }}
                >
                  {t(s.enrolmentPending ? "office.mfa.restart" : "office.mfa.enrol")}
                </button>
              </>
            )}
            {!s.enabled && enrolment && <EnrolForm enrolment={enrolment} onEnabled={shown} />}
            {s.enabled && (
              <>
                <h3>{t("office.mfa.newCodesTitle")}</h3>
                <form
                  class="form"
                  noValidate
                  onSubmit={async (e) => {
                    e.preventDefault();
                    const done = await regenerate.send(() =>
                      officeApi.newRecoveryCodes(code.trim()),
                    );
                    if (done) shown(done.data);
                  }}
                >
                  {regenerate.problem && <OfficeProblem problem={regenerate.problem} />}
                  <Field
                    id="mfa-regenerate-code"
                    label={t("office.mfa.code")}
                    hint={t("staff.login.otpHint")}
                    value={code}
                    inputMode="numeric"
                    autocomplete="one-time-code"
                    onInput={(e) => setCode(inputValue(e))}
                  />
                  <button type="submit" disabled={regenerate.busy} data-testid="mfa-new-codes">
                    {t("office.mfa.newCodes")}
                  </button>
                </form>
                <h3>{t("office.mfa.offTitle")}</h3>
                <form
                  class="form"
                  noValidate
                  onSubmit={async (e) => {
                    e.preventDefault();
                    const done = await disable.send(() =>
                      officeApi.disableMfa(password, code.trim()),
                    );
                    if (done) {
                      setPassword("");
                      setReloads((n) => n + 1);
                    }
                  }}
                >
                  {disable.problem && <OfficeProblem problem={disable.problem} />}
                  <CurrentPasswordField
                    id="mfa-off-password"
                    value={password}
                    onValue={setPassword}
                  />
                  <Field
                    id="mfa-off-code"
                    label={t("office.mfa.codeOrRecovery")}
                    value={code}
                    autocomplete="one-time-code"
                    onInput={(e) => setCode(inputValue(e))}
                  />
                  <button
                    type="submit"
                    class="danger"
                    disabled={disable.busy}
                    data-testid="mfa-disable"
                  >
                    {t("office.mfa.turnOff")}
                  </button>
                </form>
              </>
            )}
          </section>
        )}
      </Loaded>
    </StaffLayout>
  );
}
