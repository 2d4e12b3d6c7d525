import type { SharedStore } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import { toIso } from "../../../db/dialect.ts";
import { isoAt } from "../../../lib/ids.ts";
import { findFamily, type IssuedSession, revokeFamily, startFamily } from "./sessions.ts";

/*
 * Every sign-in of an account, in the database (`user_sessions`), so a user can list theirs
 * and end one or all of them. The shared store stays the authority on whether a sign-in is
 * alive (every request checks it there); this table is what the store cannot answer: which
 * sign-ins one account has, from where, and when each was last used.
 */

export type RegistryDeps = { db: Db; store: SharedStore; now: () => number; sessionTtlMs: number };
/** Ending sign-ins needs only the two places they live. */
export type Stores = Pick<RegistryDeps, "db" | "store">;

/** Where a sign-in came from: the client IP as the app resolves it, and its User-Agent. */
export type SignInOrigin = { ip: string | null; userAgent: string | null };

export type SignIn = {
  id: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
};

/** An account keeps this many sign-ins; a new one beyond it ends the oldest. */
export const MAX_SIGN_INS = 50;
/** `last_used_at` is written at most this often per sign-in, so reads stay cheap. */
export const LAST_USE_RESOLUTION_MS = 60_000;
const USER_AGENT_MAX = 256;
const lastUseKey = (familyId: string) => `auth:last-use:${familyId}`;

type SignInRow = {
  id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: unknown;
  last_used_at: unknown;
  expires_at: unknown;
};

const toSignIn = (row: SignInRow): SignIn => ({
  id: row.id,
  ip: row.ip,
  userAgent: row.user_agent,
  createdAt: toIso(row.created_at),
  lastUsedAt: toIso(row.last_used_at),
  expiresAt: toIso(row.expires_at),
});

/**
 * Starts a sign-in (auth/internal/sessions.ts) and records it. `passwordHash` is the hash the
 * password was checked against: if it changed while this login was under way (a password
 * change or reset, which ends every other sign-in), the new sign-in is ended at once, so a
 * login racing a password change cannot outlive it. The caller answers it as a failed login.
 */
export async function openSignIn(
  deps: RegistryDeps,
  user: { id: string; passwordHash: string },
  origin: SignInOrigin,
): Promise<IssuedSession | null> {
  const nowMs = deps.now();
  const issued = await startFamily(deps.store, user.id, deps.sessionTtlMs);
  const at = isoAt(nowMs);
  const row = {
    id: issued.familyId,
    user_id: user.id,
    ip: origin.ip,
    user_agent: origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    created_at: at,
    last_used_at: at,
    expires_at: isoAt(nowMs + deps.sessionTtlMs),
  };
  const [current] = await deps.db.transaction(async (tx) => {
    await tx`DELETE FROM user_sessions WHERE user_id = ${user.id} AND expires_at <= ${at}`;
    await tx`INSERT INTO user_sessions ${tx(row)}`;
    return (await tx`SELECT password_hash FROM users WHERE id = ${user.id}`) as {
      password_hash: string;
    }[];
  });
  if (current?.password_hash !== user.passwordHash) {
    await endSignIn(deps, issued.familyId);
    return null;
  }
  await deps.store.set(lastUseKey(issued.familyId), String(nowMs), deps.sessionTtlMs);
  await endBeyondLimit(deps, user.id);
  return issued;
}

async function endBeyondLimit(deps: Stores, userId: string): Promise<void> {
  const rows = (await deps.db.run(
    (sql) => sql`SELECT id FROM user_sessions WHERE user_id = ${userId}
      ORDER BY created_at DESC, id DESC`,
  )) as { id: string }[];
  for (const { id } of rows.slice(MAX_SIGN_INS)) await endSignIn(deps, id);
}

/**
 * Ends one sign-in: its cookie session, refresh tokens and access tokens, and its row. True
 * when it was still alive.
 */
export async function endSignIn(deps: Stores, familyId: string): Promise<boolean> {
  const alive = (await findFamily(deps.store, familyId)) !== null;
  await revokeFamily(deps.store, familyId);
  await deps.db.run((sql) => sql`DELETE FROM user_sessions WHERE id = ${familyId}`);
  return alive;
}

/**
 * Notes that a sign-in was used; false when the registry does not know it. The last write time
 * sits in the store (set at login, kept as long as the sign-in), so most requests cost one
 * store read and no database work. A sign-in with no mark and no row was not opened by
 * `openSignIn` (one from before the registry existed): it is refused, because the list and
 * "end every other sign-in" could not reach it.
 */
export async function touchSignIn(deps: RegistryDeps, familyId: string): Promise<boolean> {
  const nowMs = deps.now();
  const key = lastUseKey(familyId);
  const last = await deps.store.get(key);
  if (last === null) {
    const [row] = await deps.db.run(
      (sql) => sql`SELECT id FROM user_sessions WHERE id = ${familyId}`,
    );
    if (!row) {
      await revokeFamily(deps.store, familyId);
      return false;
    }
  } else if (nowMs - Number(last) < LAST_USE_RESOLUTION_MS) {
    return true;
  }
  await deps.store.set(key, String(nowMs), deps.sessionTtlMs);
  await deps.db.run(
    (sql) => sql`UPDATE user_sessions SET last_used_at = ${isoAt(nowMs)} WHERE id = ${familyId}`,
  );
  return true;
}

/**
 * The account's sign-ins still alive, most recently used first. Rows whose sign-in the store
 * no longer has (ended by refresh-token reuse, or a store that restarted) are dropped here.
 */
export async function liveSignIns(
  deps: Stores & Pick<RegistryDeps, "now">,
  userId: string,
): Promise<SignIn[]> {
  const rows = (await deps.db.run(
    (sql) => sql`SELECT * FROM user_sessions
      WHERE user_id = ${userId} AND expires_at > ${isoAt(deps.now())}
      ORDER BY last_used_at DESC, id DESC`,
  )) as SignInRow[];
  const alive = await Promise.all(
    rows.map(async (row) => (await findFamily(deps.store, row.id))?.userId === userId),
  );
  for (const [i, row] of rows.entries()) {
    if (!alive[i]) await deps.db.run((sql) => sql`DELETE FROM user_sessions WHERE id = ${row.id}`);
  }
  return rows.filter((_, i) => alive[i]).map(toSignIn);
}

/** Ends the account's sign-in `familyId`; false when the account has no such sign-in. */
export async function endOwnSignIn(
  deps: Stores,
  userId: string,
  familyId: string,
): Promise<boolean> {
  const [row] = (await deps.db.run(
    (sql) => sql`SELECT id FROM user_sessions WHERE id = ${familyId} AND user_id = ${userId}`,
  )) as { id: string }[];
  if (!row) return false;
  await endSignIn(deps, familyId);
  return true;
}
