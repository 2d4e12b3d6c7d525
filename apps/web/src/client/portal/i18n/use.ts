import { LANGUAGE_COOKIE, LANGUAGES, type Language, type MessageKey, translate } from "./index.ts";

/** The page's language, as the server chose it (the <html lang> of the shell). */
export const lang: Language = ((): Language => {
  const tag = typeof document === "undefined" ? "en" : document.documentElement.lang;
  return (LANGUAGES as string[]).includes(tag) ? (tag as Language) : "en";
})();

export const t = (key: MessageKey, vars?: Record<string, string | number>) =>
  translate(lang, key, vars);

export const formatDate = (iso: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

export const formatDay = (iso: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date(iso));

/** Money is minor units and a currency (docs/admissions.md, Data); Intl knows each one's digits. */
export function formatMoney(money: { amount: number; currency: string }): string {
  const format = new Intl.NumberFormat(lang, { style: "currency", currency: money.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(money.amount / 10 ** digits);
}

/** The switch: remembered for a year in a cookie the server reads, then the page again. */
export function chooseLanguage(next: Language): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie the server reads; no token.
  document.cookie = `${LANGUAGE_COOKIE}=${next}; Path=/; Max-Age=31536000; SameSite=Lax`;
  location.reload();
}
