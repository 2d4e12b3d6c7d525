import type { SecondFactor } from "../../auth/service.ts";
import { isStaff } from "../../users/model.ts";
import { acceptCode, acceptRecoveryCode, enabledTotp } from "./codes.ts";
import { type MfaDeps, mustEnrol, passedKey } from "./deps.ts";

/** Routes an admin who must enrol can still use: enrolment itself, and their own sign-in. */
const ENROLMENT_PREFIXES = ["/api/v1/mfa", "/api/v1/auth"];
const isEnrolmentPath = (path: string) =>
  ENROLMENT_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));

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
