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

/** ISO 3166-1 alpha-2, upper case (the profile also checks the code is assigned). */
export const CountryCode = t.String({ pattern: "^[A-Z]{2}$", examples: ["GB"] });
const Text = (maxLength: number, example: string) =>
  t.String({ minLength: 1, maxLength, examples: [example] });

export const Address = t.Object({
  lines: t.Array(Text(100, "221B Baker Street"), { minItems: 1, maxItems: 4 }),
  city: Text(100, "London"),
  region: t.Nullable(Text(100, "Greater London")),
  postcode: t.Nullable(Text(20, "NW1 6XE")),
  country: CountryCode,
});

/**
 * An applicant's personal details (their profile), each null until given. Applications carry
 * a copy, so this shape lives with the account rather than in one feature.
 */
export const PersonalDetails = t.Object({
  legalName: t.Nullable(Text(200, "Augusta Ada King")),
  preferredName: t.Nullable(Text(100, "Ada")),
  dateOfBirth: t.Nullable(
    t.String({ format: "date", description: "YYYY-MM-DD", examples: ["2007-12-10"] }),
  ),
  nationality: t.Nullable(CountryCode),
  address: t.Nullable(Address),
  phone: t.Nullable(
    t.String({
      pattern: "^\\+[1-9][0-9]{6,14}$",
      description: "E.164: +, country code and number, digits only",
      examples: ["+442071234567"],
    }),
  ),
});
export type PersonalDetails = typeof PersonalDetails.static;
