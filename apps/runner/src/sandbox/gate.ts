/**
 * Bounded concurrency with a short queue: at most `maxRunning` runs at once, at most `maxQueued`
 * waiting (first come, first served); past that, `run` refuses at once instead of piling up.
 */
export class GateFullError extends Error {
  override name = "GateFullError";
}

export type Gate = {
  run<T>(task: () => Promise<T>): Promise<T>;
  stats(): { running: number; queued: number };
};

export function createGate({ maxRunning, maxQueued }: { maxRunning: number; maxQueued: number }) {
  let running = 0;
  const queue: (() => void)[] = [];

  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };

  const gate: Gate = {
    async run(task) {
      if (running < maxRunning) running++;
      else if (queue.length < maxQueued) await new Promise<void>((start) => queue.push(start));
      else throw new GateFullError(`${running} runs in progress and ${queue.length} queued`);
      try {
        return await task();
      } finally {
        release();
      }
    },
    stats: () => ({ running, queued: queue.length }),
  };
  return gate;
}
