import { clientGuards, createRateLimiter, type TrustedProxies } from "@platform/server";
import { Elysia } from "elysia";
import { jsonBody, noContent, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
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

/** What every emailed link's confirmation can answer besides its own errors. */
const LINK_PROBLEMS = ["INVALID_ACCOUNT_TOKEN", "RATE_LIMITED"] as const;

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
        response: { 202: Accepted, ...problems("RATE_LIMITED") },
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
        response: problems(...LINK_PROBLEMS, "ACCOUNT_DISABLED"),
        detail: {
          tags,
          summary: "Choose a new password with a reset link; signs the account out everywhere",
          responses: noContent("Password set; every sign-in of the account ended"),
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
        response: problems("PASSWORD_INCORRECT", "LOGIN_THROTTLED"),
        detail: {
          tags,
          summary: "Change my password; ends every other sign-in",
          operationId: "account.password.change",
          description:
            "Needs the current password (403 PASSWORD_INCORRECT). Wrong ones count as failed logins: past the login limit, 429 LOGIN_THROTTLED.",
          security: writeSecurity,
          responses: noContent("Changed; this sign-in stays, every other one ended"),
        },
      },
    )
    .get("/email-verification/", ({ actor }) => verificationStatus(deps, actor.id), {
      auth: true,
      response: { 200: EmailVerification },
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
        response: { 202: Accepted, ...problems("EMAIL_ALREADY_VERIFIED", "RATE_LIMITED") },
        detail: {
          tags,
          summary: "Email me a new verification link",
          operationId: "account.emailVerification.send",
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
        response: problems(...LINK_PROBLEMS),
        detail: {
          tags,
          summary: "Verify my email address with the emailed link",
          responses: noContent("Verified"),
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
        response: {
          202: Accepted,
          ...problems("PASSWORD_INCORRECT", "LOGIN_THROTTLED", "RATE_LIMITED"),
        },
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
        response: problems(...LINK_PROBLEMS, "EMAIL_TAKEN"),
        detail: {
          tags,
          summary: "Confirm a new email address with the link sent to it",
          responses: noContent("The account now has the new address, verified"),
        },
      },
    );
};
