/**
 * Each client's budget of sandbox time: the time its runs took (checking included) over the last
 * window, a sliding log like the request limit. A client whose runs sleep or spin until their
 * time limit spends it within a few runs and is refused until it comes back; a client running
 * ordinary programs never notices it. Kept in the process, like the concurrency gate: each
 * replica gives a client its own budget (docs/runner.md).
 */
export class BudgetSpentError extends Error {
  override name = "BudgetSpentError";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export type ClientBudget = {
  /** Throws BudgetSpentError when the client has no time left in the window. */
  check(client: string): void;
  charge(client: string, ms: number): void;
};

type Spending = { entries: { at: number; ms: number }[]; total: number };

export function createClientBudget(opts: {
  msPerWindow: number;
  windowMs?: number;
  now?: () => number;
}): ClientBudget {
  const { msPerWindow, windowMs = 60_000, now = Date.now } = opts;
  // Ordered by last charge (re-inserted on each), so clients idle for a window are at the front.
  const clients = new Map<string, Spending>();

  const current = (client: string, at: number): Spending | undefined => {
    const spending = clients.get(client);
    if (!spending) return undefined;
    while (spending.entries.length > 0 && (spending.entries[0]?.at ?? at) <= at - windowMs) {
      spending.total -= spending.entries.shift()?.ms ?? 0;
    }
    return spending;
  };

  const forgetIdle = (at: number) => {
    for (const [client, spending] of clients) {
      const last = spending.entries.at(-1);
      if (last && last.at > at - windowMs) break;
      clients.delete(client);
    }
  };

  return {
    check(client) {
      const at = now();
      const spending = current(client, at);
      if (!spending || spending.total < msPerWindow) return;
      // Back once enough of the oldest runs have left the window.
      let total = spending.total;
      let backAt = at;
      for (const entry of spending.entries) {
        total -= entry.ms;
        backAt = entry.at + windowMs;
        if (total < msPerWindow) break;
      }
      throw new BudgetSpentError(
        `this client's runs used ${Math.round(spending.total)} ms of sandbox time in the last ${windowMs / 1000} s (the budget is ${msPerWindow} ms)`,
        Math.max(1, Math.ceil((backAt - at) / 1000)),
      );
    },
    charge(client, ms) {
      const at = now();
      forgetIdle(at);
      const spending = current(client, at) ?? { entries: [], total: 0 };
      spending.entries.push({ at, ms });
      spending.total += ms;
      clients.delete(client);
      clients.set(client, spending);
    },
  };
}
