import type { TString } from "@sinclair/typebox";
import { t } from "elysia";
import { enumOf, Id, Timestamp } from "../../lib/schema.ts";
import { singleLineText } from "../../lib/text.ts";

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
/** A person's name as they give it: one line of text (lib/text.ts). */
export const FullName = singleLineText({
  minLength: 1,
  maxLength: 120,
  examples: ["Ada Lovelace"],
});

export const User = t.Object(
  {
    id: Id,
    email: Email,
    fullName: t.String({ examples: ["Ada Lovelace"] }),
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

type TextOf = (maxLength: number, example: string) => TString;
const storedText: TextOf = (maxLength, example) =>
  t.String({ minLength: 1, maxLength, examples: [example] });
const typedText: TextOf = (maxLength, example) =>
  singleLineText({ minLength: 1, maxLength, examples: [example] });

const addressOf = (text: TextOf) =>
  t.Object({
    lines: t.Array(text(100, "221B Baker Street"), { minItems: 1, maxItems: 4 }),
    city: text(100, "London"),
    region: t.Nullable(text(100, "Greater London")),
    postcode: t.Nullable(text(20, "NW1 6XE")),
    country: CountryCode,
  });

const personalDetailsOf = (text: TextOf) =>
  t.Object({
    legalName: t.Nullable(text(200, "Augusta Ada King")),
    preferredName: t.Nullable(text(100, "Ada")),
    dateOfBirth: t.Nullable(
      t.String({ format: "date", description: "YYYY-MM-DD", examples: ["2007-12-10"] }),
    ),
    nationality: t.Nullable(CountryCode),
    address: t.Nullable(addressOf(text)),
    phone: t.Nullable(
      t.String({
        pattern: "^\\+[1-9][0-9]{6,14}$",
        description: "E.164: +, country code and number, digits only",
        examples: ["+442071234567"],
      }),
    ),
  });

export const Address = addressOf(storedText);

/**
 * An applicant's personal details (their profile), each null until given. Applications carry
 * a copy, so this shape lives with the account rather than in one feature.
 */
export const PersonalDetails = personalDetailsOf(storedText);
export type PersonalDetails = typeof PersonalDetails.static;
/** The same details as the applicant sends them: each text is one line of text (lib/text.ts). */
export const PersonalDetailsInput = personalDetailsOf(typedText);
