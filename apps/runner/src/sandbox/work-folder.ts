/**
 * The runner's work folder under the scratch base (setup.ts: /dev/shm, shared by every runner
 * on the host): the harness, and a folder per sandbox for its program. Who owns a folder is
 * known by an exclusive flock(2) on its `lock` file, held for the runner's whole life. The
 * kernel lets it go when the holder's last descriptor closes, however it ends (SIGKILL, a
 * crash, the OOM killer), and a lock is seen by every process that opens the file, whatever its
 * PID namespace: a pid written in the folder would name nothing, or another process, to a
 * runner in another namespace (a container sharing /dev/shm, the process tests' runners), which
 * would remove live folders. A folder that vanishes under its runner (removed by anyone) is
 * made again at the same path (`restore`); the runner renews its sandboxes around it
 * (runner.ts).
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import { buildHarness } from "./harness.ts";
import { hostLibc } from "./host-libc.ts";
import { procStatFields } from "./processes.ts";

export const FOLDER_PREFIX = "runner-work-";
export const LOCK_FILE = "lock";
const LEGACY_OWNER_FILE = "owner";
/** A folder this young without a lock is a runner starting this very moment. */
const STARTING_GRACE_MS = 60_000;
const LOCK_EX = 2;
const LOCK_NB = 4;

export type WorkFolder = {
  readonly root: string;
  /** The built harness (harness.ts). */
  readonly harnessDir: string;
  /** Where the pool puts the sandboxes' folders. */
  readonly runsDir: string;
  /**
   * Whether the folder on disk is still the one this runner locked, with its harness and runs
   * folder: a few stat calls (13 µs, measured), checked before every sandbox start.
   */
  intact(): boolean;
  /**
   * Makes whatever is missing again, at the same path: the folder, its lock, the harness, the
   * runs folder. Throws when the path is now someone else's (never written into, then).
   */
  restore(): Promise<void>;
  /** Removes the folder and lets the lock go. */
  dispose(): void;
};

/** An exclusive lock on `fd` if no other descriptor holds one; never waits. */
const tryLock = (fd: number) => hostLibc().flock(fd, LOCK_EX | LOCK_NB) === 0;

/**
 * A new lock file in `root`, locked before it takes its name: no one ever sees the file
 * unlocked. Returns its descriptor (close-on-exec: no sandbox inherits it).
 */
function lockFolder(root: string): number {
  const fresh = join(root, `${LOCK_FILE}.new`);
  rmSync(fresh, { force: true });
  const fd = openSync(fresh, "wx", 0o600);
  if (!tryLock(fd)) {
    closeSync(fd);
    throw new Error(`could not lock ${fresh}`);
  }
  renameSync(fresh, join(root, LOCK_FILE));
  return fd;
}

/** The folder at `root` is a real folder (not a link) of this user, private to it. */
function ownFolder(root: string): boolean {
  const stat = lstatSync(root);
  return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
}

const pathTaken = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** Whether `path` is the file open as `fd` (same device and inode). */
function isOpenAs(path: string, fd: number): boolean {
  try {
    const [named, open] = [statSync(path), fstatSync(fd)];
    return named.ino === open.ino && named.dev === open.dev;
  } catch {
    return false;
  }
}

/** Makes and locks a work folder under `base`, with the harness built in it. */
export async function createWorkFolder(base: string): Promise<WorkFolder> {
  // Created atomically, private (0700), under a name no other user can have chosen first.
  const root = mkdtempSync(join(base, FOLDER_PREFIX));
  const harnessDir = join(root, "harness");
  const runsDir = join(root, "runs");
  let lockFd = lockFolder(root);
  let harnessFiles: string[] = [];
  const build = async () => {
    await buildHarness(harnessDir);
    harnessFiles = readdirSync(harnessDir, { recursive: true }).map((file) =>
      join(harnessDir, String(file)),
    );
  };
  await build();
  mkdirSync(runsDir, { mode: 0o711 });

  const intact = () =>
    isOpenAs(join(root, LOCK_FILE), lockFd) &&
    existsSync(runsDir) &&
    harnessFiles.every((file) => existsSync(file));

  const restore = async () => {
    if (intact()) return;
    // Something at the path that this runner did not make is refused, never entered; and the
    // folder is made without `recursive`, so one made by someone else meanwhile fails it.
    if (!pathTaken(root)) mkdirSync(root, { mode: 0o700 });
    else if (!ownFolder(root)) throw new Error(`${root} is no longer the runner's own folder`);
    if (!isOpenAs(join(root, LOCK_FILE), lockFd)) {
      const previous = lockFd;
      lockFd = lockFolder(root);
      closeSync(previous);
    }
    if (!harnessFiles.every((file) => existsSync(file))) await build();
    mkdirSync(runsDir, { recursive: true, mode: 0o711 });
  };

  return {
    root,
    harnessDir,
    runsDir,
    intact,
    restore,
    dispose() {
      rmSync(root, { recursive: true, force: true });
      closeSync(lockFd);
    },
  };
}

/**
 * Runners before the lock wrote "<pid> <start time in clock ticks>" to `owner`: whether that
 * process still runs, as seen from this PID namespace. Kept while such runners may share the
 * scratch base with this one (a rolling upgrade, another branch's tests on the same machine).
 */
function legacyOwnerAlive(folder: string): boolean {
  try {
    const [pid, started] = readFileSync(join(folder, LEGACY_OWNER_FILE), "utf8").trim().split(" ");
    return Number(pid) > 0 && procStatFields(Number(pid))[19] === started;
  } catch {
    return false;
  }
}

/**
 * A runner killed without its shutdown leaves its folder behind, in RAM when it is /dev/shm.
 * At start-up, every folder of this user under `base` whose lock no process holds is removed
 * (with its lock taken meanwhile, so two runners starting at once cannot both judge it), and
 * one with no lock at all once it is older than a runner's start-up, unless an earlier
 * runner's `owner` file names a process alive here. Links are never followed.
 * Returns the folders removed.
 */
export function removeStaleFolders(base: string): string[] {
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const name of readdirSync(base)) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const folder = join(base, name);
    let fd: number | undefined;
    try {
      const stat = lstatSync(folder);
      if (!stat.isDirectory() || stat.uid !== uid) continue;
      try {
        fd = openSync(join(folder, LOCK_FILE), "r");
      } catch {
        // No lock: a runner starting this very moment, or one of an earlier version, which
        // named itself in an `owner` file instead (judged as it always was, in this /proc).
        if (stat.mtimeMs > Date.now() - STARTING_GRACE_MS) continue;
        if (legacyOwnerAlive(folder)) continue;
      }
      if (fd !== undefined && !tryLock(fd)) continue; // its runner is alive
      rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Gone meanwhile, or not ours to read.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return removed;
}
