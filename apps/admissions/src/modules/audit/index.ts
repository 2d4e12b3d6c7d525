import { Elysia } from "elysia";
import type { Db } from "../../db/client.ts";
import { problems, readSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { AuditPage, AuditQuery, ChainQuery, ChainReport } from "./model.ts";
import { listAudit, verifyChain } from "./service.ts";

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
    })
    .get("/verify/", ({ query }) => verifyChain(deps.db, query), {
      auth: ["admin"],
      query: ChainQuery,
      response: { 200: ChainReport, ...problems("FORBIDDEN") },
      detail: {
        tags: ["staff"],
        summary: "Check the audit log's hash chain (admins)",
        description:
          "Walks every entry from the first to the current head, 1,000 at a time, recomputing each hash, and answers `ok`, or the first entry that does not hold and why: `missing` (an entry before it was removed or moved), `content_changed` (details or client address edited), `row_changed` (actor, action, subject, time or position edited), `link_broken` (it does not follow the one before), `head_mismatch` (entries at the end removed), `anchor_mismatch` (the chain no longer passes through a head saved earlier: pass `anchorSeq` and `anchorHash`), `unchained` (an entry outside the chain). Entries redacted by an erasure are counted, and their details not checked. The hash definitions are in docs/admissions.md.",
        security: readSecurity,
      },
    });
