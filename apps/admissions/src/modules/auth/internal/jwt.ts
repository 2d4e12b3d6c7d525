import { jwt } from "@elysiajs/jwt";
import { t } from "elysia";
import { Role } from "../../users/model.ts";

/** Access tokens live 15 minutes; the refresh token (or the session cookie) outlives them. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "admissions";
const AUDIENCE = "admissions-api";

const Claims = t.Object({ sub: t.String(), sid: t.String(), role: Role });
export type AccessClaims = typeof Claims.static;

/** Signs and checks access JWTs; plain functions for the services, no Elysia context needed. */
export type AccessTokens = {
  sign(claims: AccessClaims, nowMs: number): Promise<string>;
  /** The claims of a valid token, else null (bad signature, alg, issuer, audience or expired). */
  verify(token: string, nowMs: number): Promise<AccessClaims | null>;
};

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
