import { t } from "elysia";
import { int, Timestamp } from "../../lib/schema.ts";

export const MfaStatus = t.Object({
  enabled: t.Boolean(),
  enabledAt: t.Nullable(Timestamp),
  enrolmentPending: t.Boolean({
    description: "An enrolment was started and waits for its first code",
  }),
  recoveryCodesLeft: int({ minimum: 0, maximum: 10 }),
  required: t.Boolean({
    description:
      "This account must enable MFA before using its role's routes (admins, with ADMISSIONS_ADMIN_MFA_REQUIRED)",
  }),
});
export type MfaStatus = typeof MfaStatus.static;

export const TotpEnrolment = t.Object({
  secret: t.String({ description: "Base32; for apps that cannot scan the URI" }),
  otpauthUri: t.String({
    description: "otpauth://totp/… (SHA-1, 6 digits, 30 s): show it as a QR code",
    examples: ["otpauth://totp/Admissions:ada%40example.org?issuer=Admissions&secret=…"],
  }),
  expiresAt: t.String({
    format: "date-time",
    description: "Confirm with a code before this, or start again",
  }),
});
export type TotpEnrolment = typeof TotpEnrolment.static;

const TotpCode = t.String({
  pattern: "^[0-9]{6}$",
  description: "The authenticator's current 6-digit code",
  examples: ["123456"],
});

export const ConfirmBody = t.Object({ code: TotpCode }, { examples: [{ code: "123456" }] });
export type ConfirmBody = typeof ConfirmBody.static;

export const RecoveryCodes = t.Object({
  recoveryCodes: t.Array(t.String(), {
    minItems: 10,
    maxItems: 10,
    description: "Shown this once: each signs in once in place of a code",
  }),
});
export type RecoveryCodes = typeof RecoveryCodes.static;

export const DisableBody = t.Object(
  {
    password: t.String({ minLength: 1, maxLength: 128 }),
    code: t.String({
      minLength: 6,
      maxLength: 32,
      description: "The authenticator's current code, or an unused recovery code",
    }),
  },
  { examples: [{ password: "correct-horse-battery", code: "123456" }] },
);
export type DisableBody = typeof DisableBody.static;
