import { timingSafeEqual } from "node:crypto";
import { problem } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import { findUserById } from "../../users/service.ts";
import type { AuthDeps, Credentials, Principal } from "./deps.ts";
import { standingOf } from "./second-factor.ts";
import { findFamily, findSession } from "./sessions.ts";

/* The two credentials, checked: an access token (Bearer), or the session cookie with CSRF. */

const BEARER = /^Bearer ([\w-]+\.[\w-]+\.[\w-]*)$/i;

export const invalidToken = () =>
  problem("INVALID_TOKEN", {
    detail: "The access token is invalid, expired or revoked",
    headers: { "www-authenticate": 'Bearer error="invalid_token"' },
  });

export async function fromBearer(
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

export async function fromCookie(deps: AuthDeps, credentials: Credentials): Promise<Principal> {
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
