import { type DocumentPart, mergeDocuments, type OpenApiDocument } from "@platform/server/openapi";
import { type Pool, pick } from "../balancer/service.ts";
import { matchRoute } from "../proxy/routes.ts";
import { FETCH_TIMEOUT_MS } from "./model.ts";

const DESCRIPTION = `Every API behind the gateway in one document: admissions (\`/api/v1/\`, \`/health/\`),
the leaderboard (\`/api/leaderboard\`), the runner (\`/api/run\`), the bench (\`/api/benchmark\`) and
the gateway's own probes (\`/gateway/\`). Errors are RFC 9457 \`application/problem+json\` with a
stable \`code\`; each operation lists the codes it answers with.`;

/** One app's own document, from a replica the balancer would pick; null when none answers. */
async function documentOf(pool: Pool): Promise<OpenApiDocument | null> {
  const path = pool.route.openapiPath;
  const replica = pick(pool);
  if (!path || !replica) return null;
  try {
    const res = await fetch(`${replica.origin}${path}`, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    return res.ok ? ((await res.json()) as OpenApiDocument) : null;
  } catch {
    return null;
  }
}

/**
 * The site's document: the gateway's own paths and every app's, each path taken from the app
 * the gateway routes it to (leaderboard's own /health/live is not the site's /health/live).
 * `missing` names the apps that did not hand theirs over; their paths are absent until they do.
 */
export async function siteDocument(own: OpenApiDocument, pools: readonly Pool[]) {
  const routes = pools.map((pool) => pool.route);
  const documented = pools.filter((pool) => pool.route.openapiPath);
  const documents = await Promise.all(documented.map(documentOf));
  const parts: DocumentPart[] = [];
  const missing: string[] = [];
  documented.forEach((pool, i) => {
    const document = documents[i];
    if (!document) missing.push(pool.route.upstream);
    else {
      parts.push({
        name: pool.route.upstream,
        document,
        includes: (path) => matchRoute(routes, path) === pool.route,
      });
    }
  });
  // Last: the apps' tags (and names) first in the reference, the gateway's probes after.
  parts.push({ name: "gateway", document: own, includes: (path) => path.startsWith("/gateway/") });
  const note = missing.length > 0 ? `\n\nNot listed now (no answer): ${missing.join(", ")}.` : "";
  const document = mergeDocuments(
    {
      openapi: own.openapi,
      info: { ...own.info, title: "Admissions platform API", description: DESCRIPTION + note },
    },
    parts,
  );
  return { document, missing };
}
