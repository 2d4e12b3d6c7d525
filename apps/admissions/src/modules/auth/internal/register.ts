import type { Db } from "../../../db/client.ts";
import type { PasswordCost } from "../../users/model.ts";
import { hashPassword, type Registration, registerUser } from "../../users/service.ts";
import type { RegisterBody } from "../model.ts";

/** The answer to every registration: whether the address had an account is not told. */
export const REGISTRATION_ACCEPTED =
  "Check your email: we have sent a message to this address about your account";

const NO_EMAILS: Registration = { created: async () => {}, taken: async () => {} };

type RegisterDeps = {
  db: Db;
  now: () => number;
  passwordCost: PasswordCost;
  /** The account feature's emails (app.ts wires them); none in tests of other features. */
  registration?: Registration;
};

/**
 * Registers an applicant. A new address gets its account and a verification link; an address
 * that has an account is left as it is, and its owner is told (sign in, or reset). The answer
 * is the same either way, and so is the work before it: the password is hashed (the slow part)
 * and one transaction writes one email, so neither status, body nor timing says which it was
 * (benchmarks/admissions/registration-timing.ts measures the last).
 */
export async function register(deps: RegisterDeps, body: RegisterBody): Promise<string> {
  const passwordHash = await hashPassword(body.password, deps.passwordCost);
  await registerUser(
    deps.db,
    { email: body.email, fullName: body.fullName, passwordHash },
    deps.now(),
    deps.registration ?? NO_EMAILS,
  );
  return REGISTRATION_ACCEPTED;
}
