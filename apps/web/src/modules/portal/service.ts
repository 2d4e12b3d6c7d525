import {
  LANGUAGE_COOKIE,
  type Language,
  type MessageKey,
  translate,
} from "../../client/portal/i18n/index.ts";
import type { PortalPageName } from "../../client/portal/routes.ts";
import { escapeHtml, type RenderOptions, renderDocument } from "../pages/service.ts";

/**
 * A portal page's shell in the visitor's language: heading and description readable before the
 * script runs, and #app naming the page for the portal's one entry script, which loads that
 * page's own chunk.
 */
export function renderPortalPage(
  page: PortalPageName,
  lang: Language,
  opts: RenderOptions,
): string {
  const text = (key: string) => translate(lang, key as MessageKey);
  const title = text(`page.${page}.title`);
  return renderDocument(
    opts,
    {
      path: "/portal/",
      name: title,
      heading: title,
      description: text(`page.${page}.description`),
      script: "portal",
      lang,
      skipLabel: text("page.skip"),
      institution: { homeLabel: text("page.home"), contactLabel: text("page.contact") },
    },
    `<div id="app" data-page="${escapeHtml(page)}"></div><noscript><p>${escapeHtml(text("page.noscript"))}</p></noscript>`,
  );
}

/**
 * The visitor's language for a year. HttpOnly: only the server reads it (the pages take their
 * language from `<html lang>`). A preference, not a credential, so no `__Host-` prefix or Secure:
 * it works on a plain-HTTP development address too.
 */
export const languageCookie = (language: Language) =>
  `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax`;
