#!/usr/bin/env bun
/**
 * Requests for addresses with and without an account, interleaved in ONE run, through the real
 * app (`createApp` + `app.handle`), on SQLite and PostgreSQL: does the time to answer tell which
 * addresses have accounts? `--flow reset` asks for password-reset links; `--flow register`
 * registers (a taken address leaves its account as it is and emails its owner; a new one makes
 * the account and its verification email). Prints p50/p90/p99 of each side and their
 * difference; the answers themselves are compared byte for byte by the tests. The work left for
 * after the answer (a known address's reset link) is waited for between requests. The password
 * hash is made cheap here, so what differs between the two sides is not hidden under it.
 *
 *   bun benchmarks/admissions/enumeration-timing.ts [--flow reset|register] [--requests 2000]
 *       [--backends sqlite,postgres]
 *       [--postgres postgres://platform:platform@127.0.0.1:5432/platform]
 */
import { parseArgs } from "node:util";
import { createApp } from "../../apps/admissions/src/app.ts";
import { DEFAULT_SETTINGS } from "../../apps/admissions/src/config.ts";
import { migrate } from "../../apps/admissions/src/db/migrate.ts";
import { afterResponse } from "../../apps/admissions/src/lib/after-response.ts";
import { createUser } from "../../apps/admissions/src/modules/users/service.ts";
import { createLogger, memoryStore, parseTrustedProxies } from "../../packages/server/src/index.ts";
import { BACKEND_OPTIONS, openBackend, percentile } from "./backend.ts";

const { values } = parseArgs({
  options: {
    flow: { type: "string", default: "reset" },
    ...BACKEND_OPTIONS,
  },
});
const REQUESTS = Number(values.requests);
const FLOW = values.flow === "register" ? "register" : "reset";
const COST = { memoryCost: 64, timeCost: 1 };
const UNLIMITED = {
  emailsPerIpPerHour: 1e9,
  emailsPerAccountPerHour: 1e9,
  linkUsesPerIpPerHour: 1e9,
};

const rows: string[] = [];
for (const backend of values.backends.split(",")) {
  const { db, drop } = await openBackend(backend, values.postgres, `${FLOW}_timing`);
  try {
    await migrate(db);
    const known: string[] = [];
    for (let i = 0; i < 200; i++) {
      const email = `known-${i}@example.org`;
      await createUser(
        db,
        { email, password: "a-long-password-1", fullName: "Known", role: "applicant" },
        COST,
        Date.now(),
      );
      known.push(email);
    }
    const later = afterResponse(createLogger({ service: "admissions", level: "silent" }));
    const app = createApp({
      ...DEFAULT_SETTINGS,
      afterResponse: later,
      db,
      store: memoryStore(),
      logger: createLogger({ service: "admissions", level: "silent" }),
      jwtSecret: "benchmark-secret-that-is-long-enough-123",
      trustedProxies: parseTrustedProxies("loopback"),
      passwordCost: COST,
      accountLimits: UNLIMITED,
      registrationsPerHour: 1e9,
    });
    const [path, bodyOf] =
      FLOW === "register"
        ? [
            "/api/v1/auth/register/",
            (email: string) => ({ email, password: "a-long-password-2", fullName: "Someone" }),
          ]
        : ["/api/v1/account/password-reset/", (email: string) => ({ email })];
    const ask = async (email: string) => {
      const start = performance.now();
      const res = await app.handle(
        new Request(`http://localhost${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(bodyOf(email)),
        }),
      );
      await res.arrayBuffer();
      if (res.status !== 202) throw new Error(`${res.status} for ${email}`);
      const took = performance.now() - start;
      // The link is written after the answer: let it finish off the clock, so one request's
      // work does not land in the next one's time.
      await later.settled();
      return took;
    };
    for (let i = 0; i < 200; i++)
      await ask(i % 2 ? `warm-${i}@example.org` : (known[i % 200] ?? ""));
    const times = { known: [] as number[], unknown: [] as number[] };
    // Interleaved, so drift in the machine's load falls on both sides alike.
    for (let i = 0; i < REQUESTS; i++) {
      times.known.push(await ask(known[i % known.length] ?? ""));
      times.unknown.push(await ask(`nobody-${i}@example.org`));
    }
    for (const side of ["known", "unknown"] as const) {
      const t = times[side].sort((a, b) => a - b);
      rows.push(
        `| ${backend} | ${side} address | ${percentile(t, 0.5).toFixed(3)} | ${percentile(t, 0.9).toFixed(3)} | ${percentile(t, 0.99).toFixed(3)} |`,
      );
    }
    const gap = percentile(times.known, 0.5) - percentile(times.unknown, 0.5);
    rows.push(`| ${backend} | p50 gap (known − unknown) | ${gap.toFixed(3)} | | |`);
  } finally {
    await db.close();
    await drop();
  }
}
console.log(`\n${FLOW}: ${REQUESTS} requests per side, interleaved, in-process (no socket)\n`);
console.log("| backend | requests for | p50 ms | p90 ms | p99 ms |\n|---|---|---:|---:|---:|");
for (const row of rows) console.log(row);
process.exit(0);
