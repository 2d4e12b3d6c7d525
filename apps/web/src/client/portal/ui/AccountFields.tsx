import { t } from "../i18n/use.ts";
import { Field } from "./Field.tsx";
import { inputValue } from "./useForm.ts";

/**
 * The account forms' fields (sign-in, registration, reset, email change, a new staff member):
 * each always with the same type, autocomplete and rule, so a password manager and a screen
 * reader meet them alike on every page.
 */
type AccountFieldProps = {
  id: string;
  /** Its test id (docs/web.md), where it has one. */
  testId?: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  /** The field's own label, where the usual one does not say enough ("New email address"). */
  label?: string;
};

export function EmailField({
  autocomplete = "email",
  ...props
}: AccountFieldProps & { autocomplete?: "email" | "username" | "off" }) {
  return (
    <AccountField {...props} type="email" autocomplete={autocomplete} fallback="field.email" />
  );
}

/** The password the person has now (sign-in, or to confirm a change). */
export function CurrentPasswordField(props: AccountFieldProps) {
  return (
    <AccountField
      {...props}
      type="password"
      autocomplete="current-password"
      fallback="field.password"
    />
  );
}

/** A new password, with the rule it must meet said beside it. */
export function NewPasswordField(props: AccountFieldProps) {
  return (
    <AccountField
      {...props}
      type="password"
      autocomplete="new-password"
      fallback="field.newPassword"
      hint={t("field.passwordHint")}
    />
  );
}

function AccountField({
  id,
  testId,
  value,
  onValue,
  error,
  label,
  fallback,
  ...input
}: AccountFieldProps & {
  type: "email" | "password";
  autocomplete: string;
  fallback: "field.email" | "field.password" | "field.newPassword";
  hint?: string;
}) {
  return (
    <Field
      {...input}
      id={id}
      label={label ?? t(fallback)}
      required
      value={value}
      error={error}
      onInput={(e) => onValue(inputValue(e))}
      data-testid={testId}
    />
  );
}
