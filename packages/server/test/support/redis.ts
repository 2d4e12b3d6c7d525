import { memoryStore, redisStore, type SharedStore } from "../../src/index.ts";
import { freePort } from "./ports.ts";

export type TestRedis = { url: string; stop(): Promise<void> };

/**
 * A Redis for tests: TEST_REDIS_URL when set, else a throwaway redis-server on a free port when
 * the binary is installed. Under CI a missing Redis is an error, never a silent skip.
 */
export async function startRedis(): Promise<TestRedis | null> {
  const configured = process.env.TEST_REDIS_URL;
  if (configured) return { url: configured, stop: async () => {} };
  const binary = Bun.which("redis-server");
  if (!binary) {
    if (process.env.CI)
      throw new Error("CI needs Redis: install redis-server or set TEST_REDIS_URL");
    console.warn("redis-server not found and TEST_REDIS_URL unset: Redis tests are skipped");
    return null;
  }
  const port = await freePort();
  const proc = Bun.spawn(
    [binary, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdout: "ignore", stderr: "inherit" },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
      return {
        url,
        stop: async () => {
          proc.kill();
          await proc.exited;
        },
      };
    } catch {
      await Bun.sleep(20);
    }
  }
  proc.kill();
  throw new Error(`redis-server did not start on port ${port}`);
}

/** Keys of one test run never meet another's, even on a shared TEST_REDIS_URL. */
export const uniquePrefix = (label: string) => `test:${label}:${crypto.randomUUID()}:`;

/**
 * The store a suite runs on: process memory by default, Redis when TEST_REDIS_URL is set. CI
 * runs every suite twice, once each way, so the same assertions hold on both backends.
 */
export function testStore(label: string): SharedStore {
  const url = process.env.TEST_REDIS_URL;
  return url ? redisStore(url, { prefix: uniquePrefix(label) }) : memoryStore();
}
