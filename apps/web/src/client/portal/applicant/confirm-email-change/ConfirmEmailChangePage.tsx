import { admissions } from "../../api/admissions.ts";
import { LinkConfirmation } from "../../ui/LinkConfirmation.tsx";

export default function ConfirmEmailChangePage() {
  return (
    <LinkConfirmation
      confirm={admissions.confirmEmailChange}
      doneKey="emailChange.done"
      testId="email-changed"
    />
  );
}
