/**
 * The OpenAPI documents the services serve, fetched from the apps themselves: each built with its
 * own createApp (embedded defaults, nothing started that a document does not need) and asked with
 * app.handle, and the site's merged one from the gateway's createApp, whose upstreams are those
 * apps served on loopback ports. Used by openapi-lint.ts and by packages/client's generator.
 */
import { createApp as admissionsApp } from "../apps/admissions/src/app.ts";
import { DEFAULT_SETTINGS as ADMISSIONS_DEFAULTS } from "../apps/admissions/src/config.ts";
import { openDatabase } from "../apps/admissions/src/db/client.ts";
import { createApp as benchApp } from "../apps/bench/src/app.ts";
import type { BenchmarkRunner } from "../apps/bench/src/runner/runner.ts";
import { createApp as gatewayApp } from "../apps/gateway/src/app.ts";
import { loadEnv as gatewayEnv } from "../apps/gateway/src/env.ts";
import { routingTable } from "../apps/gateway/src/modules/proxy/routes.ts";
import { createApp as leaderboardApp } from "../apps/leaderboard/src/app.ts";
import { createApp as runnerApp } from "../apps/runner/src/app.ts";
import type { SandboxRunner } from "../apps/runner/src/sandbox/runner.ts";
import { createLogger, memoryStore, parseTrustedProxies } from "../packages/server/src/index.ts";

const logger = createLogger({ service: "openapi", level: "silent" });
/**
 * The address the documents are asked on, as a deployment's callers would (its `servers`): a
 * public one, not localhost, which Redocly's no-server-example.com rightly flags.
 */
export const PUBLIC_ORIGIN = "https://admissions.example.org";
const trustedProxies = parseTrustedProxies("loopback");
/** Serving a document runs no program and no benchmark: these are never called. */
const idle = <T>(what: string) =>
  new Proxy(
    {},
    {
      get: (_, key) => {
        throw new Error(`${what}.${String(key)} is not needed to serve a document`);
      },
    },
  ) as T;

type Handler = { handle(request: Request): Promise<Response> | Response };

export type ServedDocument = { name: string; path: string; document: unknown };

export async function servedDocuments(): Promise<ServedDocument[]> {
  const db = await openDatabase({ sqliteFile: ":memory:" });
  const apps: { name: string; app: Handler; path: string }[] = [
    {
      name: "admissions",
      path: "/api/v1/schema/",
      app: admissionsApp({
        ...ADMISSIONS_DEFAULTS,
        db,
        store: memoryStore(),
        logger,
        jwtSecret: "a-secret-only-for-building-the-document-0123456789",
        trustedProxies,
      }),
    },
    {
      name: "leaderboard",
      path: "/openapi.json",
      app: leaderboardApp({ store: memoryStore(), logger, trustedProxies, postsPerMinute: 60 }),
    },
    {
      name: "runner",
      path: "/openapi.json",
      app: runnerApp({
        runner: idle<SandboxRunner>("runner"),
        kernel: idle("kernel"),
        store: memoryStore(),
        logger,
        trustedProxies,
        runsPerMinute: 60,
      }),
    },
    {
      name: "bench",
      path: "/openapi.json",
      app: benchApp({
        runner: idle<BenchmarkRunner>("runner"),
        store: memoryStore(),
        logger,
        trustedProxies,
        runsPerMinute: 10,
      }),
    },
  ];
  const documents: ServedDocument[] = [];
  const servers = [];
  try {
    const ports: Record<string, string> = {};
    for (const { name, app, path } of apps) {
      const res = await app.handle(new Request(`${PUBLIC_ORIGIN}${path}`));
      if (!res.ok) throw new Error(`${name} answered ${res.status} at ${path}`);
      documents.push({ name, path, document: await res.json() });
      const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => app.handle(r) });
      servers.push(server);
      ports[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${server.port}`;
    }
    const gateway = gatewayApp({
      routes: routingTable(gatewayEnv(ports)),
      trustedProxies: parseTrustedProxies("none"),
      logger,
    });
    const res = await gateway.handle(new Request(`${PUBLIC_ORIGIN}/api/openapi.json`));
    const site = (await res.json()) as { paths: Record<string, unknown> };
    // Every app's API must be in the site's document (an app that did not answer is left out).
    for (const prefix of ["/api/v1/", "/api/leaderboard", "/api/run", "/api/benchmark"]) {
      if (!Object.keys(site.paths).some((path) => path.startsWith(prefix))) {
        throw new Error(`the gateway's document has no ${prefix} paths`);
      }
    }
    documents.push({ name: "site (gateway)", path: "/api/openapi.json", document: site });
  } finally {
    for (const server of servers) server.stop(true);
    await db.close();
  }
  return documents;
}
