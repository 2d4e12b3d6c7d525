import type { SharedStore } from "@platform/server";
import type { Db } from "../../db/client.ts";
import { isoAt } from "../../lib/ids.ts";
import { problem } from "../../problems.ts";
import type { SecondFactor } from "../auth/service.ts";
import { isStaff, type User } from "../users/model.ts";
import { findUserByEmail } from "../users/service.ts";
import type { Origin } from "../workflow/model.ts";
import { recordAudit } from "../workflow/service.ts";
import { enqueueMfaEmail } from "./internal/emails.ts";
import { newRecoveryCodes, recoveryCodeHash } from "./internal/recovery.ts";
import { type SecretBox, secretBox } from "./internal/secret.ts";
import { newTotpSecret, otpauthUri, stepOf } from "./internal/totp.ts";
import type { DisableBody, MfaStatus, RecoveryCodes, TotpEnrolment } from "./model.ts";
import {
  claimStep,
  consumeRecoveryCode,
  enableTotp,
  findTotp,
  recoveryCodesLeft,
  removeMfa,
  replaceRecoveryCodes,
  savePending,
  type Totp,
} from "./queries.ts";

export type MfaDeps = {
  db: Db;
  store: SharedStore;
  now: () => number;
  box: SecretBox;
  /** A sign-in's lifetime: how long the mark of one that passed MFA is kept. */
  sessionTtlMs: number;
  /** ADMISSIONS_ADMIN_MFA_REQUIRED. */
  adminRequired: boolean;
  portalUrl: string;
};

export type MfaSettings = Omit<MfaDeps, "box"> & { keyMaterial: string };

export const mfaDeps = ({ keyMaterial, ...rest }: MfaSettings): MfaDeps => ({
  ...rest,
  box: secretBox(keyMaterial),
});

/** An enrolment not confirmed within this is dropped: start again. */
export const ENROLMENT_TTL_MS = 15 * 60_000;
const PREFIX = "/api/v1/mfa";

const passedKey = (familyId: string) => `mfa:passed:${familyId}`;
const mustEnrol = (deps: MfaDeps, user: User) => deps.adminRequired && user.role === "admin";
/** Routes an admin who must enrol can still use: enrolment itself, and their own sign-in. */
const isEnrolmentPath = (path: string) =>
  [PREFIX, "/api/v1/auth"].some((p) => path === p || path.startsWith(`${p}/`));

const enabledTotp = async (deps: MfaDeps, userId: string) => {
  const totp = await deps.db.run((sql) => findTotp(sql, userId));
  return totp?.enabledAt ? totp : null;
};

/** A code from the authenticator, accepted once (its time step is claimed). */
async function acceptCode(deps: MfaDeps, userId: string, totp: Totp, code: string) {
  const secret = await deps.box.open(userId, totp.sealedSecret);
  const step = stepOf(secret, code, deps.now());
  return step !== null && (await deps.db.run((sql) => claimStep(sql, userId, step)));
}

/** A recovery code, used up; the account is emailed that one was used, and how many are left. */
async function acceptRecoveryCode(deps: MfaDeps, user: User, code: string) {
  const at = isoAt(deps.now());
  return deps.db.transaction(async (tx) => {
    if (!(await consumeRecoveryCode(tx, user.id, recoveryCodeHash(code), at))) return false;
    const codesLeft = await recoveryCodesLeft(tx, user.id);
    await enqueueMfaEmail(tx, deps.portalUrl, user.email, "mfa.recovery_code_used", at, {
      codesLeft,
    });
    return true;
  });
}

/** Auth's view of MFA (see `SecondFactor`); app.ts plugs it into the auth deps. */
export function mfaSecondFactor(deps: MfaDeps): SecondFactor {
  return {
    async verify(user, codes) {
      // Only staff enrol; an applicant's sign-in never costs a query here.
      if (!isStaff(user.role)) return "not-enrolled";
      const totp = await enabledTotp(deps, user.id);
      if (!totp) return "not-enrolled";
      if (codes.otp !== undefined) {
        return (await acceptCode(deps, user.id, totp, codes.otp)) ? "passed" : "invalid";
      }
      if (codes.recoveryCode !== undefined) {
        return (await acceptRecoveryCode(deps, user, codes.recoveryCode)) ? "passed" : "invalid";
      }
      return "missing";
    },
    async passed(familyId) {
      await deps.store.set(passedKey(familyId), "1", deps.sessionTtlMs);
    },
    async standing(user, familyId, path) {
      if (!isStaff(user.role)) return "ok";
      if (await enabledTotp(deps, user.id)) {
        return (await deps.store.get(passedKey(familyId))) ? "ok" : "stale";
      }
      if (mustEnrol(deps, user) && path !== null && !isEnrolmentPath(path)) return "enrol";
      return "ok";
    },
  };
}

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
