import type { SharedStore } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { PasswordCost, User } from "../../users/model.ts";
import type { Registration } from "../../users/service.ts";
import type { AccessTokens } from "./jwt.ts";
import type { SecondFactor } from "./second-factor.ts";
import type { LoginThrottlePolicy } from "./throttle.ts";

export type AuthDeps = {
  db: Db;
  store: SharedStore;
  tokens: AccessTokens;
  now: () => number;
  /** Lifetime of a sign-in: its session cookie and refresh tokens. */
  sessionTtlMs: number;
  passwordCost: PasswordCost;
  throttle: LoginThrottlePolicy;
  /**
   * Registration's emails (the account feature's, wired by app.ts): the new account's
   * verification link, or a notice to the owner of an address that has an account.
   */
  registration?: Registration;
  /** The mfa module, plugged in by app.ts; without it, a password alone signs in. */
  secondFactor?: SecondFactor;
};

/** Who is calling, and with which credential. */
export type Principal = { user: User; via: "bearer" | "cookie"; familyId: string };

export type Credentials = {
  authorization: string | null;
  sessionToken: string | undefined;
  csrfHeader: string | null;
  /** POST, PUT, PATCH, DELETE: the methods a cross-site form or script could send. */
  unsafeMethod: boolean;
  /** The request's path, for the second factor's enrolment rule. */
  path?: string;
};
