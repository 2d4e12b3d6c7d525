import { timingSafeEqual } from "node:crypto";
import { HttpProblem, type SharedStore } from "@platform/server";
import type { Db } from "../../db/client.ts";
import { problem } from "../../problems.ts";
import type { PasswordCost, User } from "../users/model.ts";
import {
  findUserByEmail,
  findUserById,
  normalizeEmail,
  type Registration,
} from "../users/service.ts";
import { ACCESS_TOKEN_TTL_SECONDS, type AccessTokens } from "./internal/jwt.ts";
import { endSignIn, openSignIn, type SignInOrigin, touchSignIn } from "./internal/registry.ts";
import { type SecondFactor, standingOf, verifySecondFactor } from "./internal/second-factor.ts";
import { findFamily, findSession, revokeFamily, rotateRefreshToken } from "./internal/sessions.ts";
import {
  assertLoginAllowed,
  type LoginThrottlePolicy,
  recordLoginFailure,
} from "./internal/throttle.ts";
import type { LoginBody, LoginResult, TokenPair } from "./model.ts";

export { accessTokens } from "./internal/jwt.ts";
// Re-authentication and each account's sign-ins: the account and sessions features use these.
export { confirmPassword } from "./internal/reauth.ts";
export { REGISTRATION_ACCEPTED, register } from "./internal/register.ts";
export {
  endOwnSignIn,
  endSignInsOf,
  liveSignIns,
  type SignIn,
  type SignInOrigin,
} from "./internal/registry.ts";
export type { SecondFactor, SecondFactorCodes } from "./internal/second-factor.ts";
export type { LoginThrottlePolicy } from "./internal/throttle.ts";

export type AuthDeps = {
  db: Db;
  store: SharedStore;
  tokens: AccessTokens;
  now: () => number;
  /** Lifetime of a sign-in: its session cookie and refresh tokens. */
  sessionTtlMs: number;
  passwordCost: PasswordCost;
  throttle: LoginThrottlePolicy;
  /**
   * Registration's emails (the account feature's, wired by app.ts): the new account's
   * verification link, or a notice to the owner of an address that has an account.
   */
  registration?: Registration;
  /** The mfa module, plugged in by app.ts; without it, a password alone signs in. */
  secondFactor?: SecondFactor;
};

/** Who is calling, and with which credential. */
export type Principal = { user: User; via: "bearer" | "cookie"; familyId: string };

// Unknown emails are checked against this hash too, so response time does not tell which
// emails have accounts.
const dummyHashes = new Map<string, Promise<string>>();
function dummyHash(cost: PasswordCost): Promise<string> {
  const key = `${cost.memoryCost}:${cost.timeCost}`;
  let hash = dummyHashes.get(key);
  if (!hash) {
    hash = Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id", ...cost });
    dummyHashes.set(key, hash);
  }
  return hash;
}

export async function login(
  deps: AuthDeps,
  body: LoginBody,
  clientIp: string,
  userAgent: string | null = null,
): Promise<{ result: LoginResult; sessionToken: string }> {
  const email = normalizeEmail(body.email);
  await assertLoginAllowed(deps.store, email, clientIp, deps.now());
  const account = await findUserByEmail(deps.db, email);
  const passwordOk = await Bun.password.verify(
    body.password,
    account?.passwordHash ?? (await dummyHash(deps.passwordCost)),
  );
  if (!account || !passwordOk) {
    await recordLoginFailure(deps.store, deps.throttle, email, clientIp, deps.now());
    throw problem("INVALID_CREDENTIALS", { detail: "The email or password is incorrect" });
  }
  const { passwordHash: _, ...user } = account;
  if (!user.active) throw problem("ACCOUNT_DISABLED", { detail: "This account is disabled" });
  const factor = await verifySecondFactor(deps, user, body, email, clientIp);
  const origin: SignInOrigin = { ip: clientIp, userAgent };
  const issued = await openSignIn(deps, account, origin);
  // The password changed while this login was checking it: the login fails like a wrong one.
  if (!issued)
    throw problem("INVALID_CREDENTIALS", { detail: "The email or password is incorrect" });
  if (factor === "passed") await deps.secondFactor?.passed(issued.familyId);
  const tokens = await tokenPair(deps, user, issued.familyId, issued.refreshToken);
  return {
    result: { ...tokens, csrfToken: issued.csrfToken, user },
    sessionToken: issued.sessionToken,
  };
}

async function tokenPair(
  deps: AuthDeps,
  user: User,
  familyId: string,
  refreshToken: string,
): Promise<TokenPair> {
  const accessToken = await deps.tokens.sign(
    { sub: user.id, sid: familyId, role: user.role },
    deps.now(),
  );
  return {
    accessToken,
    tokenType: "Bearer",
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    refreshToken,
    refreshExpiresIn: Math.floor(deps.sessionTtlMs / 1000),
  };
}

