import type { SQL } from "bun";
import { toInt, toIsoOrNull } from "../../../db/dialect.ts";

export type TotpRow = {
  user_id: string;
  secret: string;
  enabled_at: unknown;
  last_used_step: number | null;
  updated_at: unknown;
};

export type Totp = {
  sealedSecret: string;
  enabledAt: string | null;
  /** When the enrolment (or the last change) started. */
  updatedAt: string;
};

export async function findTotp(sql: SQL, userId: string): Promise<Totp | null> {
  const [row] = (await sql`SELECT * FROM mfa_totp WHERE user_id = ${userId}`) as TotpRow[];
  if (!row) return null;
  return {
    sealedSecret: row.secret,
    enabledAt: toIsoOrNull(row.enabled_at),
    updatedAt: toIsoOrNull(row.updated_at) ?? "",
  };
}

/** A new enrolment replaces one still waiting for its code, never an enabled one. */
export async function savePending(tx: SQL, userId: string, sealed: string, at: string) {
  await tx`INSERT INTO mfa_totp ${tx({
    user_id: userId,
    secret: sealed,
    enabled_at: null,
    last_used_step: null,
    created_at: at,
    updated_at: at,
  })} ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret,
    updated_at = excluded.updated_at, last_used_step = NULL
    WHERE mfa_totp.enabled_at IS NULL`;
}

/** Enables a pending enrolment whose first code was for `step`; false when another won. */
export async function enableTotp(tx: SQL, userId: string, step: number, at: string) {
  const result = await tx`UPDATE mfa_totp
    SET enabled_at = ${at}, last_used_step = ${step}, updated_at = ${at}
    WHERE user_id = ${userId} AND enabled_at IS NULL`;
  return result.count === 1;
}

/**
 * Accepts a code's time step once: only a step later than the last accepted one is taken, in
 * one statement, so a code replayed (even concurrently) or an older one never passes.
 */
export async function claimStep(sql: SQL, userId: string, step: number): Promise<boolean> {
  const result = await sql`UPDATE mfa_totp SET last_used_step = ${step}
    WHERE user_id = ${userId} AND enabled_at IS NOT NULL
      AND (last_used_step IS NULL OR last_used_step < ${step})`;
  return result.count === 1;
}

export async function replaceRecoveryCodes(tx: SQL, userId: string, hashes: string[], at: string) {
  await tx`DELETE FROM mfa_recovery_codes WHERE user_id = ${userId}`;
  await tx`INSERT INTO mfa_recovery_codes ${tx(
    hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: at })),
  )}`;
}

/** Marks the code used if it is one of the account's unused ones; false otherwise. */
export async function consumeRecoveryCode(sql: SQL, userId: string, hash: string, at: string) {
  const result = await sql`UPDATE mfa_recovery_codes SET used_at = ${at}
    WHERE user_id = ${userId} AND code_hash = ${hash} AND used_at IS NULL`;
  return result.count === 1;
}

export async function recoveryCodesLeft(sql: SQL, userId: string): Promise<number> {
  const [row] = await sql`SELECT count(*) AS n FROM mfa_recovery_codes
    WHERE user_id = ${userId} AND used_at IS NULL`;
  return toInt(row?.n ?? 0);
}

export async function removeMfa(tx: SQL, userId: string) {
  await tx`DELETE FROM mfa_recovery_codes WHERE user_id = ${userId}`;
  await tx`DELETE FROM mfa_totp WHERE user_id = ${userId}`;
}
