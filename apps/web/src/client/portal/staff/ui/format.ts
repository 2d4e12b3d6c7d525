import { lang } from "../../i18n/use.ts";

/** A file's size in the page's language: bytes, KB or MB (1024s, as file managers show them). */
export function formatSize(bytes: number): string {
  const [value, unit] =
    bytes < 1024
      ? [bytes, "byte"]
      : bytes < 1024 * 1024
        ? [bytes / 1024, "kilobyte"]
        : [bytes / (1024 * 1024), "megabyte"];
  return new Intl.NumberFormat(lang, {
    style: "unit",
    unit,
    // "599 bytes", "12.5 kB": the long form for bytes, where the short one is "599 byte".
    unitDisplay: unit === "byte" ? "long" : "short",
    maximumFractionDigits: unit === "byte" ? 0 : 1,
  }).format(value);
}

/** A score or total to two decimals at most, as the API rounds them (docs/admissions/review.md). */
export const formatScore = (value: number): string =>
  new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(value);

/** A signed difference: +0.4 more generous, −0.3 stricter, 0 the same. */
export const formatDifference = (value: number): string =>
  new Intl.NumberFormat(lang, { maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(
    value,
  );

/** A time and its end on one line ("3 Jun 2031, 10:00–10:30"), in the page's language and zone. */
export const formatSpan = (startsAt: string, endsAt: string): string =>
  new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).formatRange(
    new Date(startsAt),
    new Date(endsAt),
  );
