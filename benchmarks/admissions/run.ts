#!/usr/bin/env bun
/**
 * Admissions list latency at 1k, 10k and 100k applications, on SQLite and PostgreSQL in one run.
 * Requests go through the real app (`createApp` + `app.handle`: routing, auth, validation,
 * queries, serialisation) without a socket, one at a time, and p50/p99 are printed per size.
 *
 *   bun benchmarks/admissions/run.ts [--sizes 1000,10000,100000] [--requests 2000]
 *       [--backends sqlite,postgres] [--postgres postgres://platform:platform@127.0.0.1:5432/platform]
 *
 * PostgreSQL: a throwaway database is created on that server and dropped at the end.
 */
import { parseArgs } from "node:util";
import { createApp } from "../../apps/admissions/src/app.ts";
import { DEFAULT_SETTINGS } from "../../apps/admissions/src/config.ts";
import { migrate } from "../../apps/admissions/src/db/migrate.ts";
import { hashPassword } from "../../apps/admissions/src/modules/users/service.ts";
import { seedDemo } from "../../apps/admissions/src/seed/demo.ts";
import { createLogger, memoryStore, parseTrustedProxies } from "../../packages/server/src/index.ts";
import { BACKEND_OPTIONS, openBackend, percentile } from "./backend.ts";
import { growTo, loadCatalog } from "./population.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,10000,100000" },
    ...BACKEND_OPTIONS,
  },
});
const sizes = values.sizes.split(",").map(Number);
const requests = Number(values.requests);
const WARMUP = 200;
const PASSWORD = "benchmark-password";
const COST = { memoryCost: 64, timeCost: 1 };

type Scenario = { name: string; path: (i: number) => string; staff: boolean };

async function measure(app: ReturnType<typeof createApp>, token: string, scenario: Scenario) {
  const send = async (i: number) => {
    const headers = scenario.staff ? { authorization: `Bearer ${token}` } : undefined;
    const res = await app.handle(new Request(`http://localhost${scenario.path(i)}`, { headers }));
    if (res.status !== 200) throw new Error(`${scenario.name}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  for (let i = 0; i < WARMUP; i++) await send(i);
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    await send(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

async function staffToken(app: ReturnType<typeof createApp>): Promise<string> {
  const res = await app.handle(
    new Request("http://localhost/api/v1/auth/login/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "reviewer@northbridge.example", password: PASSWORD }),
    }),
  );
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/**
 * Filters chosen so that every page asked for is full at every size (1k applications hold ~250
 * submitted ones, ~19 submitted-or-under-review per program): the work per request is then the
 * same, and any growth comes from the number of applications alone.
 */
function scenarios(programIds: string[]): Scenario[] {
  const program = (i: number) => programIds[i % programIds.length];
  const catalogQueries = [
    "?limit=20",
    "?level=master",
    "?openForApplications=true&ordering=-applicationFee",
    "?search=science",
    "?ordering=-name&limit=10&offset=10",
  ];
  const catalog = (i: number) =>
    `/api/v1/catalog/programs/${catalogQueries[i % catalogQueries.length]}`;
  return [
    { name: "catalog list (public, cached)", staff: false, path: catalog },
    { name: "catalog list (staff, uncached)", staff: true, path: catalog },
    {
      name: "applications: 1 status, pages 1-5",
      staff: true,
      path: (i) => `/api/v1/applications/?status=submitted&limit=20&offset=${(i % 5) * 20}`,
    },
    {
      name: "applications: 2 statuses + program",
      staff: true,
      path: (i) =>
        `/api/v1/applications/?status=submitted,under_review&programId=${program(i)}&limit=15`,
    },
  ];
}

const results: { backend: string; size: number; name: string; p50: number; p99: number }[] = [];
for (const backend of values.backends.split(",")) {
  const { db, drop } = await openBackend(backend, values.postgres, "admissions_bench");
  try {
    await migrate(db);
    const now = Date.now();
    await seedDemo(db, { nowMs: now, password: PASSWORD, cost: COST });
    const catalog = await loadCatalog(db);
    const programIds = [...new Set(catalog.intakes.map((intake) => intake.programId))];
    const passwordHash = await hashPassword(PASSWORD, COST);
    const app = createApp({
      ...DEFAULT_SETTINGS,
      db,
      store: memoryStore(),
      logger: createLogger({ service: "admissions", level: "silent" }),
      jwtSecret: "benchmark-secret-that-is-long-enough-123",
      trustedProxies: parseTrustedProxies("loopback"),
      passwordCost: COST,
    });
    const token = await staffToken(app);
    let current = Number(
      (await db.run((sql) => sql`SELECT count(*) AS n FROM applications`))[0]?.n,
    );
    for (const size of sizes) {
      const started = performance.now();
      await growTo(db, catalog, current, size, passwordHash, now);
      current = size;
      const seeded = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`${backend}: ${size} applications (grown in ${seeded} s)`);
      for (const scenario of scenarios(programIds)) {
        const { p50, p99 } = await measure(app, token, scenario);
        results.push({ backend, size, name: scenario.name, p50, p99 });
        console.log(
          `  ${scenario.name.padEnd(38)} p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms`,
        );
      }
    }
  } finally {
    await db.close();
    await drop();
  }
}

console.log(
  `\n${requests} sequential requests per line after ${WARMUP} warm-up; in-process (no socket).`,
);
console.log("| backend | applications | endpoint | p50 ms | p99 ms |");
console.log("|---|---:|---|---:|---:|");
for (const r of results) {
  console.log(
    `| ${r.backend} | ${r.size} | ${r.name} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} |`,
  );
}
process.exit(0);
