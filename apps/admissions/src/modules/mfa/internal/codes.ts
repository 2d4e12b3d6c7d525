import { isoAt } from "../../../lib/ids.ts";
import type { User } from "../../users/model.ts";
import type { MfaDeps } from "./deps.ts";
import { enqueueMfaEmail } from "./emails.ts";
import {
  claimStep,
  consumeRecoveryCode,
  findTotp,
  recoveryCodesLeft,
  type Totp,
} from "./queries.ts";
import { recoveryCodeHash } from "./recovery.ts";
import { stepOf } from "./totp.ts";

export async function enabledTotp(deps: MfaDeps, userId: string): Promise<Totp | null> {
  const totp = await deps.db.run((sql) => findTotp(sql, userId));
  return totp?.enabledAt ? totp : null;
}

/** A code from the authenticator, accepted once (its time step is claimed). */
export async function acceptCode(deps: MfaDeps, userId: string, totp: Totp, code: string) {
  const secret = await deps.box.open(userId, totp.sealedSecret);
  const step = stepOf(secret, code, deps.now());
  return step !== null && (await deps.db.run((sql) => claimStep(sql, userId, step)));
}

/** A recovery code, used up; the account is emailed that one was used, and how many are left. */
export async function acceptRecoveryCode(deps: MfaDeps, user: User, code: string) {
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
