import { Elysia } from "elysia";
import { LANGUAGE_SWITCH_PATH, LANGUAGES, pickLanguage } from "../../client/portal/i18n/index.ts";
import { PORTAL_RETURN, returnPath } from "../../client/portal/return-path.ts";
import { newNonce, pagePolicy } from "../../security.ts";
import type { RenderOptions } from "../pages/service.ts";
import { PREVIEW_PAGES, portalRoutes, TOKEN_PAGES, withPreviews } from "./model.ts";
import { languageCookie, renderPortalPage } from "./service.ts";

export type PortalDeps = { render: () => RenderOptions };

/**
 * The admissions portal's pages. No prefix: besides `/portal/…`, the paths the admissions API
 * puts in its emails (`/account/…`) and Stripe's return page (`/payments/return`) are fixed
 * elsewhere (docs/admissions/), so the routes are listed in one table (client/portal/routes.ts).
 * Every page: the strict CSP, Referrer-Policy no-referrer (a page opened from an emailed link must
 * not hand its URL onward), and a language read from the visitor's choice or Accept-Language.
 * The choice is made at `/portal/language/<language>`, which remembers it and sends the visitor
 * back.
 */
export const portal = ({ render }: PortalDeps) => {
  const app = new Elysia({ name: "portal" });
  for (const { page, path } of portalRoutes()) {
    app.get(path, ({ request }) => {
      const lang = pickLanguage(
        request.headers.get("cookie"),
        request.headers.get("accept-language"),
      );
      const styleNonce = newNonce();
      return new Response(renderPortalPage(page, lang, { ...render(), styleNonce }), {
        headers: {
          "content-type": "text/html; charset=utf-8",
          // A page opened with a token in its address is never stored by a cache.
          "cache-control": TOKEN_PAGES.includes(page) ? "no-store" : "no-cache",
          vary: "cookie, accept-language",
          "content-security-policy": PREVIEW_PAGES.includes(page)
            ? withPreviews(pagePolicy(styleNonce))
            : pagePolicy(styleNonce),
          "referrer-policy": "no-referrer",
        },
      });
    });
  }
  // The language switch (client/portal/i18n/use.ts chooseLanguage). The cookie is set here, on
  // a redirect, because a browser stores a response's cookies before it follows the redirect: the
  // page it comes back to is always in the new language.
  for (const language of LANGUAGES) {
    app.get(`${LANGUAGE_SWITCH_PATH}/${language}`, ({ query, request }) => {
      const next = typeof query.next === "string" ? query.next : null;
      return new Response(null, {
        status: 303,
        headers: {
          location: returnPath(next, PORTAL_RETURN, new URL(request.url).origin),
          "set-cookie": languageCookie(language),
          "cache-control": "no-store",
        },
      });
    });
  }
  return app;
};
