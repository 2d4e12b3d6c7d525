import type { TestContext } from "./support.ts";

/*
 * The app's operations as its own OpenAPI document lists them, and the concrete URLs that call
 * one: for a test that must reach every route, so that a route added later is in it without
 * anyone remembering to add it.
 */

type Parameter = { name: string; in: string; required?: boolean };
type OpenApi = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

export type Operation = { key: string; method: string; path: string; parameters: Parameter[] };

/** Every operation of the document, `key` as "GET /api/v1/applications/{id}/". */
export async function operationsOf(ctx: TestContext): Promise<Operation[]> {
  const res = await ctx.app.handle(new Request("http://localhost/api/v1/schema/"));
  const schema = (await res.json()) as OpenApi;
  return Object.entries(schema.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
    })),
  );
}

/** Values for the parameters: a path's by its slot ("applications/{id}"), a query's by name. */
export type Fillers = {
  path: Record<string, () => string[]>;
  query: Record<string, () => string[]>;
};

/** Every combination of one value from each list. */
function product<T>(lists: T[][]): T[][] {
  return lists.reduce<T[][]>(
    (out, list) => out.flatMap((done) => list.map((v) => [...done, v])),
    [[]],
  );
}

/**
 * The URLs that call `op` with every value the fillers have: each required query parameter
 * alone, then with every optional one the fillers know as well. `unfilled` names the path
 * slots and required query parameters they have nothing for.
 */
export function urlsFor(op: Operation, fillers: Fillers): { urls: string[]; unfilled: string[] } {
  const unfilled: string[] = [];
  // "applications/{id}": the segment before a parameter says what it names.
  const slots = [...op.path.matchAll(/([^/]+)\/(\{[^}]+\})/g)].map((m) => ({
    slot: `${m[1]}/${m[2]}`,
    param: m[2] ?? "",
  }));
  const pathValues = slots.map(({ slot }) => {
    const fill = fillers.path[slot];
    if (!fill) unfilled.push(slot);
    return fill?.() ?? [];
  });
  const query = op.parameters.filter((p) => p.in === "query");
  for (const p of query) if (p.required && !fillers.query[p.name]) unfilled.push(`?${p.name}`);
  const queryVariants = [
    query.filter((p) => p.required),
    query.filter((p) => fillers.query[p.name]),
  ];
  const urls = new Set<string>();
  for (const values of product(pathValues)) {
    const path = slots.reduce((out, { param }, i) => out.replace(param, values[i] ?? ""), op.path);
    for (const variant of queryVariants) {
      const choices = variant.map((p) =>
        (fillers.query[p.name]?.() ?? []).map((value): [string, string] => [p.name, value]),
      );
      for (const pairs of product(choices)) {
        urls.add(pairs.length > 0 ? `${path}?${new URLSearchParams(pairs)}` : path);
      }
    }
  }
  return { urls: [...urls], unfilled };
}
