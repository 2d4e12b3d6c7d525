/*
 * The account emails, as plain text with full links, each listed in `links` (the outbox adds
 * the HTML alternative, where those links, and nothing else, are anchors). Every link points at a page of the web portal; the paths are
 * listed in docs/admissions.md, "Authentication" → "Links in emails". A link carries its token
 * in the query string: the portal page posts it to the API and must not leak it onward
 * (Referrer-Policy: no-referrer).
 */

import type { SQL } from "bun";
import { isoAt } from "../../../lib/ids.ts";
import { enqueueEmail } from "../../outbox/service.ts";

export type AccountEmail = { event: string; subject: string; body: string; links: string[] };

/** The portal's paths, after ADMISSIONS_PORTAL_URL. */
export const PORTAL_PATHS = {
  verifyEmail: "/account/verify-email",
  resetPassword: "/account/reset-password",
  confirmEmailChange: "/account/confirm-email-change",
  forgotPassword: "/account/forgot-password",
  signIn: "/portal/login",
} as const;

const link = (portalUrl: string, path: string, token?: string) =>
  `${portalUrl}${path}${token ? `?token=${encodeURIComponent(token)}` : ""}`;

const when = (ms: number) =>
  `${new Date(ms).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" })} UTC`;

const letter = (name: string, ...paragraphs: string[]) =>
  `Dear ${name},\n\n${paragraphs.join("\n\n")}\n\nAdmissions Office`;

export function verificationEmail(
  to: { fullName: string },
  portalUrl: string,
  token: string,
): AccountEmail {
  const verify = link(portalUrl, PORTAL_PATHS.verifyEmail, token);
  return {
    event: "email_verification",
    subject: "Confirm your email address",
    body: letter(
      to.fullName,
      "Please confirm that this is your email address by opening this link:",
      verify,
      "The link works once, for 48 hours. You need a confirmed address to submit an application.",
      "If you did not create an account with us, you can ignore this email.",
    ),
    links: [verify],
  };
}

/** To the owner of an address someone tried to register again: nothing changed. */
export function accountExistsEmail(to: { fullName: string }, portalUrl: string): AccountEmail {
  const signIn = link(portalUrl, PORTAL_PATHS.signIn);
  const forgot = link(portalUrl, PORTAL_PATHS.forgotPassword);
  return {
    event: "account_exists",
    subject: "You already have an account",
    body: letter(
      to.fullName,
      "Someone, perhaps you, tried to create an admissions account with this email address. You already have an account with it, and nothing has been changed.",
      "You can sign in here:",
      signIn,
      "If you have forgotten your password, choose a new one here:",
      forgot,
      "If it was not you, you can ignore this email.",
    ),
    links: [signIn, forgot],
  };
}

export function passwordResetEmail(
  to: { fullName: string },
  portalUrl: string,
  token: string,
  by: "self" | "admin",
): AccountEmail {
  const reset = link(portalUrl, PORTAL_PATHS.resetPassword, token);
  return {
    event: by === "self" ? "password_reset_requested" : "password_reset_by_admin",
    subject: "Reset your password",
    body: letter(
      to.fullName,
      by === "self"
        ? "We received a request to reset the password of your account. Choose a new password here:"
        : "An administrator has asked you to choose a new password, and has signed your account out everywhere. Choose a new password here:",
      reset,
      "The link works once, for 30 minutes. Choosing a new password signs the account out everywhere.",
      by === "self"
        ? "If you did not ask for this, you can ignore this email: your password stays as it is."
        : "If you were not expecting this, please contact the admissions office.",
    ),
    links: [reset],
  };
}

export function passwordChangedEmail(
  to: { fullName: string },
  portalUrl: string,
  atMs: number,
  how: "changed" | "reset",
): AccountEmail {
  const forgot = link(portalUrl, PORTAL_PATHS.forgotPassword);
  return {
    event: "password_changed",
    subject: "Your password was changed",
    body: letter(
      to.fullName,
      `The password of your account was ${how === "reset" ? "reset with an emailed link" : "changed"} on ${when(atMs)}. ${how === "reset" ? "Every sign-in was ended." : "Every other sign-in was ended."}`,
      "If you did not do this, reset your password now and tell the admissions office:",
      forgot,
    ),
    links: [forgot],
  };
}

export function emailChangeLinkEmail(
  to: { fullName: string },
  portalUrl: string,
  token: string,
): AccountEmail {
  const confirm = link(portalUrl, PORTAL_PATHS.confirmEmailChange, token);
  return {
    event: "email_change_verification",
    subject: "Confirm your new email address",
    body: letter(
      to.fullName,
      "Please confirm that this is the new email address of your admissions account by opening this link:",
      confirm,
      "The link works once, for 24 hours. Until it is opened, the account keeps its current address.",
      "If you did not ask for this, you can ignore this email.",
    ),
    links: [confirm],
  };
}

export function emailChangeRequestedNotice(
  to: { fullName: string },
  portalUrl: string,
  newEmail: string,
): AccountEmail {
  const forgot = link(portalUrl, PORTAL_PATHS.forgotPassword);
  return {
    event: "email_change_requested",
    subject: "A change of your email address was requested",
    body: letter(
      to.fullName,
      `A change of your account's email address to ${newEmail} was requested. It takes effect only when the link we sent to that address is opened.`,
      "If you did not ask for this, someone may know your password: reset it now, which also signs everyone out:",
      forgot,
    ),
    links: [forgot],
  };
}

export const emailChangedNotice = (
  to: { fullName: string },
  newEmail: string,
  atMs: number,
): AccountEmail => ({
  event: "email_changed_notice",
  subject: "Your email address was changed",
  body: letter(
    to.fullName,
    `The email address of your admissions account was changed to ${newEmail} on ${when(atMs)}. We will no longer write to this address.`,
    "If you did not do this, please contact the admissions office at once.",
  ),
  links: [],
});

/** Writes an account email to the outbox, in the caller's transaction. */
export const sendAccountEmail = (tx: SQL, to: string, email: AccountEmail, nowMs: number) =>
  enqueueEmail(tx, { applicationId: null, to, ...email }, isoAt(nowMs));
