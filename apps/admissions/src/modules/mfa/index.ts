import { clientGuards, createRateLimiter, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import type { AuthGuard, RateLimitGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { originOf } from "../workflow/service.ts";
import { ConfirmBody, DisableBody, MfaStatus, RecoveryCodes, TotpEnrolment } from "./model.ts";
import {
  confirmEnrolment,
  disableMfa,
  type MfaDeps,
  mfaStatus,
  regenerateRecoveryCodes,
  startEnrolment,
} from "./service.ts";

const tags = ["mfa"];

/** Codes checked per account in 15 minutes on these routes (login has its own throttle). */
export const MFA_ATTEMPTS_PER_WINDOW = 10;

/**
 * Staff two-factor authentication (TOTP and recovery codes). Signing in with it is the login
 * route's `otp` / `recoveryCode`; these routes turn it on and off. Staff only.
 */
export const mfa = (
  deps: MfaDeps & {
    guard: AuthGuard;
    rateLimiting: RateLimitGuard;
    trustedProxies: TrustedProxies;
  },
) => {
  const attempts = createRateLimiter(
    deps.store,
    { name: "mfa-code", limit: MFA_ATTEMPTS_PER_WINDOW, windowMs: 15 * 60_000 },
    deps.now,
  );
  const limited = { rateLimit: { key: "user", limiter: attempts } } as const;
  return new Elysia({ name: "mfa", prefix: "/api/v1/mfa" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.rateLimiting)
    .use(deps.guard)
    .get("/", ({ actor }) => mfaStatus(deps, actor), {
      auth: STAFF,
      response: { 200: MfaStatus, ...problems("FORBIDDEN") },
      detail: { tags, summary: "Your two-factor authentication (staff)", security: readSecurity },
    })
    .post(
      "/totp/",
      async ({ actor, set }) => {
        set.status = 201;
        return startEnrolment(deps, actor);
      },
      {
        auth: STAFF,
        response: { 201: TotpEnrolment, ...problems("FORBIDDEN", "MFA_ALREADY_ENABLED") },
        detail: {
          tags,
          summary: "Start enrolling an authenticator app: a new secret and its otpauth:// URI",
          description:
            "Confirm within 15 minutes with a code (`/totp/confirm/`). Starting again replaces an unconfirmed secret. 409 MFA_ALREADY_ENABLED when MFA is on.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/totp/confirm/",
      ({ actor, clientIp, principal, body }) =>
        confirmEnrolment(deps, originOf(actor, clientIp), principal.familyId, body.code),
      {
        auth: STAFF,
        ...limited,
        ...jsonBody(ConfirmBody),
        response: {
          200: RecoveryCodes,
          ...problems(
            "FORBIDDEN",
            "CONFIRMATION_FAILED",
            "MFA_ENROLMENT_NOT_STARTED",
            "MFA_ALREADY_ENABLED",
            "RATE_LIMITED",
          ),
        },
        detail: {
          tags,
          summary: "Turn MFA on with the app's first code; returns 10 recovery codes, shown once",
          description:
            "Every other sign-in of the account ends (it did not pass MFA); this one continues. 403 CONFIRMATION_FAILED for a wrong code, 409 MFA_ENROLMENT_NOT_STARTED when no enrolment waits.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/disable/",
      ({ actor, clientIp, body }) => disableMfa(deps, originOf(actor, clientIp), body),
      {
        auth: STAFF,
        ...limited,
        ...jsonBody(DisableBody),
        response: {
          200: MfaStatus,
          ...problems("FORBIDDEN", "CONFIRMATION_FAILED", "MFA_NOT_ENABLED", "RATE_LIMITED"),
        },
        detail: {
          tags,
          summary: "Turn MFA off, with the password and a code or recovery code",
          description:
            "403 CONFIRMATION_FAILED when the password or the code is wrong; 409 MFA_NOT_ENABLED when MFA is off.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/recovery-codes/",
      ({ actor, clientIp, body }) =>
        regenerateRecoveryCodes(deps, originOf(actor, clientIp), body.code),
      {
        auth: STAFF,
        ...limited,
        ...jsonBody(ConfirmBody),
        response: {
          200: RecoveryCodes,
          ...problems("FORBIDDEN", "CONFIRMATION_FAILED", "MFA_NOT_ENABLED", "RATE_LIMITED"),
        },
        detail: {
          tags,
          summary: "Ten new recovery codes for a current code; the old ones stop working",
          security: writeSecurity,
        },
      },
    );
};
