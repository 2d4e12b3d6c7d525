import {
  LANGUAGE_SWITCH_PATH,
  LANGUAGES,
  type Language,
  type MessageKey,
  translate,
} from "./index.ts";

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

/** Money is minor units and a currency (docs/admissions/README.md, Data); Intl knows each one's digits. */
export function formatMoney(money: { amount: number; currency: string }): string {
  const format = new Intl.NumberFormat(lang, { style: "currency", currency: money.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(money.amount / 10 ** digits);
}

/**
 * The switch: the server remembers the choice (a cookie set on its 303) and sends the visitor
 * back to this page. Not `document.cookie` and a reload: Chromium stores a script's cookie out
 * of process, and the reload could leave before it was stored, showing the old language again.
 */
export function chooseLanguage(language: Language): void {
  const here = location.pathname + location.search + location.hash;
  location.assign(`${LANGUAGE_SWITCH_PATH}/${language}?next=${encodeURIComponent(here)}`);
}
