import { useState } from "preact/hooks";
import { t } from "../../i18n/use.ts";
import { CurrentPasswordField, EmailField } from "../../ui/AccountFields.tsx";
import { Field } from "../../ui/Field.tsx";
import { ProblemNotice } from "../../ui/ProblemNotice.tsx";
import { inputValue, useSend } from "../../ui/useForm.ts";
import { staffApi } from "../api.ts";
import { StaffLayout } from "../ui/StaffLayout.tsx";
import { staffNext } from "../ui/session.ts";

/**
 * The office's sign-in: the same API sign-in as applicants. A staff member with MFA on is
 * answered 401 MFA_REQUIRED (not a failed attempt); the form then asks for the code and sends
 * the three together.
 */
export default function StaffLoginPage() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [otp, setOtp] = useState("");
  const [needsCode, setNeedsCode] = useState(false);
  const { busy, problem, send, setProblem } = useSend();
  const next = staffNext(new URLSearchParams(location.search).get("next"));
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await staffApi.login(email, password, needsCode ? otp : undefined);
    if (answer.ok) {
      location.assign(next);
      return;
    }
    if (answer.problem.code === "MFA_REQUIRED" && !needsCode) {
      setNeedsCode(true);
      setProblem(null);
      // The code field appears next; the keyboard goes to it.
      requestAnimationFrame(() => document.getElementById("staff-login-otp")?.focus());
      return;
    }
    await send(async () => answer);
  };
  return (
    <StaffLayout session={{ status: "anonymous" }}>
      <form onSubmit={submit} class="form" noValidate>
        {problem && <ProblemNotice problem={problem} testId="login-problem" />}
        <EmailField
          id="staff-login-email"
          testId="login-email"
          autocomplete="username"
          value={email}
          onValue={setEmail}
        />
        <CurrentPasswordField
          id="staff-login-password"
          testId="login-password"
          value={password}
          onValue={setPassword}
        />
        {needsCode && (
          <Field
            id="staff-login-otp"
            label={t("staff.login.otp")}
            hint={t("staff.login.otpHint")}
            autocomplete="one-time-code"
            inputMode="numeric"
            required
            value={otp}
            onInput={(e) => setOtp(inputValue(e))}
            data-testid="login-otp"
          />
        )}
        <button type="submit" disabled={busy} data-testid="login-submit">
          {t("login.submit")}
        </button>
      </form>
    </StaffLayout>
  );
}
