import type { SQL } from "bun";
import { isoAt } from "../../../lib/ids.ts";
import { problem } from "../../../problems.ts";
import { confirmPassword, endSignInsOf, type Principal } from "../../auth/service.ts";
import { enqueueEmail } from "../../outbox/service.ts";
import { findUserByEmail, hashPassword, normalizeEmail } from "../../users/service.ts";
import type { PasswordChange, PasswordResetConfirm } from "../model.ts";
import { findAccount, markEmailVerified, setPasswordHash, voidTokens } from "../queries.ts";
import type { AccountDeps } from "./deps.ts";
import { type AccountEmail, passwordChangedEmail, passwordResetEmail } from "./emails.ts";
import { spendEmailQuota } from "./limits.ts";
import { assertLinkLive, digestOf, issueLink, redeemLink } from "./tokens.ts";

/** Writes an account email to the outbox, in the caller's transaction. */
export const sendAccountEmail = (tx: SQL, to: string, email: AccountEmail, nowMs: number) =>
  enqueueEmail(tx, { applicationId: null, to, ...email }, isoAt(nowMs));

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
