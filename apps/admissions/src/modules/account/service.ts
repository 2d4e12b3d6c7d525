import { invalidField } from "@platform/server";
import type { SQL } from "bun";
import { isUniqueViolation } from "../../db/dialect.ts";
import { notFound, problem } from "../../problems.ts";
import { confirmPassword, endSignInsOf, type Principal } from "../auth/service.ts";
import type { User } from "../users/model.ts";
import {
  findUserByEmail,
  hashPassword,
  normalizeEmail,
  type Registration,
} from "../users/service.ts";
import type { AccountDeps } from "./internal/deps.ts";
import {
  accountExistsEmail,
  emailChangedNotice,
  emailChangeLinkEmail,
  emailChangeRequestedNotice,
  passwordChangedEmail,
  passwordResetEmail,
  sendAccountEmail,
  verificationEmail,
} from "./internal/emails.ts";
import { assertEmailQuota, spendEmailQuota } from "./internal/limits.ts";
import {
  findAccount,
  markEmailVerified,
  setEmail,
  setPasswordHash,
  voidTokens,
} from "./internal/queries.ts";
import { assertLinkLive, digestOf, issueLink, redeemLink } from "./internal/tokens.ts";
import type {
  EmailChangeRequest,
  EmailVerification,
  PasswordChange,
  PasswordResetConfirm,
} from "./model.ts";

/*
 * The account's own security: password reset by email, password change, email verification
 * and email change. Every event is emailed through the outbox, in the transaction of the
 * change it tells about.
 */

export type { AccountLimits } from "./internal/deps.ts";
/** The links emailed to an account, made and hashed here; the referees' links are the same. */
export { digestOf, LINK_LIFETIME_MS, newLinkToken } from "./internal/tokens.ts";
export type { AccountDeps };

/** Same answer for every address: whether it has an account is not told. */
export const RESET_REQUESTED =
  "If an account uses this address, a link to choose a new password has been sent to it";

/** A reset link for the account, emailed in the caller's transaction (self-service or admin). */
export async function sendPasswordResetLink(
  tx: SQL,
  deps: Pick<AccountDeps, "portalUrl">,
  account: { id: string; email: string; fullName: string },
  by: "self" | "admin",
  nowMs: number,
): Promise<void> {
  const token = await issueLink(
    tx,
    { userId: account.id, purpose: "reset", email: account.email },
    nowMs,
  );
  await sendAccountEmail(
    tx,
    account.email,
    passwordResetEmail(account, deps.portalUrl, token, by),
    nowMs,
  );
}

/**
 * "Forgot my password". The answer is the same whether or not the address has an account, and
 * so is the work before it: the address's quota is spent either way; the account is looked up
 * and, when it is active, the link written and emailed after the answer. Past the quota the
 * link is silently not sent, so the quota does not tell either.
 */
export async function requestPasswordReset(deps: AccountDeps, email: string): Promise<void> {
  const address = normalizeEmail(email);
  const nowMs = deps.now();
  const quota = await spendEmailQuota(deps, `address:${digestOf(address)}`);
  if (!quota.allowed) return;
  // Looked up and written after the answer: a known address costs a transaction (about a
  // millisecond on PostgreSQL, measured by benchmarks/admissions/enumeration-timing.ts) that an
  // unknown one does not, and the answer's timing would tell them apart.
  deps.afterResponse.run("password reset link", async () => {
    const account = await findUserByEmail(deps.db, address);
    if (!account?.active) return;
    await deps.db.transaction((tx) => sendPasswordResetLink(tx, deps, account, "self", nowMs));
  });
}

/**
 * A new password from a reset link. The link is checked before the (slow) password hash, used
 * in the transaction that sets the password, and every sign-in of the account ends: whoever
 * had the old password or a stolen session is out. Opening the link also proves the address.
 */
export async function resetPassword(deps: AccountDeps, body: PasswordResetConfirm): Promise<void> {
  await deps.db.run((sql) => assertLinkLive(sql, body.token, "reset", deps.now()));
  const hash = await hashPassword(body.newPassword, deps.passwordCost);
  const nowMs = deps.now();
  const userId = await deps.db.transaction(async (tx) => {
    const link = await redeemLink(tx, body.token, "reset", nowMs);
    const account = await findAccount(tx, link.user_id);
    if (!account?.active) {
      throw problem("ACCOUNT_DISABLED", { detail: "This account is disabled" });
    }
    await setPasswordHash(tx, account.id, hash, nowMs);
    if (link.email === account.email) await markEmailVerified(tx, account.id, nowMs);
    const notice = passwordChangedEmail(account, deps.portalUrl, nowMs, "reset");
    await sendAccountEmail(tx, account.email, notice, nowMs);
    return account.id;
  });
  await endSignInsOf(deps, userId, null);
}

/**
 * A new password for the signed-in account, given the current one (wrong guesses count as
 * failed logins). Every other sign-in ends, with its refresh and access tokens; this one stays.
 * Unused reset links end too: they were for the old password.
 */
export async function changePassword(
  deps: AccountDeps,
  principal: Principal,
  body: PasswordChange,
  clientIp: string,
): Promise<void> {
  const { user } = principal;
  await confirmPassword(deps, user.email, body.currentPassword, clientIp);
  const hash = await hashPassword(body.newPassword, deps.passwordCost);
  const nowMs = deps.now();
  await deps.db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, hash, nowMs);
    await voidTokens(tx, user.id, ["reset"], nowMs);
    await sendAccountEmail(
      tx,
      user.email,
      passwordChangedEmail(user, deps.portalUrl, nowMs, "changed"),
      nowMs,
    );
  });
  await endSignInsOf(deps, user.id, principal.familyId);
}

