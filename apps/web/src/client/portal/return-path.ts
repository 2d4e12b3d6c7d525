import { APPLICANT_ROUTES, PORTAL_ROUTES } from "./routes.ts";
import { STAFF_ROUTES } from "./staff/routes.ts";

const REGEX_SPECIALS = /[.*+?^${}()|[\]\\]/g;

/** A route (`/portal/applications/:id`) as a test of a whole path: `:id` is one segment, and
 * the trailing slash is optional, as the server serves both (modules/portal/model.ts). */
function routeMatcher(route: string): RegExp {
  const bare = route.length > 1 ? route.replace(/\/$/, "") : route;
  const pattern = bare.replace(REGEX_SPECIALS, "\\$&").replace(/:\w+/g, "[^/]+");
  return new RegExp(`^${pattern}/?$`);
}

/** The pages a return path may name, and where to go when it names none of them. */
export type ReturnPages = { matchers: readonly RegExp[]; fallback: string };

const returnPages = (routes: Record<string, string>, fallback: string): ReturnPages => ({
  matchers: Object.values(routes).map(routeMatcher),
  fallback,
});

export const APPLICANT_RETURN = returnPages(APPLICANT_ROUTES, APPLICANT_ROUTES.applications);
export const STAFF_RETURN = returnPages(STAFF_ROUTES, STAFF_ROUTES.staffQueue);
/** After a language switch: back to whichever portal page it was pressed on. */
export const PORTAL_RETURN = returnPages(PORTAL_ROUTES, APPLICANT_ROUTES.programs);

/**
 * Where to send someone back to (a sign-in's `?next=`, a language switch's): one of `pages` on
 * `origin`, else the fallback. The raw value is never pattern-matched as a string: it is resolved against the
 * origin as a browser resolves it (which drops tabs and newlines, reads `\` as `/`, and takes
 * `//host`, `https:host` and `javascript:` for other origins), and what comes out must be this
 * origin and a portal page. What is returned is that resolved path, query and fragment, never
 * the input: a path that starts with one `/` and a portal segment, so it stays on the origin
 * wherever it is used (`location.assign`, an `href`, a `Location` header).
 */
export function returnPath(next: string | null | undefined, pages: ReturnPages, origin: string) {
  if (!next) return pages.fallback;
  const base = new URL(origin).origin;
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return pages.fallback;
  }
  if (url.origin !== base) return pages.fallback;
  if (!pages.matchers.some((matcher) => matcher.test(url.pathname))) return pages.fallback;
  return url.pathname + url.search + url.hash;
}
