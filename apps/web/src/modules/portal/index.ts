import { Elysia } from "elysia";
import { pickLanguage } from "../../client/portal/i18n/index.ts";
import { newNonce, pagePolicy } from "../../security.ts";
import type { RenderOptions } from "../pages/service.ts";
import { PREVIEW_PAGES, portalRoutes, TOKEN_PAGES, withPreviews } from "./model.ts";
import { renderPortalPage } from "./service.ts";

export type PortalDeps = { render: () => RenderOptions };

/**
 * The admissions portal's pages. No prefix: besides `/portal/…`, the paths the admissions API
 * puts in its emails (`/account/…`) and Stripe's return page (`/payments/return`) are fixed
 * elsewhere (docs/admissions.md), so the routes are listed in one table (client/portal/routes.ts).
 * Every page: the strict CSP, Referrer-Policy no-referrer (a page opened from an emailed link must
 * not hand its URL onward), and a language read from the visitor's choice or Accept-Language.
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
  return app;
};
