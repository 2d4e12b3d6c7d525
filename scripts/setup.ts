#!/usr/bin/env bun
/**
 * The project's set-up step: the system packages the README's commands need, installed when
 * missing. `bun run start` and `bun run dev` run it for what the stack needs (bubblewrap, for
 * the runner's sandbox); `bun run check` for what the tests need too (Redis and PostgreSQL for
 * the PostgreSQL + Redis pass). Each install is said in one line, with why. Where it cannot
 * install (not root, no apt-get), it says exactly what is missing and the command to run, and
 * goes on: the stack still starts (the runner then answers 503 SANDBOX_UNAVAILABLE) and the
 * tests that need a missing component are counted as skipped.
 *
 *   bun scripts/setup.ts [start|check]
 */

export type Need = { command: string; pkg: string; why: string };

const NEEDS: Record<"start" | "check", Need[]> = {
  start: [{ command: "bwrap", pkg: "bubblewrap", why: "the runner's sandbox" }],
  check: [
    { command: "bwrap", pkg: "bubblewrap", why: "the runner's sandbox" },
    { command: "redis-server", pkg: "redis-server", why: "the PostgreSQL + Redis test pass" },
    { command: "pg_ctlcluster", pkg: "postgresql", why: "the PostgreSQL + Redis test pass" },
  ],
};

const say = (line: string) => console.log(`setup: ${line}`);

/** The commands `needs` asks for that are not on PATH (pg_ctlcluster lives in /usr/bin). */
export function missingOf(needs: Need[], which = Bun.which): Need[] {
  return needs.filter((need) => !which(need.command));
}

function canInstall(): boolean {
  return process.platform === "linux" && process.getuid?.() === 0 && Bun.which("apt-get") !== null;
}

function aptGet(args: string[]): boolean {
  const result = Bun.spawnSync(["apt-get", ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdout: "ignore",
    stderr: "pipe",
  });
  if (result.exitCode !== 0) say(`apt-get ${args[0]} failed: ${result.stderr.toString().trim()}`);
  return result.exitCode === 0;
}

/** Installs what is missing when it can; returns what is still missing. */
export function ensure(needs: Need[]): Need[] {
  const missing = missingOf(needs);
  if (missing.length === 0) return [];
  const list = missing.map((need) => `${need.pkg} (${need.why})`).join(", ");
  if (!canInstall()) {
    const packages = missing.map((need) => need.pkg).join(" ");
    say(`missing ${list}; install with: sudo apt-get install -y ${packages}`);
    return missing;
  }
  say(`installing ${list} with apt-get`);
  if (aptGet(["update", "-qq"])) {
    aptGet(["install", "-y", "-qq", "--no-install-recommends", ...missing.map((n) => n.pkg)]);
  }
  const still = missingOf(needs);
  if (still.length > 0) say(`still missing: ${still.map((need) => need.pkg).join(", ")}`);
  return still;
}

if (import.meta.main) {
  const purpose = process.argv[2] === "check" ? "check" : "start";
  ensure(NEEDS[purpose]);
}

export { NEEDS };
