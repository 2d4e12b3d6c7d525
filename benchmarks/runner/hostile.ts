#!/usr/bin/env bun
/**
 * The runner under attack (issue 11, point 8): several clients (--clients, 3), each from its own
 * address, send bombs back to back, every kind in turn — memory, CPU, output, standard-error
 * writes, a huge error, transpiler bombs, sleeping runs — while well-behaved clients run
 * `console.log(1)`. Its p50/p99 alone (a quiet phase first) and under attack are printed side by side; the
 * target is a p99 under attack within 3 × the quiet p99 with none of its requests failing. Also
 * watched: the runner's resident memory and its /health/live latency. The bombers run in a
 * process of their own (this file with --bombers), so their client-side work never delays the
 * measuring client. The runner runs as shipped (every limit at its default), so the good client
 * stays inside the default request limit: it runs about once a second (--good-clients N: N such
 * users, each from its own address, for more samples). `--rate-limit N` raises every client's request limit (the
 * good clients then run N/60 times a second) to show what the fairness limits do alone.
 * Loopback only, bounded in time (about 90 s); the addresses are X-Forwarded-For values from the
 * documentation range, which the runner believes from loopback.
 *
 *   bun benchmarks/runner/hostile.ts [--seconds 60] [--quiet-seconds 20] [--rate-limit 60]
 *                                    [--clients 3 | --only <bomb> --copies N] [--good-clients 1]
 */
import { parseArgs } from "node:util";
import {
  machineBusyMs,
  ms,
  percentile,
  postRun,
  type RunAnswer,
  residentMiB,
  startRunner,
} from "./support.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2).filter((arg) => arg !== "--hostile"),
  options: {
    seconds: { type: "string", default: "60" },
    "quiet-seconds": { type: "string", default: "20" },
    bombers: { type: "string" },
    "rate-limit": { type: "string", default: "60" },
    only: { type: "string" },
    copies: { type: "string", default: "1" },
    clients: { type: "string", default: "3" },
    "good-clients": { type: "string", default: "1" },
  },
});
const ATTACK_MS = Number(values.seconds) * 1000;
const QUIET_MS = Number(values["quiet-seconds"]) * 1000;
const GOOD_PROGRAM = "console.log(1)";
/** Requests per minute per client: the runner's default unless --rate-limit says otherwise. */
const RATE_LIMIT = Number(values["rate-limit"]);
/** Well-behaved users (--good-clients, 1), each from its own address, each within the limit. */
const GOOD_CLIENTS = Number(values["good-clients"]);
const GOOD_INTERVAL_MS = Math.ceil((60_000 / RATE_LIMIT) * 1.1);
/**
 * Requests each attacker keeps in flight: its cap of runs at once (RUNNER_CLIENT_MAX_RUNS), each
 * worker pacing itself to stay inside the request limit, so that no request is wasted on a
 * refusal: the strongest attack the limits allow.
 */
const BOMBER_WORKERS = 2;
const BOMBER_INTERVAL_MS = Math.ceil((60_000 / RATE_LIMIT) * BOMBER_WORKERS * 1.05);

const enumBomb = (kind: string, members: number) => {
  const names = Array.from({ length: members }, (_, i) => `M${i}`);
  const body = names
    .slice(1)
    .map((name, i) => `${name} = ${names[i]} + ${names[i]}`)
    .join(", ");
  return `${kind} E { M0 = "ab", ${body} }\nconsole.log(E.M${members - 1}.length)`;
};

const ALL_BOMBS: { name: string; code: string }[] = [
  { name: "memory", code: "const a = []; for (;;) a.push(new Array(1e6).fill(1.5));" },
  { name: "cpu", code: "for (;;) {}" },
  { name: "output", code: 'for (;;) console.log("x".repeat(1000));' },
  { name: "stderr", code: 'for (;;) console.error("e".repeat(1000));' },
  {
    name: "huge error",
    code: 'String.prototype.slice = function () { return this; };\nthrow new Error("x".repeat(8e6));',
  },
  { name: "transpiler", code: enumBomb("const enum", 30) },
  { name: "sleeper", code: "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);" },
];

/**
 * The attacking clients: CLIENTS of them, each sending every kind of bomb in turn, or, with
 * --only NAME --copies N, N clients sending one kind (to find what hurts).
 */
const ATTACKERS: { client: string; bombs: { name: string; code: string }[] }[] = values.only
  ? Array.from({ length: Number(values.copies) }, (_, index) => ({
      client: `198.51.100.${10 + index}`,
      bombs: ALL_BOMBS.filter((bomb) => bomb.name === values.only),
    }))
  : Array.from({ length: Number(values.clients) }, (_, index) => ({
      client: `198.51.100.${10 + index}`,
      // Each client starts at another kind, so every kind is in the air at once.
      bombs: [...ALL_BOMBS.slice(index), ...ALL_BOMBS.slice(0, index)],
    }));

type Bombed = { bombs: string; client: string; statuses: [number, number][] };

/** One attacking client: BOMBER_WORKERS requests in flight, each at most one per interval. */
async function bomber(url: string, index: number, until: number): Promise<Bombed> {
  const attacker = ATTACKERS[index];
  if (!attacker) throw new Error("no attacker");
  const { client, bombs } = attacker;
  const statuses = new Map<number, number>();
  let sent = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const bomb = bombs[sent++ % bombs.length];
      if (!bomb) break;
      const started = performance.now();
      let answer: RunAnswer;
      try {
        answer = await postRun(url, bomb.code, { client });
      } catch {
        answer = { status: 0, ms: 0, retryAfter: 0 };
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      await Bun.sleep(Math.max(0, BOMBER_INTERVAL_MS - (performance.now() - started)));
    }
  };
  await Promise.all(Array.from({ length: BOMBER_WORKERS }, worker));
  const kinds = bombs.length === 1 ? (bombs[0]?.name ?? "") : "every kind";
  return { bombs: kinds, client, statuses: [...statuses] };
}

