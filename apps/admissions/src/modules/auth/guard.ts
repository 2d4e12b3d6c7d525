import { HttpProblem, rateLimits, type TrustedProxies } from "@platform/server";
import { type Cookie, Elysia } from "elysia";
import type { Role, User } from "../users/model.ts";
import { type AuthDeps, authenticate, type Principal } from "./service.ts";

/** `__Host-`: the browser only accepts it Secure, with Path=/ and no Domain (no cookie tossing). */
export const SESSION_COOKIE = "__Host-admissions_session";
export const CSRF_HEADER = "x-csrf-token";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

type Cookies = Record<string, Cookie<unknown>>;

const resolvePrincipal = (deps: AuthDeps, request: Request, cookie: Cookies) => {
  const sessionToken = cookie[SESSION_COOKIE]?.value;
  return authenticate(deps, {
    authorization: request.headers.get("authorization"),
    sessionToken: typeof sessionToken === "string" ? sessionToken : undefined,
    csrfHeader: request.headers.get(CSRF_HEADER),
    unsafeMethod: !SAFE_METHODS.has(request.method),
    path: new URL(request.url).pathname,
  });
};

const unauthenticated = () =>
  new HttpProblem("UNAUTHORIZED", {
    detail: "Send an access token (Authorization: Bearer) or the session cookie",
    headers: { "www-authenticate": 'Bearer realm="admissions"' },
  });

/**
 * On public routes a browser may still carry the cookie of a session that ended (logout
 * elsewhere, expiry): that caller is simply anonymous. A bad bearer token, which a client sent
 * on purpose, is still refused.
 */
function staleCookie(error: unknown): null {
  if (error instanceof HttpProblem && error.code === "INVALID_SESSION") return null;
  // An admin who has yet to enrol in MFA sees public pages as the public does.
  if (error instanceof HttpProblem && error.code === "MFA_ENROLMENT_REQUIRED") return null;
  throw error;
}

/**
 * Authentication as route options: `auth: true` (anyone signed in), `auth: ["admin"]` (those
 * roles only) or `optionalAuth: true` (public, but staff may see more). Credentials are checked
 * in the transform phase, before body validation, so an anonymous caller learns nothing from
 * validation errors; the principal then reaches handlers through `resolve`.
 */
export function authGuard(deps: AuthDeps) {
  const principals = new WeakMap<Request, Principal | null>();
  const principalOf = (request: Request) => principals.get(request) ?? null;
  return new Elysia({ name: "auth-guard" }).macro({
    auth: (allowed: true | readonly Role[]) => ({
      async transform({ request, cookie }) {
        const principal = await resolvePrincipal(deps, request, cookie);
        if (!principal) throw unauthenticated();
        if (allowed !== true && !allowed.includes(principal.user.role)) {
          throw new HttpProblem("FORBIDDEN", {
            detail: `This action needs the role ${allowed.join(" or ")}`,
          });
        }
        principals.set(request, principal);
      },
      resolve({ request }) {
        const principal = principalOf(request);
        if (!principal) throw unauthenticated();
        return { principal, actor: principal.user };
      },
    }),
    optionalAuth: (_: true) => ({
      async transform({ request, cookie }) {
        principals.set(request, await resolvePrincipal(deps, request, cookie).catch(staleCookie));
      },
      resolve: ({ request }): { viewer: User | null } => ({
        viewer: principalOf(request)?.user ?? null,
      }),
    }),
  });
}

export type AuthGuard = ReturnType<typeof authGuard>;

/**
 * The `rateLimit` route option (@platform/server): `key: "user"` spends the signed-in
 * account's quota, the `actor` this guard resolves, so list `auth` before `rateLimit`.
 */
export const rateLimitGuard = (trusted: TrustedProxies) =>
  rateLimits({
    trusted,
    userOf: (context) => {
      const { actor } = context as { actor?: { id?: unknown } };
      return typeof actor?.id === "string" ? actor.id : null;
    },
  });

export type RateLimitGuard = ReturnType<typeof rateLimitGuard>;
