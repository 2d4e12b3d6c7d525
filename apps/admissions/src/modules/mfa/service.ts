import { isoAt } from "../../lib/ids.ts";
import { problem } from "../../problems.ts";
import type { User } from "../users/model.ts";
import { findUserByEmail } from "../users/service.ts";
import type { Origin } from "../workflow/model.ts";
import { recordAudit } from "../workflow/service.ts";
import { acceptCode, enabledTotp } from "./internal/codes.ts";
import { type MfaDeps, mustEnrol, passedKey } from "./internal/deps.ts";
import { enqueueMfaEmail } from "./internal/emails.ts";
import {
  consumeRecoveryCode,
  enableTotp,
  findTotp,
  recoveryCodesLeft,
  removeMfa,
  replaceRecoveryCodes,
  savePending,
  type Totp,
} from "./internal/queries.ts";
import { newRecoveryCodes, recoveryCodeHash } from "./internal/recovery.ts";
import { secretBox } from "./internal/secret.ts";
import { newTotpSecret, otpauthUri, stepOf } from "./internal/totp.ts";
import type { DisableBody, MfaStatus, RecoveryCodes, TotpEnrolment } from "./model.ts";

export type { MfaDeps } from "./internal/deps.ts";
export { mfaSecondFactor } from "./internal/second-factor.ts";

export type MfaSettings = Omit<MfaDeps, "box"> & { keyMaterial: string };

export const mfaDeps = ({ keyMaterial, ...rest }: MfaSettings): MfaDeps => ({
  ...rest,
  box: secretBox(keyMaterial),
});

/** An enrolment not confirmed within this is dropped: start again. */
export const ENROLMENT_TTL_MS = 15 * 60_000;

export async function mfaStatus(deps: MfaDeps, user: User): Promise<MfaStatus> {
  return deps.db.run(async (sql) => {
    const totp = await findTotp(sql, user.id);
    const pending = !!totp && !totp.enabledAt && !enrolmentExpired(deps, totp);
    return {
      enabled: !!totp?.enabledAt,
      enabledAt: totp?.enabledAt ?? null,
      enrolmentPending: pending,
      recoveryCodesLeft: totp?.enabledAt ? await recoveryCodesLeft(sql, user.id) : 0,
      required: mustEnrol(deps, user),
    };
  });
}

const enrolmentExpired = (deps: MfaDeps, totp: Totp) =>
  Date.parse(totp.updatedAt) + ENROLMENT_TTL_MS <= deps.now();

const alreadyEnabled = () =>
  problem("MFA_ALREADY_ENABLED", {
    detail: "Two-factor authentication is already on; disable it first to enrol again",
  });

/** A new secret, waiting for its first code; replaces an enrolment not yet confirmed. */
export async function startEnrolment(deps: MfaDeps, user: User): Promise<TotpEnrolment> {
  const nowMs = deps.now();
  const secret = newTotpSecret();
  const sealed = await deps.box.seal(user.id, secret);
  await deps.db.transaction(async (tx) => {
    if ((await findTotp(tx, user.id))?.enabledAt) throw alreadyEnabled();
    await savePending(tx, user.id, sealed, isoAt(nowMs));
  });
  return {
    secret,
    otpauthUri: otpauthUri(secret, user.email),
    expiresAt: isoAt(nowMs + ENROLMENT_TTL_MS),
  };
}

const codeRefused = () =>
  problem("CONFIRMATION_FAILED", { detail: "The code is wrong, expired or already used" });

/**
 * The first code turns MFA on. Every other sign-in of the account then ends at its next use
 * (it did not pass MFA); this one is marked as having passed, since it just proved the code.
 */
export async function confirmEnrolment(
  deps: MfaDeps,
  origin: Origin & { actor: User },
  familyId: string,
  code: string,
): Promise<RecoveryCodes> {
  const user = origin.actor;
  const nowMs = deps.now();
  const at = isoAt(nowMs);
  const totp = await deps.db.run((sql) => findTotp(sql, user.id));
  if (totp?.enabledAt) throw alreadyEnabled();
  if (!totp || enrolmentExpired(deps, totp)) {
    throw problem("MFA_ENROLMENT_NOT_STARTED", {
      detail: "No enrolment is waiting for a code (or it expired): start one first",
    });
  }
  const step = stepOf(await deps.box.open(user.id, totp.sealedSecret), code, nowMs);
  if (step === null) throw codeRefused();
  const recoveryCodes = newRecoveryCodes();
  await deps.db.transaction(async (tx) => {
    if (!(await enableTotp(tx, user.id, step, at))) throw alreadyEnabled();
    await replaceRecoveryCodes(tx, user.id, recoveryCodes.map(recoveryCodeHash), at);
    await recordAudit(tx, origin, { action: "mfa.enabled", subject: subjectOf(user) }, at);
    await enqueueMfaEmail(tx, deps.portalUrl, user.email, "mfa.enabled", at);
  });
  await deps.store.set(passedKey(familyId), "1", deps.sessionTtlMs);
  return { recoveryCodes };
}

const subjectOf = (user: User) => ({ type: "user", id: user.id });

async function assertPassword(deps: MfaDeps, user: User, password: string) {
  const account = await findUserByEmail(deps.db, user.email);
  if (!account || !(await Bun.password.verify(password, account.passwordHash))) {
    throw problem("CONFIRMATION_FAILED", { detail: "The password is incorrect" });
  }
}

async function enabledOrRefuse(deps: MfaDeps, user: User): Promise<Totp> {
  const totp = await enabledTotp(deps, user.id);
  if (!totp) throw problem("MFA_NOT_ENABLED", { detail: "Two-factor authentication is off" });
  return totp;
}

/** Off again, with the password and a code (or a recovery code): a stolen session is not enough. */
export async function disableMfa(
  deps: MfaDeps,
  origin: Origin & { actor: User },
  body: DisableBody,
): Promise<MfaStatus> {
  const user = origin.actor;
  const totp = await enabledOrRefuse(deps, user);
  await assertPassword(deps, user, body.password);
  const ok = /^[0-9]{6}$/.test(body.code)
    ? await acceptCode(deps, user.id, totp, body.code)
    : await deps.db.run((sql) =>
        consumeRecoveryCode(sql, user.id, recoveryCodeHash(body.code), isoAt(deps.now())),
      );
  if (!ok) throw codeRefused();
  const at = isoAt(deps.now());
  await deps.db.transaction(async (tx) => {
    await removeMfa(tx, user.id);
    await recordAudit(tx, origin, { action: "mfa.disabled", subject: subjectOf(user) }, at);
    await enqueueMfaEmail(tx, deps.portalUrl, user.email, "mfa.disabled", at);
  });
  return mfaStatus(deps, user);
}

/** Ten new recovery codes for a current authenticator code; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: MfaDeps,
  origin: Origin & { actor: User },
  code: string,
): Promise<RecoveryCodes> {
  const user = origin.actor;
  const totp = await enabledOrRefuse(deps, user);
  if (!(await acceptCode(deps, user.id, totp, code))) throw codeRefused();
  const recoveryCodes = newRecoveryCodes();
  const at = isoAt(deps.now());
  await deps.db.transaction(async (tx) => {
    await replaceRecoveryCodes(tx, user.id, recoveryCodes.map(recoveryCodeHash), at);
    await recordAudit(
      tx,
      origin,
      { action: "mfa.recovery_codes_regenerated", subject: subjectOf(user) },
      at,
    );
    await enqueueMfaEmail(tx, deps.portalUrl, user.email, "mfa.recovery_codes_regenerated", at);
  });
  return { recoveryCodes };
}
