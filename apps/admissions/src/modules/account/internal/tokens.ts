import type { SQL } from "bun";
import { problem } from "../../../problems.ts";
import {
  findLiveToken,
  insertToken,
  type TokenPurpose,
  type TokenRow,
  useToken,
  voidTokens,
} from "./queries.ts";

/*
 * The links emailed to an account: 32 random bytes (base64url) in the link, only their SHA-256
 * in the database. Each works once and for a limited time, and only the newest link of each
 * kind works: asking again voids the earlier one.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** How long each kind of link works. A reset is short: it hands over the account. */
export const LINK_LIFETIME_MS: Record<TokenPurpose, number> = {
  reset: 30 * MINUTE,
  verify: 48 * HOUR,
  change_email: 24 * HOUR,
};

export const newLinkToken = (): string =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

export const digestOf = (token: string): string =>
  new Bun.CryptoHasher("sha256").update(token).digest("base64url");

/** A new link of `purpose` for the account, written in the caller's transaction. */
export async function issueLink(
  tx: SQL,
  link: { userId: string; purpose: TokenPurpose; email: string },
  nowMs: number,
): Promise<string> {
  await voidTokens(tx, link.userId, [link.purpose], nowMs);
  const token = newLinkToken();
  await insertToken(tx, { ...link, hash: digestOf(token) }, nowMs, LINK_LIFETIME_MS[link.purpose]);
  return token;
}

const invalidLink = () =>
  problem("INVALID_ACCOUNT_TOKEN", {
    detail: "This link is invalid, has expired or was already used; ask for a new one",
  });

/** Refuses a token that could not be used now, without using it. */
export async function assertLinkLive(
  sql: SQL,
  token: string,
  purpose: TokenPurpose,
  nowMs: number,
): Promise<TokenRow> {
  const row = await findLiveToken(sql, digestOf(token), purpose, nowMs);
  if (!row) throw invalidLink();
  return row;
}

/** Uses the token, once: a second use, an expired or an unknown token is 400. */
export async function redeemLink(
  tx: SQL,
  token: string,
  purpose: TokenPurpose,
  nowMs: number,
): Promise<TokenRow> {
  const row = await useToken(tx, digestOf(token), purpose, nowMs);
  if (!row) throw invalidLink();
  return row;
}
