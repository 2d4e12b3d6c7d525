import { APPLICANT_ROUTES, type PortalPageName, TOKEN_PAGES } from "../../client/portal/routes.ts";

export { APPLICANT_ROUTES, type PortalPageName, TOKEN_PAGES };

/** Each page's route, with and without its trailing slash (links in emails have none). */
export const portalRoutes = () =>
  (Object.entries(APPLICANT_ROUTES) as [PortalPageName, string][]).flatMap(([page, path]) => {
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
