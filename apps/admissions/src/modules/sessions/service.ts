import type { SharedStore } from "@platform/server";
import type { Db } from "../../db/client.ts";
import { type Page, type PageOf, toPage } from "../../lib/pagination.ts";
import { notFound } from "../../problems.ts";
import { endOwnSignIn, endSignInsOf, liveSignIns, type Principal } from "../auth/service.ts";
import { deviceOf } from "./internal/device.ts";
import type { Session } from "./model.ts";

export { deviceOf } from "./internal/device.ts";

/*
 * A user's own sign-ins (auth keeps them): list them, end one, or end all but this one. Each
 * sign-in is one login: its session cookie, refresh tokens and access tokens end together.
 */

export type SessionsDeps = { db: Db; store: SharedStore; now: () => number };

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
