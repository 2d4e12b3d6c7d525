import type { SharedStore } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { AfterResponse } from "../../../lib/after-response.ts";
import type { LoginThrottlePolicy } from "../../auth/service.ts";
import type { PasswordCost } from "../../users/model.ts";

export type AccountLimits = {
  /** Account emails (reset, verification and email-change links) per client IP per hour. */
  emailsPerIpPerHour: number;
  /** The same emails per address (reset requests) or per account (the others) per hour. */
  emailsPerAccountPerHour: number;
  /** Uses of emailed links (right or wrong) per client IP per hour. */
  linkUsesPerIpPerHour: number;
};

export type AccountDeps = {
  db: Db;
  store: SharedStore;
  now: () => number;
  passwordCost: PasswordCost;
  /** The login throttle, which re-asking for the password shares. */
  throttle: LoginThrottlePolicy;
  /** The web portal's base URL (no trailing slash): where the emailed links lead. */
  portalUrl: string;
  limits: AccountLimits;
  /** Where a reset request's lookup and email run, after its answer (`requestPasswordReset`). */
  afterResponse: AfterResponse;
};
