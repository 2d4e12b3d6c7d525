import { admissions } from "../../api/admissions.ts";
import { LinkConfirmation } from "../../ui/LinkConfirmation.tsx";

export default function VerifyEmailPage() {
  return (
    <LinkConfirmation
      confirm={admissions.confirmVerification}
      doneKey="verify.done"
      testId="email-verified"
    />
  );
}
