/**
 * The shared libraries Bun needs, found once at start-up: under bubblewrap the sandbox's file
 * system holds only these, each bound read-only at the path the dynamic loader opens it by, and
 * not the host's whole /lib (on a merged-/usr host, all of /usr/lib). Found rather than
 * written down, because the list and the paths depend on the host (architecture, C library,
 * distribution) and on how Bun was built.
 */
import { realpathSync } from "node:fs";
import { ConfigError } from "@platform/server";

/** One host file bound read-only into the sandbox. */
export type LibraryBind = {
  /** The real file on the host (symlinks resolved here: bubblewrap binds what it is given). */
  source: string;
  /** Where the loader looks for it inside: the path ldd prints, e.g. /lib64/ld-linux-x86-64.so.2. */
  target: string;
};

/**
 * Parses ldd's report: `name => /path (0x…)` for each library, `/path (0x…)` for the ELF
 * interpreter (its PT_INTERP path, which the kernel opens), and `linux-vdso.so.1 (0x…)` for the
 * kernel's own page, which is no file. Every absolute path is a file the process maps.
 */
export function parseLdd(report: string): string[] {
  const paths: string[] = [];
  for (const line of report.split("\n")) {
    const entry = line.trim();
    if (entry === "") continue;
    if (/=>\s*not found/.test(entry)) {
      throw new ConfigError(`a library Bun needs is not installed: ${entry}`);
    }
    const path = /(?:^|=>\s*)(\/\S+)/.exec(entry)?.[1];
    if (path && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/**
 * The libraries of the Bun at `bunPath`, from `ldd` (glibc's, in libc-bin, which every Debian
 * and Ubuntu image has, slim ones included; it makes the loader list what it would load,
 * without running Bun). Throws, saying what is wrong, when they cannot be found: starting a
 * sandbox without them would fail on every request instead.
 */
export function bunLibraries(bunPath: string, ldd = "ldd"): LibraryBind[] {
  const bun = realpathSync(bunPath);
  let result: ReturnType<typeof Bun.spawnSync>;
  try {
    result = Bun.spawnSync([ldd, bun], { stdout: "pipe", stderr: "pipe", env: {} });
  } catch (error) {
    throw new ConfigError(
      `cannot list the libraries Bun needs: "${ldd}" did not run (${String(error)}); install libc-bin`,
    );
  }
  const stdout = result.stdout?.toString() ?? "";
  const stderr = result.stderr?.toString() ?? "";
  // A statically linked Bun needs no library at all.
  if (/not a dynamic executable/.test(stdout + stderr)) return [];
  if (!result.success) {
    throw new ConfigError(
      `cannot list the libraries Bun needs: ${ldd} ${bun} failed: ${stderr.trim()}`,
    );
  }
  const paths = parseLdd(stdout);
  if (paths.length === 0) {
    throw new ConfigError(
      `cannot list the libraries Bun needs: no path in ${ldd}'s report: ${stdout}`,
    );
  }
  return paths.map((target) => {
    try {
      return { source: realpathSync(target), target };
    } catch {
      throw new ConfigError(`a library Bun needs, ${target}, is not readable`);
    }
  });
}

/** bubblewrap's arguments binding them, computed once (they are on every sandbox's start). */
export function libraryBindArgs(libraries: readonly LibraryBind[]): string[] {
  return libraries.flatMap(({ source, target }) => ["--ro-bind", source, target]);
}
