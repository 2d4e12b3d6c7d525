import type { Problem } from "@platform/contracts/problem";
import type { PersonalDetails, Profile } from "../../api/types.ts";
import { fieldMessage } from "../../ui/problems.ts";

/** The profile as the form holds it: every field a string, the address lines one per line. */
export type ProfileForm = {
  legalName: string;
  preferredName: string;
  dateOfBirth: string;
  nationality: string;
  phone: string;
  lines: string;
  city: string;
  region: string;
  postcode: string;
  country: string;
};

export const toForm = (p: Profile): ProfileForm => ({
  legalName: p.legalName ?? "",
  preferredName: p.preferredName ?? "",
  dateOfBirth: p.dateOfBirth ?? "",
  nationality: p.nationality ?? "",
  phone: p.phone ?? "",
  lines: p.address?.lines.join("\n") ?? "",
  city: p.address?.city ?? "",
  region: p.address?.region ?? "",
  postcode: p.address?.postcode ?? "",
  country: p.address?.country ?? "",
});

const orNull = (value: string) => value.trim() || null;

/**
 * The PUT body: an empty field is null, and an address left wholly empty is no address. Values
 * are sent as typed (country codes upper-cased): the API judges them and says which are wrong.
 */
export function toDetails(f: ProfileForm): PersonalDetails {
  const lines = f.lines
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const anyAddress = lines.length > 0 || [f.city, f.region, f.postcode, f.country].some(orNull);
  return {
    legalName: orNull(f.legalName),
    preferredName: orNull(f.preferredName),
    dateOfBirth: orNull(f.dateOfBirth),
    nationality: orNull(f.nationality.toUpperCase()),
    phone: orNull(f.phone.replaceAll(" ", "")),
    address: anyAddress
      ? {
          lines,
          city: f.city.trim(),
          region: orNull(f.region),
          postcode: orNull(f.postcode),
          country: f.country.trim().toUpperCase(),
        }
      : null,
  };
}

/** The API's path of each form field (its 422 names `/body/<path>`, or a path inside it). */
export const FIELD_PATHS: Record<keyof ProfileForm, string> = {
  legalName: "legalName",
  preferredName: "preferredName",
  dateOfBirth: "dateOfBirth",
  nationality: "nationality",
  phone: "phone",
  lines: "address/lines",
  city: "address/city",
  region: "address/region",
  postcode: "address/postcode",
  country: "address/country",
};

/** The 422's errors for one field in words, joined (a field may break more than one rule). */
export function errorFor(problem: Problem | null, field: keyof ProfileForm): string | undefined {
  const path = FIELD_PATHS[field];
  const sentences = (problem?.errors ?? [])
    .filter((e) => {
      const p = e.path.replace(/^\/body/, "");
      return p === `/${path}` || p.startsWith(`/${path}/`);
    })
    .map(fieldMessage);
  return sentences.length > 0 ? [...new Set(sentences)].join(" ") : undefined;
}
