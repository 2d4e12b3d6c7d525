import { Elysia } from "elysia";
import type { Db } from "../../db/client.ts";
import { problems, readSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { OutboxPage, OutboxQuery } from "./model.ts";
import { listOutbox } from "./service.ts";

/** What became of applicants' emails, for admins: pending, sent or dead, and why. */
export const outbox = (deps: { db: Db; guard: AuthGuard }) =>
  new Elysia({ name: "outbox", prefix: "/api/v1/staff/outbox" })
    .use(deps.guard)
    .get("/", ({ query, request }) => listOutbox(deps.db, query, pageOf(query), request.url), {
      auth: ["admin"],
      query: OutboxQuery,
      response: { 200: OutboxPage, ...problems("FORBIDDEN") },
      detail: {
        tags: ["staff"],
        summary: "The email outbox (admins): delivery status, attempts and last error",
        security: readSecurity,
      },
    });
