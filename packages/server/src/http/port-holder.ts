/**
 * Who holds a TCP port, for the start-up error of an app that cannot listen. Bun says "Failed
 * to start server. Is port … in use?" whatever failed, with no errno; an app that cannot come
 * back after a restart must say what is in its way: the sockets bound to the port
 * (/proc/net/tcp, tcp6) and the processes that have them open (/proc/<pid>/fd). Linux only, and
 * only what this process may see (its network and PID namespaces, its permissions).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** /proc/net/tcp's state codes (include/net/tcp_states.h). */
const STATES: Record<string, string> = {
  "01": "ESTABLISHED",
  "02": "SYN_SENT",
  "03": "SYN_RECV",
  "04": "FIN_WAIT1",
  "05": "FIN_WAIT2",
  "06": "TIME_WAIT",
  "07": "CLOSE",
  "08": "CLOSE_WAIT",
  "09": "LAST_ACK",
  "0A": "LISTEN",
  "0B": "CLOSING",
};

/** Sockets whose local port is `port`: inode (0 for one no process has) and state. */
function socketsOn(port: number): { inode: string; state: string }[] {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const found: { inode: string; state: string }[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [, local, , state, , , , , , inode] = fields;
      if (local?.endsWith(`:${hex}`) && state && inode) {
        found.push({ inode, state: STATES[state] ?? state });
      }
    }
  }
  return found;
}

/** Each process that has one of `inodes` open: "pid 12 (bun src/index.ts)". */
function processesWith(inodes: Set<string>): Map<string, string> {
  const holders = new Map<string, string>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (!inode || !inodes.has(inode)) continue;
        const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
        holders.set(inode, `pid ${pid} (${command.slice(0, 200)})`);
      }
    } catch {
      // Gone meanwhile, or not ours to look at.
    }
  }
  return holders;
}

/** What holds `port`, in words: one entry per socket bound to it; empty if none is seen. */
export function portHolders(port: number): string[] {
  let sockets: { inode: string; state: string }[];
  try {
    sockets = socketsOn(port);
  } catch {
    return [];
  }
  const processes = processesWith(new Set(sockets.map((socket) => socket.inode)));
  return sockets.map(
    ({ inode, state }) => `${processes.get(inode) ?? "a socket of no process seen here"}, ${state}`,
  );
}

/** The start-up error of a server that could not listen on `hostname:port`. */
export function listenError(hostname: string, port: number, cause: unknown): Error {
  const holders = portHolders(port);
  const why = holders.length
    ? `the port is held by ${holders.join("; ")}`
    : cause instanceof Error
      ? cause.message
      : String(cause);
  return new Error(`cannot listen on ${hostname}:${port}: ${why}`, { cause });
}
