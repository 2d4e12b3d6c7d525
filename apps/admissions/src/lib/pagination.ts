import { type TSchema, t } from "elysia";

import { int, unchecked } from "./schema.ts";
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `?limit=&offset=` on every list. */
export const PageQuery = {
  limit: t.Optional(
    t.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, examples: [20] }),
  ),
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
};

export type Page = { limit: number; offset: number };

export const pageOf = (query: { limit?: number; offset?: number }): Page => ({
  limit: query.limit ?? DEFAULT_PAGE_SIZE,
  offset: query.offset ?? 0,
});

/** The envelope of every list; `results` is typed per list. */
const PageEnvelope = t.Object({
  count: int({ minimum: 0, description: "Items matching the filters, all pages" }),
  next: t.Nullable(t.String({ examples: ["/api/v1/catalog/programs/?limit=20&offset=20"] })),
  previous: t.Nullable(t.String()),
});
export type PageOf<T> = typeof PageEnvelope.static & { results: T[] };

/**
 * `{ count, next, previous, results }`; next/previous are relative URLs (see docs).
 *
 * Documented, but not re-validated on the way out: Elysia's response check and clean of a
 * 20-item page cost about twice the rest of the request (measured: 1.2 ms of 1.8 ms). The
 * items are built field by field by typed mappers, so nothing unlisted can reach a response.
 */
export const Paginated = <T extends TSchema>(item: T, description: string) =>
  unchecked(t.Object({ ...PageEnvelope.properties, results: t.Array(item) }, { description }));

/**
 * The page as the client sees it. Links are the request's own path and query with `limit` and
 * `offset` replaced, relative so they stay right behind the gateway or any proxy.
 */
export function toPage<T>(requestUrl: string, page: Page, count: number, results: T[]): PageOf<T> {
  const link = (offset: number) => {
    const url = new URL(requestUrl);
    url.searchParams.set("limit", String(page.limit));
    url.searchParams.set("offset", String(offset));
    return `${url.pathname}${url.search}`;
  };
  const nextOffset = page.offset + page.limit;
  return {
    count,
    next: nextOffset < count ? link(nextOffset) : null,
    previous: page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : null,
    results,
  };
}
