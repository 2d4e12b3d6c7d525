import { Elysia } from "elysia";
import type { Db } from "../../db/client.ts";
import { problems, readSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { AuditPage, AuditQuery } from "./model.ts";
import { listAudit } from "./service.ts";

/** The audit log, for admins: read-only (there is no route that changes it). */
export const audit = (deps: { db: Db; guard: AuthGuard }) =>
  new Elysia({ name: "audit", prefix: "/api/v1/staff/audit" })
    .use(deps.guard)
    .get("/", ({ query, request }) => listAudit(deps.db, query, pageOf(query), request.url), {
      auth: ["admin"],
      query: AuditQuery,
      response: { 200: AuditPage, ...problems("FORBIDDEN") },
      detail: {
        tags: ["staff"],
        summary: "The audit log of staff and system actions (admins), newest first",
        description:
          "Who (actor), what (action and details), which application, when and from which client IP. Entries are append-only: the database refuses UPDATE and DELETE on them.",
        security: readSecurity,
      },
    });
