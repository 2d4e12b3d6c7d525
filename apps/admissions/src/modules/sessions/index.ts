import { Elysia } from "elysia";
import { noContent, problems, readSecurity, writeSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import { IdParams } from "../../lib/schema.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { SessionPage, SessionQuery, SessionsEnded } from "./model.ts";
import { endOtherSessions, endSession, listSessions, type SessionsDeps } from "./service.ts";

const tags = ["sessions"];

/** The signed-in user's own sign-ins: where they are signed in, and ending them. */
export const sessions = (deps: SessionsDeps & { guard: AuthGuard }) =>
  new Elysia({ name: "sessions", prefix: "/api/v1/sessions" })
    .use(deps.guard)
    .get(
      "/",
      ({ principal, query, request }) => listSessions(deps, principal, pageOf(query), request.url),
      {
        auth: true,
        query: SessionQuery,
        response: { 200: SessionPage },
        detail: {
          tags,
          summary: "My sign-ins: device, IP, created, last used; `current` marks this one",
          security: readSecurity,
        },
      },
    )
    .delete("/", ({ principal }) => endOtherSessions(deps, principal), {
      auth: true,
      response: { 200: SessionsEnded },
      detail: {
        tags,
        summary: "Sign out everywhere else: end every sign-in but this one",
        security: writeSecurity,
      },
    })
    .delete(
      "/:id/",
      async ({ principal, params, set }) => {
        await endSession(deps, principal, params.id);
        set.status = 204;
      },
      {
        auth: true,
        params: IdParams,
        response: problems("NOT_FOUND"),
        detail: {
          tags,
          summary: "End one of my sign-ins (its cookie, refresh and access tokens)",
          security: writeSecurity,
          responses: noContent("Ended"),
        },
      },
    );