export async function refresh(deps: AuthDeps, refreshToken: string): Promise<TokenPair> {
  const outcome = await rotateRefreshToken(deps.store, refreshToken, deps.sessionTtlMs);
  switch (outcome.kind) {
    case "unknown":
    case "revoked":
      throw problem("INVALID_REFRESH_TOKEN", {
        detail: "The refresh token is unknown, expired or revoked; log in again",
      });
    case "reused":
      throw problem("REFRESH_TOKEN_REUSED", {
        detail: "This refresh token was already used; the sign-in it belongs to has been revoked",
      });
  }
  const user = await findUserById(deps.db, outcome.userId);
  if (!user?.active) {
    await revokeFamily(deps.store, outcome.familyId);
    throw problem("INVALID_REFRESH_TOKEN", { detail: "The account is no longer active" });
  }
  if (!(await touchSignIn(deps, outcome.familyId))) {
    throw problem("INVALID_REFRESH_TOKEN", { detail: "This sign-in has ended; log in again" });
  }
  if ((await standingOf(deps, user, outcome.familyId, null)) === "stale") {
    throw problem("INVALID_REFRESH_TOKEN", {
      detail: "This sign-in was made before two-factor authentication was enabled; log in again",
    });
  }
  return tokenPair(deps, user, outcome.familyId, outcome.refreshToken);
}

export async function logout(deps: AuthDeps, principal: Principal): Promise<void> {
  await endSignIn(deps, principal.familyId);
}

export type Credentials = {
  authorization: string | null;
  sessionToken: string | undefined;
  csrfHeader: string | null;
  /** POST, PUT, PATCH, DELETE: the methods a cross-site form or script could send. */
  unsafeMethod: boolean;
  /** The request's path, for the second factor's enrolment rule. */
  path?: string;
};

/**
 * Either credential alone authenticates. An Authorization header, when present, is the one
 * used (a bad one is a 401, never a fall-back to the cookie). The cookie on an unsafe method
 * also needs the session's CSRF token in X-CSRF-Token: browsers attach cookies to cross-site
 * requests, but no other site can read the token. Null when no credential was sent.
 */
export async function authenticate(
  deps: AuthDeps,
  credentials: Credentials,
): Promise<Principal | null> {
  const principal =
    credentials.authorization !== null
      ? await fromBearer(deps, credentials.authorization, credentials.path ?? null)
      : credentials.sessionToken
        ? await fromCookie(deps, credentials)
        : null;
  if (principal && !(await touchSignIn(deps, principal.familyId))) {
    throw principal.via === "bearer"
      ? invalidToken()
      : problem("INVALID_SESSION", { detail: "The session cookie is invalid or expired" });
  }
  return principal;
}

const BEARER = /^Bearer ([\w-]+\.[\w-]+\.[\w-]*)$/i;

const invalidToken = () =>
  problem("INVALID_TOKEN", {
    detail: "The access token is invalid, expired or revoked",
    headers: { "www-authenticate": 'Bearer error="invalid_token"' },
  });

async function fromBearer(
  deps: AuthDeps,
  authorization: string,
  path: string | null,
): Promise<Principal> {
  const invalid = invalidToken;
  const token = BEARER.exec(authorization.trim())?.[1];
  if (!token) throw invalid();
  const claims = await deps.tokens.verify(token, deps.now());
  if (!claims) throw invalid();
  const family = await findFamily(deps.store, claims.sid);
  if (!family || family.userId !== claims.sub) throw invalid();
  const user = await activeUser(deps, claims.sub);
  if (!user) throw invalid();
  if ((await standingOf(deps, user, claims.sid, path)) === "stale") throw invalid();
  return { user, via: "bearer", familyId: claims.sid };
}

async function fromCookie(deps: AuthDeps, credentials: Credentials): Promise<Principal> {
  const session = await findSession(deps.store, credentials.sessionToken ?? "");
  const user = session && (await activeUser(deps, session.userId));
  const invalid = () =>
    problem("INVALID_SESSION", { detail: "The session cookie is invalid or expired" });
  if (!session || !user) throw invalid();
  if ((await standingOf(deps, user, session.familyId, credentials.path ?? null)) === "stale") {
    throw invalid();
  }
  if (credentials.unsafeMethod) assertCsrf(credentials.csrfHeader, session.csrfToken);
  return { user, via: "cookie", familyId: session.familyId };
}

async function activeUser(deps: AuthDeps, id: string): Promise<User | null> {
  const user = await findUserById(deps.db, id);
  return user?.active ? user : null;
}

function assertCsrf(sent: string | null, expected: string): void {
  if (!sent) {
    throw problem("CSRF_TOKEN_MISSING", {
      detail: "Requests authenticated by the session cookie need the X-CSRF-Token header",
    });
  }
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw problem("CSRF_TOKEN_INVALID", { detail: "The X-CSRF-Token header does not match" });
  }
}

/** The CSRF token of a cookie session, for clients that lost the one login returned. */
export async function csrfTokenFor(deps: AuthDeps, sessionToken: string | undefined) {
  const session = sessionToken ? await findSession(deps.store, sessionToken) : null;
  if (!session) {
    throw new HttpProblem("UNAUTHORIZED", { detail: "No valid session cookie was sent" });
  }
  return { csrfToken: session.csrfToken };
}
