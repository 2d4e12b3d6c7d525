import { clientGuards, createRateLimiter, type TrustedProxies } from "@platform/server";
import { Elysia, t } from "elysia";
import {
  jsonBody,
  noContent,
  problems,
  readSecurity,
  withHeaders,
  writeSecurity,
} from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import { User } from "../users/model.ts";
import { type AuthGuard, type RateLimitGuard, SESSION_COOKIE } from "./guard.ts";
import {
  Accepted,
  CsrfToken,
  LoginBody,
  LoginResult,
  RefreshBody,
  RegisterBody,
  SessionPage,
  SessionQuery,
  SessionsEnded,
  TokenPair,
} from "./model.ts";
import {
  type AuthDeps,
  csrfTokenFor,
  endOtherSessions,
  endSession,
  listSessions,
  login,
  logout,
  refresh,
  register,
} from "./service.ts";

export type AuthRoutesDeps = AuthDeps & {
  guard: AuthGuard;
  rateLimiting: RateLimitGuard;
  trustedProxies: TrustedProxies;
  /** Registrations per client IP per hour. */
  registrationsPerHour: number;
};

const SessionCookie = t.Cookie({ [SESSION_COOKIE]: t.Optional(t.String()) });
const tags = ["auth"];
const sessionTags = ["sessions"];

export const auth = (deps: AuthRoutesDeps) => {
  const registerLimit = createRateLimiter(
    deps.store,
    { name: "register", limit: deps.registrationsPerHour, windowMs: 3_600_000 },
    deps.now,
  );
  const cookieOptions = {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    maxAge: Math.floor(deps.sessionTtlMs / 1000),
  } as const;

  return new Elysia({ name: "auth", prefix: "/api/v1" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.rateLimiting)
    .use(deps.guard)
    .post(
      "/auth/register/",
      async ({ body, set }) => {
        const detail = await register(deps, body);
        set.status = 202;
        return { detail };
      },
      {
        rateLimit: { key: "ip", limiter: registerLimit },
        ...jsonBody(RegisterBody),
        response: { 202: Accepted, ...problems("RATE_LIMITED") },
        detail: {
          tags,
          summary: "Register an applicant account; what happens next arrives by email",
          description:
            "The same 202, headers and body whether or not the address has an account, so registration does not tell which addresses are registered. A new address gets its account and a verification link (48 hours); submitting an application needs it verified (POST /api/v1/account/email-verification/confirm/). An address that has an account is left as it is, and its owner is emailed how to sign in or reset the password (at most the address's hourly quota of account emails). Limited per client IP (429).",
        },
      },
    )
    .post(
      "/auth/login/",
      async ({ body, clientIp, cookie, request }) => {
        const userAgent = request.headers.get("user-agent");
        const { result, sessionToken } = await login(deps, body, clientIp, userAgent);
        cookie[SESSION_COOKIE].set({ value: sessionToken, ...cookieOptions });
        return result;
      },
      {
        ...jsonBody(LoginBody),
        cookie: SessionCookie,
        response: {
          200: withHeaders(LoginResult, "Set-Cookie"),
          ...problems("INVALID_CREDENTIALS", "ACCOUNT_DISABLED", "LOGIN_THROTTLED"),
        },
        detail: {
          tags,
          summary: "Log in: access token, refresh token and the session cookie",
          description:
            "Failed logins are throttled per account and per client IP (429 LOGIN_THROTTLED with Retry-After).",
        },
      },
    )
    .post("/auth/refresh/", ({ body }) => refresh(deps, body.refreshToken), {
      ...jsonBody(RefreshBody),
      response: { 200: TokenPair, ...problems("INVALID_REFRESH_TOKEN", "REFRESH_TOKEN_REUSED") },
      detail: {
        tags,
        summary: "Trade a refresh token for a new pair (rotation)",
        description:
          "Each refresh token works once. Presenting a used one again revokes the whole sign-in (401 REFRESH_TOKEN_REUSED).",
      },
    })
    .post(
      "/auth/logout/",
      async ({ principal, cookie, set }) => {
        await logout(deps, principal);
        // Same attributes as when set: browsers ignore a __Host- cookie update without Secure.
        cookie[SESSION_COOKIE].set({ value: "", ...cookieOptions, maxAge: 0 });
        set.status = 204;
      },
      {
        auth: true,
        cookie: SessionCookie,
        detail: {
          tags,
          summary: "Log out: revokes the session, its refresh tokens and access tokens",
          security: writeSecurity,
          // Listed by hand: a 204 has no body schema for the generator to read.
          responses: {
            204: {
              description: "Signed out; the session cookie is cleared",
              headers: { "Set-Cookie": { $ref: "#/components/headers/Set-Cookie" } },
            },
          },
        },
      },
    )
    .get("/auth/me/", ({ actor }) => actor, {
      auth: true,
      response: { 200: User },
      detail: { tags, summary: "The signed-in account", security: readSecurity },
    })
    .get("/auth/csrf/", ({ cookie }) => csrfTokenFor(deps, cookie[SESSION_COOKIE].value), {
      cookie: SessionCookie,
      response: { 200: CsrfToken, ...problems("UNAUTHORIZED") },
      detail: {
        tags,
        summary: "The CSRF token of the current cookie session",
        security: [{ cookieAuth: [] }],
      },
    })
    .get(
      "/sessions/",
      ({ principal, query, request }) => listSessions(deps, principal, pageOf(query), request.url),
      {
        auth: true,
        query: SessionQuery,
        response: { 200: SessionPage },
        detail: {
          tags: sessionTags,
          summary: "My sign-ins: device, IP, created, last used; `current` marks this one",
          security: readSecurity,
        },
      },
    )
    .delete("/sessions/", ({ principal }) => endOtherSessions(deps, principal), {
      auth: true,
      response: { 200: SessionsEnded },
      detail: {
        tags: sessionTags,
        summary: "Sign out everywhere else: end every sign-in but this one",
        // Not `sessions.deleteAll`: the caller's own sign-in stays.
        operationId: "sessions.deleteOthers",
        security: writeSecurity,
      },
    })
    .delete(
      "/sessions/:id/",
      async ({ principal, params, set }) => {
        await endSession(deps, principal, params.id);
        set.status = 204;
      },
      {
        auth: true,
        params: IdParams,
        response: problems("NOT_FOUND"),
        detail: {
          tags: sessionTags,
          summary: "End one of my sign-ins (its cookie, refresh and access tokens)",
          security: writeSecurity,
          responses: noContent("Ended"),
        },
      },
    );
};
