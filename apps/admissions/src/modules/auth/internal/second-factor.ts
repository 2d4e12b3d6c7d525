import type { SharedStore } from "@platform/server";
import { problem } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import type { LoginBody } from "../model.ts";
import { revokeFamily } from "./sessions.ts";
import { type LoginThrottlePolicy, recordLoginFailure } from "./throttle.ts";

/**
 * A second factor, as auth sees it: auth sits below the features and knows no MFA itself.
 * `verify` runs at login once the password matched; `passed` marks the sign-in that started
 * after it; `standing` runs on every request and refresh: a sign-in made without the factor the
 * account now has is `stale` (ended), and an account that must enrol first gets `enrol` on
 * every route but enrolment's (`path` null: a refresh, never refused for that).
 */
export type SecondFactor = {
  verify(
    user: User,
    codes: SecondFactorCodes,
  ): Promise<"not-enrolled" | "passed" | "missing" | "invalid">;
  passed(familyId: string): Promise<void>;
  standing(user: User, familyId: string, path: string | null): Promise<"ok" | "stale" | "enrol">;
};
export type SecondFactorCodes = { otp?: string; recoveryCode?: string };

type FactorDeps = {
  store: SharedStore;
  throttle: LoginThrottlePolicy;
  now: () => number;
  secondFactor?: SecondFactor;
};

/**
 * The code an account with MFA needs beside its password. A wrong one counts as a failed login
 * (the same throttle as passwords, so codes cannot be brute-forced); a missing one does not,
 * since the password was right and the client is only being asked for the code.
 */
export async function verifySecondFactor(
  deps: FactorDeps,
  user: User,
  body: LoginBody,
  email: string,
  clientIp: string,
) {
  if (!deps.secondFactor) return "not-enrolled";
  const verdict = await deps.secondFactor.verify(user, {
    otp: body.otp,
    recoveryCode: body.recoveryCode,
  });
  if (verdict === "missing") {
    throw problem("MFA_REQUIRED", {
      detail: "This account uses two-factor authentication: send `otp` or `recoveryCode`",
    });
  }
  if (verdict === "invalid") {
    await recordLoginFailure(deps.store, deps.throttle, email, clientIp, deps.now());
    throw problem("MFA_INVALID", { detail: "The code is wrong, expired or already used" });
  }
  return verdict;
}

/**
 * The sign-in against the account's second factor. A stale one is ended here and now; an
 * account that must enrol is refused (403) everywhere but enrolment.
 */
export async function standingOf(
  deps: FactorDeps,
  user: User,
  familyId: string,
  path: string | null,
) {
  const standing = (await deps.secondFactor?.standing(user, familyId, path)) ?? "ok";
  if (standing === "stale") await revokeFamily(deps.store, familyId);
  if (standing === "enrol") {
    throw problem("MFA_ENROLMENT_REQUIRED", {
      detail: "Admins must enable two-factor authentication first (POST /api/v1/mfa/totp/)",
    });
  }
  return standing;
}
