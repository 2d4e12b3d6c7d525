import type { Client } from "openapi-fetch";
import { PlatformError } from "./errors.js";
import type { paths } from "./schema.js";

type PageBody = { results: unknown[]; next: string | null };
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;
type PageOf<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } }
  ? JsonOf<R>
  : never;

/** The paths whose GET answers a page (`{ count, next, previous, results }`). */
export type PagedPath = {
  [P in keyof paths]: PageOf<P> extends PageBody ? P : never;
}[keyof paths];

/** One item of a paged path's `results`. */
export type ItemOf<P extends PagedPath> = PageOf<P> extends { results: (infer I)[] } ? I : never;

type QueryOf<P extends PagedPath> = paths[P] extends {
  get: { parameters: { query?: infer Q } };
}
  ? Q
  : never;
type PathParamsOf<P extends PagedPath> = paths[P] extends {
  get: { parameters: { path: infer A } };
}
  ? A
  : never;

export type PaginateInit<P extends PagedPath> = {
  params?: { query?: QueryOf<P>; path?: PathParamsOf<P> };
};

/**
 * Every item of a paged list, page after page, fetched as they are read:
 * `for await (const program of paginate(api, "/api/v1/catalog/programs/")) …`. It follows the
 * answer's `next` link (its `limit` and `offset`) with the filters of `init`, and stops at the
 * last page; an error answer is thrown as a PlatformError.
 */
export async function* paginate<P extends PagedPath>(
  client: Client<paths>,
  path: P,
  init: PaginateInit<P> = {},
): AsyncGenerator<ItemOf<P>, void, undefined> {
  let query: Record<string, unknown> = { ...(init.params?.query as object) };
  // The paths are checked by PagedPath; openapi-fetch's per-path overloads cannot follow a
  // path chosen by a type parameter, so the call itself goes untyped.
  const get = client.GET as unknown as (
    path: string,
    init: object,
  ) => Promise<{ data?: PageBody; error?: unknown; response: Response }>;
  for (;;) {
    const { data, error, response } = await get(path, {
      params: { ...init.params, query },
    });
    if (error !== undefined || !data) throw PlatformError.fromResponse(error, response);
    for (const item of data.results) yield item as ItemOf<P>;
    if (!data.next) return;
    const next = new URL(data.next, "http://relative.invalid").searchParams;
    query = { ...query, limit: Number(next.get("limit")), offset: Number(next.get("offset")) };
  }
}
