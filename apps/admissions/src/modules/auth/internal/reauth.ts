import type { SharedStore } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { problem } from "../../../problems.ts";
import { findUserByEmail } from "../../users/service.ts";
import { assertLoginAllowed, type LoginThrottlePolicy, recordLoginFailure } from "./throttle.ts";

type ReauthDeps = { db: Db; store: SharedStore; now: () => number; throttle: LoginThrottlePolicy };

/**
 * The signed-in user's password, asked again before a change that could take the account over
 * (a new password, a new email). A wrong one counts as a failed login of the account and of the
 * client IP, so a stolen session cannot be used to guess the password: past the login limit
 * this answers 429 LOGIN_THROTTLED like the login does, even with the right password.
 */
export async function confirmPassword(
  deps: ReauthDeps,
  email: string,
  password: string,
  clientIp: string,
): Promise<void> {
  await assertLoginAllowed(deps.store, email, clientIp, deps.now());
  const account = await findUserByEmail(deps.db, email);
  if (account && (await Bun.password.verify(password, account.passwordHash))) return;
  await recordLoginFailure(deps.store, deps.throttle, email, clientIp, deps.now());
  throw problem("PASSWORD_INCORRECT", { detail: "The current password is incorrect" });
}
