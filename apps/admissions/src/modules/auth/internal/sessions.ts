import type { SharedStore } from "@platform/server";

/**
 * Sign-in state in the shared store (memory or Redis), so every replica sees the same sessions.
 *
 * A login starts a *family*: one session cookie, the refresh tokens that rotate from it, and the
 * access tokens minted for it (their `sid` claim). Revoking the family (logout, or a reused
 * refresh token) ends all of them at once. Secrets are stored only as SHA-256 digests: a
 * leaked store dump holds no usable token.
 */
export type Family = { userId: string; sessionKey: string };
export type Session = { userId: string; familyId: string; csrfToken: string };
type RefreshRecord = { userId: string; familyId: string };

export type IssuedSession = {
  familyId: string;
  sessionToken: string;
  csrfToken: string;
  refreshToken: string;
};

const familyKey = (familyId: string) => `auth:family:${familyId}`;
const sessionKey = (token: string) => `auth:session:${digest(token)}`;
const refreshKey = (token: string) => `auth:refresh:${digest(token)}`;
const refreshUsedKey = (token: string) => `auth:refresh-used:${digest(token)}`;

/** 256 random bits, URL-safe. */
export const randomToken = (): string =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

const digest = (token: string): string =>
  new Bun.CryptoHasher("sha256").update(token).digest("base64url");

async function readJson<T>(store: SharedStore, key: string): Promise<T | null> {
  const raw = await store.get(key);
  return raw === null ? null : (JSON.parse(raw) as T);
}

export async function startFamily(
  store: SharedStore,
  userId: string,
  ttlMs: number,
): Promise<IssuedSession> {
  // Time-ordered, so an account's sign-ins made in one millisecond still sort oldest first.
  const familyId = Bun.randomUUIDv7();
  const sessionToken = randomToken();
  const csrfToken = randomToken();
  const session: Session = { userId, familyId, csrfToken };
  const family: Family = { userId, sessionKey: sessionKey(sessionToken) };
  await store.set(familyKey(familyId), JSON.stringify(family), ttlMs);
  await store.set(family.sessionKey, JSON.stringify(session), ttlMs);
  const refreshToken = await issueRefreshToken(store, { userId, familyId }, ttlMs);
  return { familyId, sessionToken, csrfToken, refreshToken };
}

async function issueRefreshToken(
  store: SharedStore,
  record: RefreshRecord,
  ttlMs: number,
): Promise<string> {
  const token = randomToken();
  await store.set(refreshKey(token), JSON.stringify(record), ttlMs);
  return token;
}

export const findFamily = (store: SharedStore, familyId: string) =>
  readJson<Family>(store, familyKey(familyId));

export const findSession = (store: SharedStore, sessionToken: string) =>
  readJson<Session>(store, sessionKey(sessionToken));

export async function revokeFamily(store: SharedStore, familyId: string): Promise<void> {
  const family = await findFamily(store, familyId);
  if (family) await store.delete(family.sessionKey);
  await store.delete(familyKey(familyId));
}

export type RotationOutcome =
  | { kind: "rotated"; userId: string; familyId: string; refreshToken: string }
  | { kind: "unknown" }
  | { kind: "revoked" }
  | { kind: "reused" };

/**
 * Trades a refresh token for a new one of the same family. Each token works once: the claim
 * is an atomic set-if-absent, so of two concurrent uses exactly one wins. A second use of a
 * token means it was copied: the whole family is revoked (RFC 9700 §4.14.2).
 */
export async function rotateRefreshToken(
  store: SharedStore,
  refreshToken: string,
  ttlMs: number,
): Promise<RotationOutcome> {
  const record = await readJson<RefreshRecord>(store, refreshKey(refreshToken));
  if (!record) return { kind: "unknown" };
  const firstUse = await store.setIfAbsent(refreshUsedKey(refreshToken), "1", ttlMs);
  if (!firstUse) {
    await revokeFamily(store, record.familyId);
    return { kind: "reused" };
  }
  // The family's lifetime is fixed at login (rotation never extends it), so a revocation racing
  // with a rotation cannot bring the family back.
  if (!(await findFamily(store, record.familyId))) return { kind: "revoked" };
  const next = await issueRefreshToken(store, record, ttlMs);
  return { kind: "rotated", userId: record.userId, familyId: record.familyId, refreshToken: next };
}
