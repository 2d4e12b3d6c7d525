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
 *   bun scripts/setup.ts [start|check|compose]
 */

import { existsSync } from "node:fs";

/** A package, known present by a command on PATH or by an absolute path it installs. */
export type Need = { command: string; pkg: string; why: string };

const NEEDS: Record<"start" | "check" | "compose", Need[]> = {
  start: [{ command: "bwrap", pkg: "bubblewrap", why: "the runner's sandbox" }],
  check: [
    { command: "bwrap", pkg: "bubblewrap", why: "the runner's sandbox" },
    { command: "redis-server", pkg: "redis-server", why: "the PostgreSQL + Redis test pass" },
    { command: "pg_ctlcluster", pkg: "postgresql", why: "the PostgreSQL + Redis test pass" },
    // No kubectl: Debian 12's own (kubernetes-client, 1.20) has kustomize 2, which cannot render
    // the overlays. infra/k8s.test.ts renders them with a kubectl of kustomize 5 on PATH (CI's
    // clean box gets the host's), fails on an older one, and skips the rendering without one.
    { command: "chromium", pkg: "chromium", why: "the site's browser tests" },
  ],
  compose: [
    { command: "podman", pkg: "podman", why: "the compose stack check" },
    { command: "runc", pkg: "runc", why: "the compose stack check (podman's runtime)" },
    // Recommended by podman, needed here: networks with DNS names, and `init: true`.
    { command: "/usr/lib/podman/netavark", pkg: "netavark", why: "compose's network" },
    { command: "/usr/lib/podman/aardvark-dns", pkg: "aardvark-dns", why: "service names" },
    { command: "catatonit", pkg: "catatonit", why: "the runner's init process under compose" },
    { command: "iptables", pkg: "iptables", why: "podman's network (NAT, published ports)" },
    { command: "mmdebstrap", pkg: "mmdebstrap", why: "the compose check's Debian base image" },
    { command: "docker-compose", pkg: "docker-compose", why: "the compose stack check" },
  ],
};

const say = (line: string) => console.log(`setup: ${line}`);

/** The commands `needs` asks for that are not on PATH (pg_ctlcluster lives in /usr/bin). */
export function missingOf(needs: Need[], which = Bun.which): Need[] {
  return needs.filter((need) =>
    need.command.startsWith("/") ? !existsSync(need.command) : !which(need.command),
  );
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
  const asked = process.argv[2];
  const purpose = asked === "check" || asked === "compose" ? asked : "start";
  ensure(NEEDS[purpose]);
}

export { NEEDS };
