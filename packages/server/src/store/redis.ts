import { RedisClient } from "bun";
import { SpanKind } from "../observability/spans.ts";
import { withSpan } from "../observability/tracing.ts";
import * as scripts from "./redis-scripts.ts";
import type { SharedStore } from "./types.ts";

export type RedisStoreOptions = {
  /** Prepended to every key, so several apps can share one Redis. */
  prefix: string;
  /** A command slower than this fails instead of holding the request. */
  commandTimeoutMs?: number;
};

export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

function addressOf(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port || "6379"}`;
  } catch {
    return "an unparsable URL";
  }
}

/**
 * Redis through Bun's own client. Commands are not queued while disconnected (they fail at
 * once), and each has a deadline, so an unreachable Redis surfaces as a fast, clear error that
 * callers turn into a 503 instead of requests that hang.
 */
export function redisStore(url: string, opts: RedisStoreOptions): SharedStore {
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    autoReconnect: true,
    maxRetries: 10,
    connectionTimeout: 2_000,
  });
  const timeoutMs = opts.commandTimeoutMs ?? 1_000;
  /** host:port only: the URL may carry a password, which must never reach a report or a log. */
  const address = addressOf(url);
  const key = (name: string) => `${opts.prefix}${name}`;
  const digests = new Map<string, string>();

  /** One command, a span of its own when traced: its name only, never keys or values. */
  const command = <T>(name: string, args: string[]): Promise<T> =>
    withSpan(
      name,
      {
        kind: SpanKind.CLIENT,
        // db.system: the name backends used before semantic conventions 1.26 made it db.system.name.
        attributes: { "db.system.name": "redis", "db.system": "redis", "db.operation.name": name },
      },
      () => send<T>(name, args),
    );

  async function send<T>(name: string, args: string[]): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Which step the deadline caught: an unreachable Redis (no connection) reads differently
    // in a readiness report from a slow one (connected, no answer).
    let connecting = !client.connected;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new StoreUnavailableError(
              connecting
                ? `redis ${name}: no connection to ${address} within ${timeoutMs} ms`
                : `redis ${name} timed out after ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      if (connecting) {
        await Promise.race([client.connect(), deadline]);
        connecting = false;
      }
      return (await Promise.race([client.send(name, args), deadline])) as T;
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (message.includes("NOSCRIPT")) throw error;
      throw new StoreUnavailableError(`redis ${name} failed: ${message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** EVALSHA, loading the script on first use or after a Redis restart forgot it. */
  async function run<T>(script: string, keys: string[], args: string[]): Promise<T> {
    const tail = [String(keys.length), ...keys, ...args];
    const digest = digests.get(script);
    if (digest) {
      try {
        return await command<T>("EVALSHA", [digest, ...tail]);
      } catch (error) {
        if (!(error instanceof Error && error.message.includes("NOSCRIPT"))) throw error;
      }
    }
    const loaded = await command<string>("SCRIPT", ["LOAD", script]);
    digests.set(script, loaded);
    return command<T>("EVALSHA", [loaded, ...tail]);
  }

  const ttlArgs = (ttlMs?: number) =>
    ttlMs === undefined ? [] : ["PX", String(Math.max(1, Math.ceil(ttlMs)))];

  return {
    kind: "redis",
    get: (name) => command<string | null>("GET", [key(name)]),
    async set(name, value, ttlMs) {
      await command("SET", [key(name), value, ...ttlArgs(ttlMs)]);
    },
    async setIfAbsent(name, value, ttlMs) {
      return (await command("SET", [key(name), value, "NX", ...ttlArgs(ttlMs)])) === "OK";
    },
    async delete(name) {
      await command("DEL", [key(name)]);
    },
    increment: (name, ttlMs) =>
      run<number>(scripts.INCREMENT, [key(name)], [String(Math.ceil(ttlMs))]),
    async hitWindow(name, limit, windowMs, nowMs) {
      const member = `${nowMs}-${crypto.randomUUID()}`;
      const [allowed, count, oldest] = await run<[number, number, string]>(
        scripts.HIT_WINDOW,
        [key(`window:${name}`)],
        [String(limit), String(windowMs), String(nowMs), member],
      );
      return { allowed: allowed === 1, count, oldestMs: Number(oldest) };
    },
    async rankedInsert(board, score, payload, keep) {
      const rank = await run<number>(
        scripts.RANKED_INSERT,
        [key(`rank:${board}`), key(`rank:${board}:payload`), key(`rank:${board}:seq`)],
        [String(score), payload, String(keep)],
      );
      return rank > 0 ? rank : null;
    },
    async rankedTop(board, count) {
      const payloads = await run<(string | null)[]>(
        scripts.RANKED_TOP,
        [key(`rank:${board}`), key(`rank:${board}:payload`)],
        [String(count)],
      );
      return payloads.filter((payload): payload is string => payload !== null);
    },
    async ping() {
      await command("PING", []);
    },
    async close() {
      client.close();
    },
  };
}
