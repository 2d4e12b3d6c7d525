import { en, type MessageKey } from "./en.ts";
import { fr } from "./fr.ts";

export type { MessageKey };
export const CATALOGUES = { en, fr } as const;
export type Language = keyof typeof CATALOGUES;
export const LANGUAGES = Object.keys(CATALOGUES) as Language[];
/** Each language named in itself, for the switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", fr: "Français" };

/** The visitor's choice: set by the server when the switch is pressed, read by the server. */
export const LANGUAGE_COOKIE = "portal_lang";
/** The switch: `GET <path>/<language>?next=<page>` sets the cookie and answers 303 to the page. */
export const LANGUAGE_SWITCH_PATH = "/portal/language";

const isLanguage = (value: string | undefined): value is Language =>
  value !== undefined && value in CATALOGUES;

/** The cookie if it names a language we have, else the first of Accept-Language we have, else English. */
export function pickLanguage(cookie: string | null, acceptLanguage: string | null): Language {
  const chosen = cookie
    ?.split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  if (isLanguage(chosen)) return chosen;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().toLowerCase().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { lang: tag.split("-")[0], q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((entry) => entry.lang).find(isLanguage) ?? "en";
}

/** A message with its `{name}` placeholders filled. */
export function translate(
  lang: Language,
  key: MessageKey,
  vars: Record<string, string | number> = {},
): string {
  const text: string = CATALOGUES[lang][key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}
