import { t } from "elysia";
import { enumOf, Id, Timestamp } from "../../lib/schema.ts";

export const ROLES = ["applicant", "reviewer", "admin"] as const;
export const Role = enumOf(ROLES, {
  description: "applicant: applies; reviewer: reviews applications; admin: runs the platform",
});
export type Role = typeof Role.static;

/** Reviewers and admins: everyone who works for the institution. */
export const STAFF: readonly Role[] = ["reviewer", "admin"];
export const isStaff = (role: Role): boolean => STAFF.includes(role);

export const Email = t.String({ format: "email", maxLength: 254, examples: ["ada@example.org"] });
export const Password = t.String({
  minLength: 10,
  maxLength: 128,
  description: "10 to 128 characters",
  examples: ["correct-horse-battery"],
});
export const FullName = t.String({ minLength: 1, maxLength: 120, examples: ["Ada Lovelace"] });

export const User = t.Object(
  {
    id: Id,
    email: Email,
    fullName: FullName,
    role: Role,
    active: t.Boolean(),
    createdAt: Timestamp,
  },
  { description: "An account; `email` is stored lower-cased" },
);
export type User = typeof User.static;

/** Argon2id cost. Production uses OWASP's minimum (19 MiB, 2 passes); tests use less. */
export type PasswordCost = { memoryCost: number; timeCost: number };
export const PRODUCTION_PASSWORD_COST: PasswordCost = { memoryCost: 19_456, timeCost: 2 };
