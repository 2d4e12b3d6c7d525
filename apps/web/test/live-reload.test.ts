import { expect, test } from "bun:test";
import { createLogger } from "@platform/server";
import { createApp } from "../src/app.ts";
import { buildClient } from "../src/build/bundle.ts";
import { createReloadHub } from "../src/modules/live-reload/index.ts";

const logger = createLogger({ service: "web", level: "silent" });
const bundle = await buildClient({ production: false });

test("development: pages load the live-reload script, and a rebuild reaches open pages", async () => {
  const reloads = createReloadHub();
  const app = createApp({ logger, bundle: () => bundle, reloads });
  expect(await (await app.handle(new Request("http://web.test/bench/"))).text()).toContain(
    bundle.scripts["live-reload"],
  );
  const abort = new AbortController();
  const res = await app.handle(
    new Request("http://web.test/__dev/reload", { signal: abort.signal }),
  );
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  const reader = res.body?.getReader();
  const read = async () => new TextDecoder().decode((await reader?.read())?.value);
  expect(await read()).toBe(": connected\n\n");
  reloads.notify();
  expect(await read()).toBe("data: reload\n\n");
  abort.abort();
});

test("production: no live-reload route and no script for it", async () => {
  const prod = await buildClient({ production: true });
  const app = createApp({ logger, bundle: () => prod });
  expect((await app.handle(new Request("http://web.test/__dev/reload"))).status).toBe(404);
  expect(await (await app.handle(new Request("http://web.test/bench/"))).text()).not.toContain(
    "live-reload",
  );
});
