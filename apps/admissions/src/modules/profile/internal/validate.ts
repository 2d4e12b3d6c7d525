import { HttpProblem } from "@platform/server";
import type { PersonalDetails } from "../../users/model.ts";
import { COUNTRY_CODES } from "./countries.ts";

/** Applicants are at least this old, and no older than the oldest plausible age. */
export const AGE_RANGE = { min: 13, max: 120 } as const;

type Issue = { path: string; message: string };

const clean = (value: string | null) => (value === null ? null : value.trim());

/** Trimmed text: what is stored and compared. */
export function normalize(details: PersonalDetails): PersonalDetails {
  const address = details.address && {
    lines: details.address.lines.map((line) => line.trim()),
    city: details.address.city.trim(),
    region: clean(details.address.region),
    postcode: clean(details.address.postcode),
    country: details.address.country,
  };
  return {
    legalName: clean(details.legalName),
    preferredName: clean(details.preferredName),
    dateOfBirth: details.dateOfBirth,
    nationality: details.nationality,
    address,
    phone: details.phone,
  };
}

/** Whole years from a YYYY-MM-DD date to `nowMs` (UTC), or null when it is no real date. */
function ageOf(date: string, nowMs: number): number | null {
  const [y, m, d] = date.split("-").map(Number);
  if (y === undefined || m === undefined || d === undefined) return null;
  const born = new Date(Date.UTC(y, m - 1, d));
  // 2007-02-30 would roll over to March: not a date anyone was born on.
  if (born.getUTCMonth() !== m - 1 || born.getUTCDate() !== d) return null;
  const now = new Date(nowMs);
  const beforeBirthday =
    now.getUTCMonth() < m - 1 || (now.getUTCMonth() === m - 1 && now.getUTCDate() < d);
  return now.getUTCFullYear() - y - (beforeBirthday ? 1 : 0);
}

/**
 * The rules a schema cannot say: an assigned country code, a real date of birth giving a
 * plausible age. Every problem is listed at once. (Text, not blank and without control
 * characters, is the request schema's: lib/text.ts, as for every person-facing field.)
 */
export function assertValid(details: PersonalDetails, nowMs: number): void {
  const issues: Issue[] = [];
  const country = (path: string, code: string) => {
    if (!COUNTRY_CODES.has(code)) {
      issues.push({ path, message: `${code} is not an ISO 3166-1 alpha-2 country code` });
    }
  };
  if (details.nationality !== null) country("/body/nationality", details.nationality);
  if (details.address) country("/body/address/country", details.address.country);
  if (details.dateOfBirth !== null) {
    const age = ageOf(details.dateOfBirth, nowMs);
    const path = "/body/dateOfBirth";
    if (age === null) issues.push({ path, message: "is not a date in the calendar" });
    else if (Date.parse(details.dateOfBirth) > nowMs) {
      issues.push({ path, message: "must be in the past" });
    } else if (age < AGE_RANGE.min || age > AGE_RANGE.max) {
      issues.push({
        path,
        message: `gives an age of ${age}: applicants are ${AGE_RANGE.min} to ${AGE_RANGE.max} years old`,
      });
    }
  }
  const [first] = issues;
  if (first) {
    throw new HttpProblem("VALIDATION_FAILED", {
      detail: `Invalid request: ${first.path} ${first.message}`,
      errors: issues,
    });
  }
}
