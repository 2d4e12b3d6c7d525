/**
 * Bounded concurrency with a short queue, fair between clients: at most `maxRunning` runs at
 * once and `maxQueued` waiting; one client has at most `perClient` runs running or waiting; and
 * when a slot frees, it goes to the waiting run whose client has the fewest runs going (first
 * come, first served among equals). One client filling its share with runs that sleep leaves
 * every other slot to the others. Past a limit, `run` refuses at once instead of piling up.
 */
export class GateFullError extends Error {
  override name = "GateFullError";
}

/** The client already has its maximum of runs running or waiting. */
export class ClientBusyError extends Error {
  override name = "ClientBusyError";
}

export type Gate = {
  run<T>(client: string, task: () => Promise<T>): Promise<T>;
  stats(): { running: number; queued: number };
};

export type GateOptions = { maxRunning: number; maxQueued: number; perClient: number };

type Waiter = { client: string; start: () => void };

export function createGate({ maxRunning, maxQueued, perClient }: GateOptions): Gate {
  let running = 0;
  const queue: Waiter[] = [];
  /** Runs running per client, and runs running or waiting per client. */
  const runningOf = new Map<string, number>();
  const activeOf = new Map<string, number>();

  const add = (counts: Map<string, number>, client: string, delta: number) => {
    const next = (counts.get(client) ?? 0) + delta;
    if (next === 0) counts.delete(client);
    else counts.set(client, next);
  };

  /** May `client` take a free slot now? Not the last one if it already has a run going. */
  const mayStart = (client: string) =>
    running < maxRunning && ((runningOf.get(client) ?? 0) === 0 || maxRunning - running > 1);

  /** The waiter whose client has the fewest runs going (the earliest among equals), if it may. */
  const nextWaiter = (): Waiter | undefined => {
    let best = -1;
    let fewest = Number.POSITIVE_INFINITY;
    queue.forEach((waiter, index) => {
      const going = runningOf.get(waiter.client) ?? 0;
      if (going < fewest) {
        fewest = going;
        best = index;
      }
    });
    const waiter = queue[best];
    return waiter && mayStart(waiter.client) ? queue.splice(best, 1)[0] : undefined;
  };

  const release = (client: string) => {
    add(runningOf, client, -1);
    add(activeOf, client, -1);
    running--;
    const next = nextWaiter();
    if (!next) return;
    running++;
    add(runningOf, next.client, 1);
    next.start();
  };

  return {
    async run(client, task) {
      if ((activeOf.get(client) ?? 0) >= perClient) {
        throw new ClientBusyError(`${perClient} runs of this client are running or waiting`);
      }
      if (mayStart(client)) {
        running++;
        add(runningOf, client, 1);
        add(activeOf, client, 1);
      } else if (queue.length < maxQueued) {
        add(activeOf, client, 1);
        await new Promise<void>((start) => queue.push({ client, start }));
      } else {
        throw new GateFullError(`${running} runs in progress and ${queue.length} queued`);
      }
      try {
        return await task();
      } finally {
        release(client);
      }
    },
    stats: () => ({ running, queued: queue.length }),
  };
}