if (values.bombers) {
  // The bombers' own process: attack until the time is up, then report as one JSON line.
  const until = performance.now() + ATTACK_MS;
  const url = values.bombers;
  const results = await Promise.all(ATTACKERS.map((_, index) => bomber(url, index, until)));
  console.log(JSON.stringify(results));
  process.exit(0);
}

const runner = await startRunner({ RUNNER_RATE_LIMIT: String(RATE_LIMIT) });
type Sample = { ok: boolean; ms: number; status: number };

/** The well-behaved clients: each runs once every GOOD_INTERVAL_MS until `until`. */
async function goodClients(until: number): Promise<Sample[]> {
  const all = await Promise.all(
    Array.from({ length: GOOD_CLIENTS }, async (_, index) => {
      // Spread over the interval, so the clients' runs do not arrive together.
      await Bun.sleep((GOOD_INTERVAL_MS / GOOD_CLIENTS) * index);
      return goodClient(`198.51.100.${1 + index}`, until);
    }),
  );
  return all.flat();
}

async function goodClient(client: string, until: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    const answer = await postRun(runner.url, GOOD_PROGRAM, { client });
    samples.push({
      ok: answer.status === 200 && answer.output === "1\n" && answer.error === null,
      ms: answer.ms,
      status: answer.status,
    });
    await Bun.sleep(Math.max(0, GOOD_INTERVAL_MS - (performance.now() - started)));
  }
  return samples;
}

/** Polls /health/live and the runner's resident memory until `until`. */
async function watch(until: number) {
  let worstHealthMs = 0;
  let maxRssMiB = 0;
  while (performance.now() < until) {
    const started = performance.now();
    await fetch(`${runner.url}/health/live`);
    worstHealthMs = Math.max(worstHealthMs, performance.now() - started);
    maxRssMiB = Math.max(maxRssMiB, residentMiB(runner.pid));
    await Bun.sleep(100);
  }
  return { worstHealthMs, maxRssMiB };
}

const summary = (samples: Sample[]) => {
  const times = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    count: samples.length,
    failed: samples.filter((sample) => !sample.ok).length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times.at(-1) ?? Number.NaN,
  };
};

try {
  console.log(`hostile-load benchmark: quiet ${QUIET_MS / 1000} s, then ${ATTACK_MS / 1000} s of`);
  console.log(
    `${ATTACKERS.length} attacking clients (${values.only ?? `each sending in turn: ${ALL_BOMBS.map((bomb) => bomb.name).join(", ")}`}), ${BOMBER_WORKERS} requests in flight each; ${RATE_LIMIT} requests/min per client, every other limit as shipped`,
  );
  const quietUntil = performance.now() + QUIET_MS;
  const [quiet, quietWatch] = await Promise.all([goodClients(quietUntil), watch(quietUntil)]);
  const cpuBefore = machineBusyMs();
  const attackUntil = performance.now() + ATTACK_MS;
  const bombers = Bun.spawn(
    [
      process.execPath,
      import.meta.path,
      ...["--bombers", runner.url, "--seconds", String(ATTACK_MS / 1000)],
      ...(values.only
        ? ["--only", values.only, "--copies", values.copies]
        : ["--clients", values.clients]),
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  const [attack, attackWatch, report] = await Promise.all([
    goodClients(attackUntil),
    watch(attackUntil),
    new Response(bombers.stdout).text(),
  ]);
  const busy = (machineBusyMs() - cpuBefore) / ATTACK_MS;

  const q = summary(quiet);
  const a = summary(attack);
  const line = (name: string, s: ReturnType<typeof summary>) =>
    `${name.padEnd(14)} ${String(s.count).padStart(4)} runs  p50 ${ms(s.p50).padStart(9)}  p99 ${ms(s.p99).padStart(9)}  max ${ms(s.max).padStart(9)}  failed ${s.failed}`;
  console.log(
    `\n${GOOD_CLIENTS} well-behaved clients (${GOOD_PROGRAM}, each once every ${GOOD_INTERVAL_MS} ms):`,
  );
  console.log(line("quiet", q));
  console.log(line("under attack", a));
  console.log(`\nbombers (HTTP status: count):`);
  for (const { bombs, client, statuses } of JSON.parse(report) as Bombed[]) {
    const counts = statuses.map(([status, count]) => `${status}: ${count}`).join(", ");
    console.log(`  ${bombs.padEnd(11)} from ${client.padEnd(14)} ${counts}`);
  }
  console.log(
    `\nrunner: worst /health/live ${ms(Math.max(quietWatch.worstHealthMs, attackWatch.worstHealthMs))}, max resident ${Math.max(quietWatch.maxRssMiB, attackWatch.maxRssMiB).toFixed(0)} MiB; machine ${(busy * 100).toFixed(0)} % of one core busy under attack`,
  );
  const ratio = a.p99 / q.p99;
  const held = ratio <= 3 && a.failed === 0;
  console.log(
    `p99 under attack / quiet p99 = ${ratio.toFixed(2)} (target ≤ 3), failed ${a.failed} (target 0): ${held ? "met" : "MISSED"}`,
  );
  process.exitCode = held ? 0 : 1;
} finally {
  await runner.stop();
}
