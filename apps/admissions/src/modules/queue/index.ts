import { Elysia } from "elysia";
import { problems, readSecurity } from "../../lib/openapi.ts";
import { pageOf } from "../../lib/pagination.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { STAFF } from "../users/model.ts";
import { QueuePage, QueueQuery } from "./model.ts";
import { type QueueDeps, reviewQueue } from "./service.ts";

const tags = ["review"];

/** A reviewer's own work list. */
export const queue = (deps: QueueDeps & { guard: AuthGuard }) =>
  new Elysia({ name: "queue", prefix: "/api/v1/staff/queue" })
    .use(deps.guard)
    .get(
      "/",
      ({ actor, query, request }) => reviewQueue(deps, actor, query, pageOf(query), request.url),
      {
        auth: STAFF,
        query: QueueQuery,
        response: { 200: QueuePage, ...problems("FORBIDDEN") },
        detail: {
          tags,
          summary: "Your review queue: applications assigned to you awaiting a decision",
          security: readSecurity,
        },
      },
    );
