/**
 * The runner's hold on the processes it starts. Under bubblewrap the program runs in a process
 * that is not the runner's child (bubblewrap's child, in its own session), so it is signalled
 * through a pidfd taken while it is known to be alive: a pid number could be reused by then.
 * Children the runner adopts (as a container's pid 1, orphans are re-parented to it) are reaped
 * here; children Bun started are left to Bun, which waits for them itself.
 */
import { closeSync, readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { hostLibc } from "./host-libc.ts";

/**
 * The fields of /proc/<pid>/stat after the command's name (which may hold spaces or
 * parentheses): the state, field 3 of proc(5), first, so field n is at index n - 3. Throws once
 * the process is gone.
 */
export function procStatFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

const SIGKILL = 9;
/** The lowest nice value, where SCHED_IDLE is refused. */
const LOWEST_PRIORITY = 19;

/** A process to kill reliably, pid reuse or not. */
export type ProcessHandle = {
  readonly pid: number;
  kill(): void;
  release(): void;
};

export function holdProcess(pid: number): ProcessHandle {
  let pidfd = hostLibc().pidfdOpen(pid);
  return {
    pid,
    kill() {
      if (pidfd >= 0) hostLibc().pidfdSignal(pidfd, SIGKILL);
    },
    release() {
      if (pidfd >= 0) closeSync(pidfd);
      pidfd = -1;
    },
  };
}

/**
 * Every thread of `pid` to SCHED_IDLE (a scheduling policy is per thread on Linux; threads it
 * starts later inherit it): it runs only on a core nothing else wants. Measured here with three
 * spinning programs on two cores, the runner's synchronous spawn of a sandbox took 7 ms (p50)
 * with them at nice 19 and 0.2 ms with them in SCHED_IDLE: a newly woken ordinary thread
 * preempts an idle-policy one at once, a nice-19 one only after its time slice.
 */
export function demote(pid: number): void {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return; // gone already
  }
  for (const tid of threads) {
    try {
      if (hostLibc().idle(Number(tid)) !== 0) setPriority(Number(tid), LOWEST_PRIORITY);
    } catch {
      // The thread ended meanwhile.
    }
  }
}

/** CPU time one thread has used, in ms (from its schedstat, in ns); 0 once it is gone. */
function cpuMsOf(pid: number, tid = pid): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return 0;
  }
}

/**
 * Finds the thread of a reusable sandbox `pid` that runs its worker's JavaScript: Bun names a
 * Worker's thread "Worker" (its JIT threads are "JITWorker"), and a sandbox has one worker at a
 * time. Threads seen before are not read again: after the first look, each call reads the name
 * of the new worker's thread and little else. Undefined if there is none, or it is named
 * otherwise (another Bun): `watchCpu` then watches the main thread, which runs no program.
 */
export function workerThreadFinder(pid: number): () => number | undefined {
  /** Threads known not to be a worker's. */
  const others = new Set<string>();
  return () => {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        if (others.has(tid)) continue;
        if (readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8") === "Worker\n") {
          return Number(tid);
        }
        others.add(tid);
      }
    } catch {
      // Gone.
    }
    return undefined;
  };
}

/** How often a running process's CPU time is looked at. */
const WATCH_EVERY_MS = 5;

/**
 * Demotes `pid` (see demote) once the thread where its JavaScript runs (`tid`: a sandbox's
 * worker; by default the main thread) has used `budgetMs` of CPU since `watchCpu` was called;
 * `onDemoted` is told. CPU time rather than wall time: on a busy machine an ordinary short run
 * takes long but uses little, and must keep its priority. Returns the function that stops
 * watching.
 */
export function watchCpu(
  pid: number,
  budgetMs: number,
  { tid = pid, onDemoted = () => {} }: { tid?: number; onDemoted?: () => void } = {},
): () => void {
  const start = cpuMsOf(pid, tid);
  const timer = setInterval(() => {
    if (cpuMsOf(pid, tid) - start < budgetMs) return;
    clearInterval(timer);
    demote(pid);
    onDemoted();
  }, WATCH_EVERY_MS);
  return () => clearInterval(timer);
}

/** Pids of the processes Bun.spawn started for the runner, which Bun itself waits for. */
const spawned = new Set<number>();

export function trackSpawned(proc: { pid: number; exited: Promise<unknown> }): void {
  spawned.add(proc.pid);
  void proc.exited.then(() => spawned.delete(proc.pid));
}

/** Children of this process that have exited and wait to be reaped (state Z). */
function zombieChildren(): number[] {
  const zombies: number[] = [];
  let threads: string[];
  try {
    threads = readdirSync("/proc/self/task");
  } catch {
    return zombies;
  }
  for (const tid of threads) {
    let children: string;
    try {
      children = readFileSync(`/proc/self/task/${tid}/children`, "utf8");
    } catch {
      continue;
    }
    for (const child of children.split(" ")) {
      const pid = Number(child);
      if (!pid || spawned.has(pid)) continue;
      try {
        if (procStatFields(pid)[0] === "Z") zombies.push(pid);
      } catch {
        // Reaped meanwhile.
      }
    }
  }
  return zombies;
}

/** Reaps every adopted child that has exited; returns how many. */
export function reapAdopted(): number {
  let reaped = 0;
  for (const pid of zombieChildren()) if (hostLibc().reap(pid) === pid) reaped++;
  return reaped;
}

/**
 * As pid 1 (a container started without an init), orphans are re-parented to the runner and
 * stay zombies unless it reaps them: every `intervalMs`. Elsewhere a no-op: the host's init or
 * the container's (`init: true`) reaps them.
 */
export function startReaper(intervalMs = 1_000, isInit = process.pid === 1): () => void {
  if (!isInit) return () => {};
  const timer = setInterval(reapAdopted, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
