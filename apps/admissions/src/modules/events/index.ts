import { Elysia } from "elysia";
import { problems, readSecurity } from "../../lib/openapi.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { FeedPage, FeedQuery } from "./model.ts";
import { type FeedDeps, readFeed } from "./service.ts";

/** The change feed for staff integrations: `?after=<position>` pages through every event. */
export const events = (deps: FeedDeps & { guard: AuthGuard }) =>
  new Elysia({ name: "events", prefix: "/api/v1/events" })
    .use(deps.guard)
    .get("/", ({ query }) => readFeed(deps, query), {
      auth: ["admin"],
      query: FeedQuery,
      response: { 200: FeedPage, ...problems("FORBIDDEN") },
      detail: {
        tags: ["integrations"],
        summary: "The change feed (staff): events after a cursor, oldest first",
        description:
          "Cursor paging: pass the response's `next` as `?after=` to read on. Positions are gap-free and never appear out of order (docs/decisions.md).",
        security: readSecurity,
      },
    });
