import { useEffect, useState } from "preact/hooks";
import { formatDate, t } from "../../i18n/use.ts";
import { Field } from "../../ui/Field.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { officeApi } from "../office/api.ts";
import type { RecoveryCodes, TotpEnrolment } from "../office/types.ts";
import { localProblem } from "../office/ui/local-problem.ts";
import { type FormFields, fieldMessage, OfficeProblem } from "../office/ui/OfficeProblem.tsx";
import { QrCode } from "./QrCode.tsx";

const FIELDS: FormFields = { code: { id: "mfa-code", message: "office.mfa.error.code" } };

/** The secret in groups of four, as an authenticator app asks for it when typed by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * Enrolment: the QR code of the API's otpauth:// URI (and its secret, to type instead), then
 * the app's first code turns MFA on and brings the recovery codes.
 */
export function EnrolForm({
  enrolment,
  onEnabled,
}: {
  enrolment: TotpEnrolment;
  onEnabled: (codes: RecoveryCodes) => void;
}) {
  const [code, setCode] = useState("");
  const { busy, problem, send, setProblem } = useSend<RecoveryCodes>();
  useEffect(() => document.getElementById("mfa-code")?.focus(), [enrolment.secret]);
  const submit = async (event: Event) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, "");
    if (!/^\d{6}$/.test(digits)) return setProblem(localProblem(["code"]));
    const done = await send(() => officeApi.confirmTotp(digits));
    if (done) onEnabled(done.data);
  };
  return (
    <div class="panel" data-testid="mfa-enrolment">
      <ol class="steps">
        <li>{t("office.mfa.step1")}</li>
        <li>
          {t("office.mfa.step2")}
          <QrCode text={enrolment.otpauthUri} label={t("office.mfa.qrLabel")} />
          <p class="hint">
            {t("office.mfa.typeInstead")}{" "}
            <code data-testid="mfa-secret">{grouped(enrolment.secret)}</code>
          </p>
        </li>
        <li>{t("office.mfa.step3", { until: formatDate(enrolment.expiresAt) })}</li>
      </ol>
      <form class="form" onSubmit={submit} noValidate>
        {problem && <OfficeProblem problem={problem} fields={FIELDS} testId="mfa-problem" />}
        <Field
          id="mfa-code"
          label={t("office.mfa.code")}
          hint={t("staff.login.otpHint")}
          value={code}
          inputMode="numeric"
          autocomplete="one-time-code"
          maxLength={7}
          error={fieldMessage(problem, FIELDS, "code")}
          onInput={(e) => setCode(inputValue(e))}
        />
        <button type="submit" disabled={busy} data-testid="mfa-confirm">
          {t("office.mfa.turnOn")}
        </button>
      </form>
    </div>
  );
}
