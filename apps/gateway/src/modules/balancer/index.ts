import { Elysia } from "elysia";
import { checkPool, type Pool } from "./service.ts";

export type ActiveCheckDeps = {
  pools: readonly Pool[];
  intervalMs: number;
  probeTimeoutMs: number;
};

/**
 * Asks every replica's readiness probe each `intervalMs` while the gateway listens. Routes with
 * one URL are left alone: a check could not send their requests anywhere else, and a single
 * upstream keeps exactly the behaviour it had before replicas existed.
 */
export const activeChecks = ({ pools, intervalMs, probeTimeoutMs }: ActiveCheckDeps) => {
  const balanced = pools.filter((pool) => pool.replicas.length > 1);
  const timeoutMs = Math.min(probeTimeoutMs, intervalMs);
  const checkAll = () => {
    for (const pool of balanced) {
      if (pool.checking) continue;
      pool.checking = true;
      void checkPool(pool, timeoutMs).finally(() => {
        pool.checking = false;
      });
    }
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  return new Elysia({ name: "active-checks" })
    .onStart(() => {
      if (balanced.length === 0) return;
      checkAll();
      timer = setInterval(checkAll, intervalMs);
      // The checks alone must not keep a stopping process alive.
      timer.unref();
    })
    .onStop(() => clearInterval(timer));
};
