import { clientGuards, createRateLimiter, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import {
  jsonBody,
  problemResponse,
  problemResponses,
  readSecurity,
  writeSecurity,
} from "../../lib/openapi.ts";
import type { AuthGuard, RateLimitGuard } from "../auth/guard.ts";
import {
  Accepted,
  EmailChangeRequest,
  EmailVerification,
  LinkConfirm,
  PasswordChange,
  PasswordResetConfirm,
  PasswordResetRequest,
} from "./model.ts";
import {
  type AccountDeps,
  changePassword,
  confirmEmailChange,
  confirmVerification,
  RESET_REQUESTED,
  requestEmailChange,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  verificationStatus,
} from "./service.ts";

export type AccountRoutesDeps = AccountDeps & {
  guard: AuthGuard;
  rateLimiting: RateLimitGuard;
  trustedProxies: TrustedProxies;
};

const tags = ["account"];
const HOUR = 3_600_000;

/** A 204 route's responses, listed by hand: a 204 has no body schema for the generator. */
const noContent = (description: string, errors: Record<number, string>) => ({
  204: { description },
  ...Object.fromEntries(
    Object.entries(errors).map(([status, text]) => [status, problemResponse(text)]),
  ),
});

const LINK_ERRORS = {
  400: "INVALID_ACCOUNT_TOKEN: the link is unknown, expired or already used",
  415: "Not JSON",
  422: "Body invalid",
  429: "RATE_LIMITED: too many link uses from this address",
};

/**
 * The signed-in account's own security (password, email) and the emailed links that recover
 * or verify an account. The links lead to portal pages, which post their token here.
 */
export const account = (deps: AccountRoutesDeps) => {
  const emailsPerIp = createRateLimiter(
    deps.store,
    { name: "account-emails-ip", limit: deps.limits.emailsPerIpPerHour, windowMs: HOUR },
    deps.now,
  );
  const linkUsesPerIp = createRateLimiter(
    deps.store,
    { name: "account-links-ip", limit: deps.limits.linkUsesPerIpPerHour, windowMs: HOUR },
    deps.now,
  );
  return new Elysia({ name: "account", prefix: "/api/v1/account" })
    .use(clientGuards(deps.trustedProxies))
    .use(deps.rateLimiting)
    .use(deps.guard)
    .post(
      "/password-reset/",
      async ({ body, set }) => {
        await requestPasswordReset(deps, body.email);
        set.status = 202;
        return { detail: RESET_REQUESTED };
      },
      {
        rateLimit: { key: "ip", limiter: emailsPerIp },
        ...jsonBody(PasswordResetRequest),
        response: { 202: Accepted, ...problemResponses(400, 415, 422, 429) },
        detail: {
          tags,
          summary: "Forgot my password: email a reset link",
          description:
            "The same 202 whether or not the address has an account. The link (30 minutes, single use) leads to the portal's /account/reset-password page. Limited per client IP (429) and, silently, per address.",
        },
      },
    )
    .post(
      "/password-reset/confirm/",
      async ({ body, set }) => {
        await resetPassword(deps, body);
        set.status = 204;
      },
      {
        rateLimit: { key: "ip", limiter: linkUsesPerIp },
        ...jsonBody(PasswordResetConfirm),
        detail: {
          tags,
          summary: "Choose a new password with a reset link; signs the account out everywhere",
          responses: noContent("Password set; every sign-in of the account ended", {
            ...LINK_ERRORS,
            403: "ACCOUNT_DISABLED",
          }),
        },
      },
    )
    .post(
      "/password/",
      async ({ principal, body, clientIp, set }) => {
        await changePassword(deps, principal, body, clientIp);
        set.status = 204;
      },
      {
        auth: true,
        ...jsonBody(PasswordChange),
        detail: {
          tags,
          summary: "Change my password; ends every other sign-in",
          description:
            "Needs the current password (403 PASSWORD_INCORRECT). Wrong ones count as failed logins: past the login limit, 429 LOGIN_THROTTLED.",
          security: writeSecurity,
          responses: noContent("Changed; this sign-in stays, every other one ended", {
            401: "No valid credential",
            403: "PASSWORD_INCORRECT, or a cookie without a valid X-CSRF-Token",
            415: "Not JSON",
            422: "Body invalid (the new password is 10 to 128 characters)",
            429: "LOGIN_THROTTLED",
          }),
        },
      },
    )
    .get("/email-verification/", ({ actor }) => verificationStatus(deps, actor.id), {
      auth: true,
      response: { 200: EmailVerification, ...problemResponses(401) },
      detail: { tags, summary: "Whether my email address is verified", security: readSecurity },
    })
    .post(
      "/email-verification/",
      async ({ actor, set }) => {
        const detail = await resendVerification(deps, actor);
        set.status = 202;
        return { detail };
      },
      {
        auth: true,
        rateLimit: { key: "ip", limiter: emailsPerIp },
        response: { 202: Accepted, ...problemResponses(401, 403, 409, 429) },
        detail: {
          tags,
          summary: "Email me a new verification link",
          description:
            "The link (48 hours, single use; only the newest works) leads to the portal's /account/verify-email page. 409 EMAIL_ALREADY_VERIFIED; limited per account and per client IP (429 RATE_LIMITED).",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/email-verification/confirm/",
      async ({ body, set }) => {
        await confirmVerification(deps, body.token);
        set.status = 204;
      },
      {
        rateLimit: { key: "ip", limiter: linkUsesPerIp },
        ...jsonBody(LinkConfirm),
        detail: {
          tags,
          summary: "Verify my email address with the emailed link",
          responses: noContent("Verified", LINK_ERRORS),
        },
      },
    )
    .post(
      "/email-change/",
      async ({ principal, body, clientIp, set }) => {
        const detail = await requestEmailChange(deps, principal, body, clientIp);
        set.status = 202;
        return { detail };
      },
      {
        auth: true,
        rateLimit: { key: "ip", limiter: emailsPerIp },
        ...jsonBody(EmailChangeRequest),
        response: { 202: Accepted, ...problemResponses(400, 401, 403, 415, 422, 429) },
        detail: {
          tags,
          summary: "Change my email address: a link to the new one, a notice to the old one",
          description:
            "Needs the password (403 PASSWORD_INCORRECT; 429 LOGIN_THROTTLED as for logins). The address changes when the link sent to it (24 hours, portal page /account/confirm-email-change) is opened. The same 202 whether or not the new address already has an account.",
          security: writeSecurity,
        },
      },
    )
    .post(
      "/email-change/confirm/",
      async ({ body, set }) => {
        await confirmEmailChange(deps, body.token);
        set.status = 204;
      },
      {
        rateLimit: { key: "ip", limiter: linkUsesPerIp },
        ...jsonBody(LinkConfirm),
        detail: {
          tags,
          summary: "Confirm a new email address with the link sent to it",
          responses: noContent("The account now has the new address, verified", {
            ...LINK_ERRORS,
            409: "EMAIL_TAKEN: another account took the address meanwhile",
          }),
        },
      },
    );
};
