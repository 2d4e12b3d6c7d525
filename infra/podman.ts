/**
 * Podman as this project's CI drives it: rootful, runc (crun refuses the hybrid cgroups of the
 * machines CI runs on), and ulimits within what the host allows (the host's root lacks
 * CAP_SYS_RESOURCE, so a container may not ask for more than the host's hard limits). The
 * settings live in a containers.conf of our own, passed with CONTAINERS_CONF, so nothing under
 * /etc is changed.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The host's hard limit for a resource in /proc/self/limits ("Max open files", …). */
function hardLimit(name: string, fallback: number): number {
  const line = readFileSync("/proc/self/limits", "utf8")
    .split("\n")
    .find((row) => row.startsWith(name));
  const value = Number(line?.slice(26).trim().split(/\s+/)[1]);
  return Number.isFinite(value) ? value : fallback;
}

/**
 * Writes the containers.conf and returns the environment every podman call should get;
 * `seccompProfile` makes that file the default profile of the containers started with it.
 */
export function podmanEnv(
  opts: { seccompProfile?: string } = {},
): Record<string, string | undefined> {
  const dir = join(tmpdir(), "platform-podman");
  mkdirSync(dir, { recursive: true });
  const nofile = Math.min(hardLimit("Max open files", 65_536), 65_536);
  // runc sets nproc before the container's own user exists; measured: 32768 works where the
  // host's full hard limit (96365) is refused.
  const nproc = Math.min(hardLimit("Max processes", 32_768), 32_768);
  const conf = join(dir, opts.seccompProfile ? "containers-seccomp.conf" : "containers.conf");
  writeFileSync(
    conf,
    [
      "[containers]",
      `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
      ...(opts.seccompProfile ? [`seccomp_profile = ${JSON.stringify(opts.seccompProfile)}`] : []),
      "[engine]",
      'runtime = "runc"',
      "",
    ].join("\n"),
  );
  return { ...process.env, CONTAINERS_CONF: conf };
}
