import {
  APPLICANT_ROUTES,
  PORTAL_ROUTES,
  type PortalPageName,
  TOKEN_PAGES,
} from "../../client/portal/routes.ts";
import { PREVIEW_PAGES } from "../../client/portal/staff/routes.ts";

export { APPLICANT_ROUTES, type PortalPageName, PREVIEW_PAGES, TOKEN_PAGES };

/** Each page's route, with and without its trailing slash (links in emails have none). */
export const portalRoutes = () =>
  (Object.entries(PORTAL_ROUTES) as [PortalPageName, string][]).flatMap(([page, path]) => {
    const bare = path.endsWith("/") && path !== "/" ? path.slice(0, -1) : path;
    return bare === path
      ? [
          { page, path },
          { page, path: `${path}/` },
        ]
      : [
          { page, path },
          { page, path: bare },
        ];
  });

/**
 * The staff page that previews documents shows them from blob: URLs (bytes fetched with the
 * session, never a navigation to the download route): images and one frame for PDFs. Only
 * that page's policy allows blob: there; frame-ancestors 'none' (nobody frames us) is unchanged.
 */
export const withPreviews = (policy: string) =>
  `${policy.replace("img-src 'self' data:", "img-src 'self' data: blob:")}; frame-src blob:`;
