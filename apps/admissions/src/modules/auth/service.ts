import { jwt } from "@elysiajs/jwt";
import { HttpProblem } from "@platform/server";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound, problem } from "../../problems.ts";
import type { PasswordCost, User } from "../users/model.ts";
import {
  findUserByEmail,
  findUserById,
  hashPassword,
  normalizeEmail,
  type Registration,
  registerUser,
} from "../users/service.ts";
import { fromBearer, fromCookie, invalidToken } from "./internal/credentials.ts";
import type { AuthDeps, Credentials, Principal } from "./internal/deps.ts";
import { deviceOf } from "./internal/device.ts";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  type AccessTokens,
  AUDIENCE,
  Claims,
  ISSUER,
} from "./internal/jwt.ts";
import {
  endOwnSignIn,
  endSignIn,
  liveSignIns,
  openSignIn,
  type SignInOrigin,
  type Stores,
  touchSignIn,
} from "./internal/registry.ts";
import { standingOf, verifySecondFactor } from "./internal/second-factor.ts";
import { findSession, revokeFamily, rotateRefreshToken } from "./internal/sessions.ts";
import {
  assertLoginAllowed,
  type LoginThrottlePolicy,
  recordLoginFailure,
} from "./internal/throttle.ts";
import type { LoginBody, LoginResult, RegisterBody, Session, TokenPair } from "./model.ts";

/*
 * Who is calling: registration, sign-in (password, then the second factor the mfa module
 * plugs in), access and refresh tokens, the session cookie with its CSRF token, and each
 * account's sign-ins (listed and ended by their owner, ended by a password change or reset).
 */

export type { SecondFactor, SecondFactorCodes } from "./internal/second-factor.ts";
export type { AuthDeps, Credentials, LoginThrottlePolicy, Principal };

/** Signs and checks access JWTs; plain functions for the services, no Elysia context needed. */
export function accessTokens(secret: string): AccessTokens {
  const signer = jwt({
    name: "accessJwt",
    secret,
    alg: "HS256",
    iss: ISSUER,
    aud: AUDIENCE,
    schema: Claims,
  }).decorator.accessJwt;
  return {
    sign: ({ sub, sid, role }, nowMs) =>
      signer.sign({ sub, sid, role, exp: Math.floor(nowMs / 1000) + ACCESS_TOKEN_TTL_SECONDS }),
    async verify(token, nowMs) {
      // The algorithm is pinned: a token saying `alg: none`, or any algorithm but HS256, is
      // refused before its signature is even looked at.
      const payload = await signer.verify(token, {
        algorithms: ["HS256"],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: new Date(nowMs),
        requiredClaims: ["exp", "sub", "sid"],
      });
      return payload ? { sub: payload.sub, sid: payload.sid, role: payload.role } : null;
    },
  };
}

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

/** The CSRF token of a cookie session, for clients that lost the one login returned. */
export async function csrfTokenFor(deps: AuthDeps, sessionToken: string | undefined) {
  const session = sessionToken ? await findSession(deps.store, sessionToken) : null;
  if (!session) {
    throw new HttpProblem("UNAUTHORIZED", { detail: "No valid session cookie was sent" });
  }
  return { csrfToken: session.csrfToken };
}

/** The answer to every registration: whether the address had an account is not told. */
export const REGISTRATION_ACCEPTED =
  "Check your email: we have sent a message to this address about your account";

const NO_EMAILS: Registration = { created: async () => {}, taken: async () => {} };

/**
 * Registers an applicant. A new address gets its account and a verification link; an address
 * that has an account is left as it is, and its owner is told (sign in, or reset). The answer
 * is the same either way, and so is the work before it: the password is hashed (the slow part)
 * and one transaction writes one email, so neither status, body nor timing says which it was
 * (benchmarks/admissions/registration-timing.ts measures the last).
 */
export async function register(
  deps: Pick<AuthDeps, "db" | "now" | "passwordCost" | "registration">,
  body: RegisterBody,
): Promise<string> {
  const passwordHash = await hashPassword(body.password, deps.passwordCost);
  await registerUser(
    deps.db,
    { email: body.email, fullName: body.fullName, passwordHash },
    deps.now(),
    deps.registration ?? NO_EMAILS,
  );
  return REGISTRATION_ACCEPTED;
}

type ReauthDeps = Pick<AuthDeps, "db" | "store" | "now" | "throttle">;

/**
 * The signed-in user's password, asked again before a change that could take the account over
 * (a new password, a new email). A wrong one counts as a failed login of the account and of the
 * client IP, so a stolen session cannot be used to guess the password: past the login limit
 * this answers 429 LOGIN_THROTTLED like the login does, even with the right password.
 */
export async function confirmPassword(
  deps: ReauthDeps,
  email: string,
  password: string,
  clientIp: string,
): Promise<void> {
  await assertLoginAllowed(deps.store, email, clientIp, deps.now());
  const account = await findUserByEmail(deps.db, email);
  if (account && (await Bun.password.verify(password, account.passwordHash))) return;
  await recordLoginFailure(deps.store, deps.throttle, email, clientIp, deps.now());
  throw problem("PASSWORD_INCORRECT", { detail: "The current password is incorrect" });
}

/*
 * A user's own sign-ins: list them, end one, or end all but this one. Each sign-in is one
 * login: its session cookie, refresh tokens and access tokens end together.
 */

export type SessionsDeps = Stores & { now: () => number };

export async function listSessions(
  deps: SessionsDeps,
  principal: Principal,
  page: Page,
  requestUrl: string,
): Promise<PageOf<Session>> {
  const all = await liveSignIns(deps, principal.user.id);
  const sessions = all.map((signIn) => ({
    id: signIn.id,
    current: signIn.id === principal.familyId,
    device: deviceOf(signIn.userAgent),
    ip: signIn.ip,
    createdAt: signIn.createdAt,
    lastUsedAt: signIn.lastUsedAt,
    expiresAt: signIn.expiresAt,
  }));
  const results = sessions.slice(page.offset, page.offset + page.limit);
  return toPage(requestUrl, page, sessions.length, results);
}

/** Ends one of my sign-ins (this one too). Another account's, or an unknown id: 404. */
export async function endSession(deps: SessionsDeps, principal: Principal, id: string) {
  if (!(await endOwnSignIn(deps, principal.user.id, id))) throw notFound("Session");
}

/** Ends every sign-in of mine but the one this request was made with. */
export async function endOtherSessions(deps: SessionsDeps, principal: Principal) {
  return { ended: await endSignInsOf(deps, principal.user.id, principal.familyId) };
}

/**
 * Ends every sign-in of the account but `keep` (null: all of them); how many were alive. A
 * password change or reset ends the others (modules/account, modules/staff).
 */
export async function endSignInsOf(
  deps: Stores,
  userId: string,
  keep: string | null,
): Promise<number> {
  const rows = (await deps.db.run(
    (sql) => sql`SELECT id FROM user_sessions WHERE user_id = ${userId}`,
  )) as { id: string }[];
  let ended = 0;
  for (const { id } of rows) {
    if (id !== keep && (await endSignIn(deps, id))) ended++;
  }
  return ended;
}
