import { t } from "elysia";
import { Role } from "../../users/model.ts";

/** Access tokens live 15 minutes; the refresh token (or the session cookie) outlives them. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const ISSUER = "admissions";
export const AUDIENCE = "admissions-api";

export const Claims = t.Object({ sub: t.String(), sid: t.String(), role: Role });
export type AccessClaims = typeof Claims.static;

/** Signs and checks access JWTs; plain functions for the services, no Elysia context needed. */
export type AccessTokens = {
  sign(claims: AccessClaims, nowMs: number): Promise<string>;
  /** The claims of a valid token, else null (bad signature, alg, issuer, audience or expired). */
  verify(token: string, nowMs: number): Promise<AccessClaims | null>;
};
