import { LANGUAGE_NAMES, LANGUAGES } from "../i18n/index.ts";
import { chooseLanguage, lang, t } from "../i18n/use.ts";

/** The portal's languages, each a toggle button (the one in use pressed); both layouts end with it. */
export function LanguageSwitch() {
  return (
    <ul class="languages" aria-label={t("nav.language")}>
      {LANGUAGES.map((code) => (
        <li key={code}>
          <button
            type="button"
            class="link-button"
            lang={code}
            aria-pressed={code === lang}
            onClick={() => chooseLanguage(code)}
            data-testid={`language-${code}`}
          >
            {LANGUAGE_NAMES[code]}
          </button>
        </li>
      ))}
    </ul>
  );
}