/** A verification link to the account's address, emailed in the caller's transaction. */
async function sendVerificationLink(
  tx: SQL,
  deps: Pick<AccountDeps, "portalUrl">,
  user: { id: string; email: string; fullName: string },
  nowMs: number,
): Promise<void> {
  const token = await issueLink(
    tx,
    { userId: user.id, purpose: "verify", email: user.email },
    nowMs,
  );
  await sendAccountEmail(tx, user.email, verificationEmail(user, deps.portalUrl, token), nowMs);
}

/**
 * Registration's emails (auth's hook), in its transaction: a new account's verification link,
 * or, for an address that has an account, a notice to its owner (sign in, or reset), unless the
 * account is disabled or the address's hourly quota of account emails is spent. The quota is
 * spent either way, so both take the same work.
 */
export const registrationEmails = (
  deps: Pick<AccountDeps, "portalUrl" | "now" | "store" | "limits">,
): Registration => ({
  async created(tx, user) {
    await spendEmailQuota(deps, `address:${digestOf(user.email)}`);
    await sendVerificationLink(tx, deps, user, deps.now());
  },
  async taken(tx, account) {
    const quota = await spendEmailQuota(deps, `address:${digestOf(account.email)}`);
    if (!quota.allowed || !account.active) return;
    await sendAccountEmail(
      tx,
      account.email,
      accountExistsEmail(account, deps.portalUrl),
      deps.now(),
    );
  },
});

export async function verificationStatus(
  deps: AccountDeps,
  userId: string,
): Promise<EmailVerification> {
  const account = await deps.db.run((sql) => findAccount(sql, userId));
  if (!account) throw notFound("Account");
  const verifiedAt = account.emailVerifiedAt;
  return { email: account.email, verified: verifiedAt !== null, verifiedAt };
}

/** Another verification link (the newest one only works); counted against the account. */
export async function resendVerification(deps: AccountDeps, user: User): Promise<string> {
  const status = await verificationStatus(deps, user.id);
  if (status.verified) {
    throw problem("EMAIL_ALREADY_VERIFIED", { detail: `${status.email} is already verified` });
  }
  await assertEmailQuota(deps, user.id);
  const nowMs = deps.now();
  await deps.db.transaction((tx) => sendVerificationLink(tx, deps, user, nowMs));
  return `A verification link has been sent to ${user.email}`;
}

/**
 * Opening the link proves the address. It must still be the account's address: a link sent
 * before an email change does not verify the new one (the change voids it anyway).
 */
export async function confirmVerification(deps: AccountDeps, token: string): Promise<void> {
  const nowMs = deps.now();
  await deps.db.transaction(async (tx) => {
    const link = await redeemLink(tx, token, "verify", nowMs);
    const account = await findAccount(tx, link.user_id);
    if (account?.email !== link.email) {
      throw problem("INVALID_ACCOUNT_TOKEN", {
        detail: "This link was sent to an address the account no longer has",
      });
    }
    await markEmailVerified(tx, account.id, nowMs);
  });
}

/**
 * Asks to move the account to `newEmail`, given the password. A link goes to the new address
 * and a notice to the current one; nothing changes until the link is opened. The answer is the
 * same whether or not `newEmail` already has an account (a conflict is refused when the link
 * is used), so this cannot be used to find out which addresses are registered.
 */
export async function requestEmailChange(
  deps: AccountDeps,
  principal: Principal,
  body: EmailChangeRequest,
  clientIp: string,
): Promise<string> {
  const { user } = principal;
  const newEmail = normalizeEmail(body.newEmail);
  await confirmPassword(deps, user.email, body.password, clientIp);
  if (newEmail === user.email) {
    throw invalidField("/body/newEmail", "is already the account's email address", "duplicate");
  }
  await assertEmailQuota(deps, user.id);
  const nowMs = deps.now();
  await deps.db.transaction(async (tx) => {
    const token = await issueLink(
      tx,
      { userId: user.id, purpose: "change_email", email: newEmail },
      nowMs,
    );
    await sendAccountEmail(tx, newEmail, emailChangeLinkEmail(user, deps.portalUrl, token), nowMs);
    const notice = emailChangeRequestedNotice(user, deps.portalUrl, newEmail);
    await sendAccountEmail(tx, user.email, notice, nowMs);
  });
  return `A confirmation link has been sent to ${newEmail}; the address changes when it is opened`;
}

/**
 * The new address, confirmed by its link: it becomes the account's (and is verified), the old
 * address is told, and the account's other links end (they were sent to the old address).
 * An address taken meanwhile by another account is 409 EMAIL_TAKEN and changes nothing.
 */
export async function confirmEmailChange(deps: AccountDeps, token: string): Promise<void> {
  const nowMs = deps.now();
  const taken = () =>
    problem("EMAIL_TAKEN", { detail: "Another account already uses this email address" });
  try {
    await deps.db.transaction(async (tx) => {
      const link = await redeemLink(tx, token, "change_email", nowMs);
      const account = await findAccount(tx, link.user_id);
      if (!account) throw notFound("Account");
      const [other] = await tx`SELECT id FROM users WHERE email = ${link.email}`;
      if (other) throw taken();
      await setEmail(tx, account.id, link.email, nowMs);
      await voidTokens(tx, account.id, ["reset", "verify", "change_email"], nowMs);
      await sendAccountEmail(
        tx,
        account.email,
        emailChangedNotice(account, link.email, nowMs),
        nowMs,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}
