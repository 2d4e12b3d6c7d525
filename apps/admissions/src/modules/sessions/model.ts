import { t } from "elysia";
import { PageQuery, Paginated } from "../../lib/pagination.ts";
import { Id, int, Timestamp } from "../../lib/schema.ts";

export const Session = t.Object({
  id: Id,
  current: t.Boolean({ description: "The sign-in this request was made with" }),
  device: t.Nullable(
    t.String({
      description: "Browser and system read coarsely from the User-Agent at sign-in",
      examples: ["Firefox on Linux"],
    }),
  ),
  ip: t.Nullable(t.String({ description: "The client's address at sign-in" })),
  createdAt: Timestamp,
  lastUsedAt: t.String({
    format: "date-time",
    description: "Last request or refresh, to the minute",
  }),
  expiresAt: Timestamp,
});
export type Session = typeof Session.static;

export const SessionQuery = t.Object(PageQuery);
export type SessionQuery = typeof SessionQuery.static;

export const SessionPage = Paginated(Session, "My sign-ins, most recently used first");

export const SessionsEnded = t.Object({
  ended: int({ minimum: 0, description: "Sign-ins ended (every one but the caller's)" }),
});
