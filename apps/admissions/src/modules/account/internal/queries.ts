import type { SQL } from "bun";
import { toBool, toIsoOrNull } from "../../../db/dialect.ts";
import { isoAt, newId } from "../../../lib/ids.ts";

/*
 * The account feature's SQL: its links (`account_tokens`) and the account columns it changes
 * (password, email, verification). Tokens arrive here already hashed.
 */

export type TokenPurpose = "reset" | "verify" | "change_email";

export type TokenRow = { user_id: string; email: string };

export async function insertToken(
  tx: SQL,
  token: { userId: string; purpose: TokenPurpose; hash: string; email: string },
  nowMs: number,
  ttlMs: number,
): Promise<void> {
  await tx`INSERT INTO account_tokens ${tx({
    id: newId(),
    user_id: token.userId,
    purpose: token.purpose,
    token_hash: token.hash,
    email: token.email,
    created_at: isoAt(nowMs),
    expires_at: isoAt(nowMs + ttlMs),
    used_at: null,
  })}`;
}

/** The unused, unexpired token with this hash, without using it. */
export async function findLiveToken(
  sql: SQL,
  hash: string,
  purpose: TokenPurpose,
  nowMs: number,
): Promise<TokenRow | null> {
  const [row] = (await sql`SELECT user_id, email FROM account_tokens
    WHERE token_hash = ${hash} AND purpose = ${purpose}
      AND used_at IS NULL AND expires_at > ${isoAt(nowMs)}`) as TokenRow[];
  return row ?? null;
}

/**
 * Uses the token: one statement that only matches an unused, unexpired token, so of two
 * concurrent uses exactly one gets the row back.
 */
export async function useToken(
  tx: SQL,
  hash: string,
  purpose: TokenPurpose,
  nowMs: number,
): Promise<TokenRow | null> {
  const at = isoAt(nowMs);
  const [row] = (await tx`UPDATE account_tokens SET used_at = ${at}
    WHERE token_hash = ${hash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${at}
    RETURNING user_id, email`) as TokenRow[];
  return row ?? null;
}

/** Ends the account's outstanding tokens of these purposes. */
export async function voidTokens(
  tx: SQL,
  userId: string,
  purposes: readonly TokenPurpose[],
  nowMs: number,
): Promise<void> {
  for (const purpose of purposes) {
    await tx`UPDATE account_tokens SET used_at = ${isoAt(nowMs)}
      WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`;
  }
}

export type AccountRow = {
  id: string;
  email: string;
  fullName: string;
  active: boolean;
  emailVerifiedAt: string | null;
};

export async function findAccount(sql: SQL, id: string): Promise<AccountRow | null> {
  const [row] = (await sql`SELECT id, email, full_name, active, email_verified_at
    FROM users WHERE id = ${id}`) as {
    id: string;
    email: string;
    full_name: string;
    active: unknown;
    email_verified_at: unknown;
  }[];
  return row
    ? {
        id: row.id,
        email: row.email,
        fullName: row.full_name,
        active: toBool(row.active),
        emailVerifiedAt: toIsoOrNull(row.email_verified_at),
      }
    : null;
}

export const setPasswordHash = (tx: SQL, userId: string, hash: string, nowMs: number) =>
  tx`UPDATE users SET password_hash = ${hash}, updated_at = ${isoAt(nowMs)} WHERE id = ${userId}`;

/** The address is proven (a link sent to it was opened); an earlier proof is kept. */
export const markEmailVerified = (tx: SQL, userId: string, nowMs: number) =>
  tx`UPDATE users SET email_verified_at = ${isoAt(nowMs)}
    WHERE id = ${userId} AND email_verified_at IS NULL`;

/** A new address, proven by the link that confirmed it. Throws on a taken address (unique). */
export const setEmail = (tx: SQL, userId: string, email: string, nowMs: number) =>
  tx`UPDATE users SET email = ${email}, email_verified_at = ${isoAt(nowMs)},
    updated_at = ${isoAt(nowMs)} WHERE id = ${userId}`;
