/*
 * The account's own security: password reset by email, password change, email verification
 * and email change. Every event is emailed through the outbox, in the transaction of the
 * change it tells about. The module's public face: its controller, the staff console (the
 * admin-triggered reset) and the app's wiring (registration's verification email) use it.
 */

export type { AccountDeps, AccountLimits } from "./internal/deps.ts";
export { PORTAL_PATHS } from "./internal/emails.ts";
export {
  changePassword,
  requestPasswordReset,
  resetPassword,
  sendPasswordResetLink,
} from "./internal/recovery.ts";
// The references feature's referee links are made and hashed the same way.
export { digestOf, LINK_LIFETIME_MS, newLinkToken } from "./internal/tokens.ts";
export {
  confirmEmailChange,
  confirmVerification,
  registrationEmails,
  requestEmailChange,
  resendVerification,
  verificationStatus,
} from "./internal/verification.ts";

/** Same answer for every address: whether it has an account is not told. */
export const RESET_REQUESTED =
  "If an account uses this address, a link to choose a new password has been sent to it";
