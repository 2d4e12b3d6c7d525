import type { SQL } from "bun";
import { enqueueEmail } from "../../outbox/service.ts";

/** The account emails of MFA; links point at the portal's security page. */
export type MfaEvent =
  | "mfa.enabled"
  | "mfa.disabled"
  | "mfa.recovery_codes_regenerated"
  | "mfa.recovery_code_used";

const SECURITY_PATH = "/account/security";

const when = (at: string) =>
  `${new Date(at).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" })} UTC`;

const TEXTS: Record<MfaEvent, (at: string, extra: { codesLeft?: number }) => [string, string]> = {
  "mfa.enabled": (at) => [
    "Two-factor authentication is on",
    `Two-factor authentication was turned on for your admissions account on ${when(at)}. Signing in now takes a code from your authenticator app, or one of your recovery codes. Every other sign-in of your account has been ended.`,
  ],
  "mfa.disabled": (at) => [
    "Two-factor authentication is off",
    `Two-factor authentication was turned off for your admissions account on ${when(at)}. Signing in now takes your password alone.`,
  ],
  "mfa.recovery_codes_regenerated": (at) => [
    "New recovery codes",
    `New recovery codes were made for your admissions account on ${when(at)}. The old ones no longer work.`,
  ],
  "mfa.recovery_code_used": (at, { codesLeft }) => [
    "A recovery code was used to sign in",
    `One of your recovery codes was used to sign in to your admissions account on ${when(at)}. You have ${codesLeft ?? 0} left; make new ones on your security page if you are running low.`,
  ],
};

/** The email of an MFA event: its one link is the portal's security page. */
export function mfaEmail(
  portalUrl: string,
  event: MfaEvent,
  at: string,
  extra: { codesLeft?: number } = {},
) {
  const [subject, text] = TEXTS[event](at, extra);
  const security = `${portalUrl}${SECURITY_PATH}`;
  const body = `${text}\n\nIf this was not you, change your password and contact the admissions office at once.\n\nYour account's security: ${security}`;
  return { subject, body, links: [security] };
}

/** Written in the caller's transaction: sent only if the change commits. */
export async function enqueueMfaEmail(
  tx: SQL,
  portalUrl: string,
  to: string,
  event: MfaEvent,
  at: string,
  extra: { codesLeft?: number } = {},
) {
  const email = mfaEmail(portalUrl, event, at, extra);
  await enqueueEmail(tx, { applicationId: null, event, to, ...email }, at);
}
