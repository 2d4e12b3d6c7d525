import type { SharedStore } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { User } from "../../users/model.ts";
import type { SecretBox } from "./secret.ts";

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

/** The mark of a sign-in that passed MFA (at login, or by confirming the enrolment). */
export const passedKey = (familyId: string) => `mfa:passed:${familyId}`;

/** The account must enrol before using its role's routes. */
export const mustEnrol = (deps: MfaDeps, user: User) => deps.adminRequired && user.role === "admin";
