import { afterAll } from "bun:test";
import { createLogger } from "@platform/server";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import { publishEvents } from "../src/modules/events/service.ts";
import type { WebhookEndpointWithSecret } from "../src/modules/webhooks/model.ts";
import {
  deliverDueWebhooks,
  fanOut,
  secretBox,
  type WebhookSender,
} from "../src/modules/webhooks/service.ts";
import { type Session, setupApp, TEST_SECRET, type TestContext } from "./support.ts";
import { call, expectJson } from "./workflow-support.ts";

/** The test app, allowed to post to receivers on 127.0.0.1 (as development is). */
export const setupWebhooksApp = (overrides: Parameters<typeof setupApp>[0] = {}) =>
  setupApp({
    webhooks: { ...DEFAULT_SETTINGS.webhooks, allowPrivateTargets: true },
    ...overrides,
  });

export type Received = { path: string; headers: Headers; body: string };

/**
 * A real HTTP receiver on loopback: it records every request and answers each path with the
 * status set for it (200 unless told), a 302 to /elsewhere, or nothing for a while ("hang").
 */
export function startReceiver(port: number) {
  const received: Received[] = [];
  const answers = new Map<string, number | "hang">();
  const base = `http://127.0.0.1:${port}`;
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    async fetch(request): Promise<Response> {
      const path = new URL(request.url).pathname;
      received.push({ path, headers: request.headers, body: await request.text() });
      const answer = answers.get(path) ?? 200;
      if (answer === "hang") {
        await Bun.sleep(3_000);
        return new Response("late");
      }
      if (answer === 302) {
        return new Response(null, { status: 302, headers: { location: `${base}/elsewhere` } });
      }
      return new Response(answer < 300 ? "ok" : "no", { status: answer });
    },
  });
  afterAll(() => server.stop(true));
  return {
    base,
    answers,
    at: (path: string) => received.filter((r) => r.path === path),
  };
}

/** The background pass's webhook part over the test app: publish, then post what is due. */
export function webhookSender(ctx: TestContext, maxAttempts = 3, timeoutMs = 5_000): WebhookSender {
  return {
    db: ctx.db,
    logger: createLogger({ service: "admissions", level: "silent" }),
    now: ctx.clock.now,
    box: secretBox(TEST_SECRET),
    allowPrivateTargets: true,
    policy: { ...DEFAULT_SETTINGS.webhooks.policy, maxAttempts },
    timeoutMs,
  };
}

export function webhookPass(ctx: TestContext, maxAttempts = 3, timeoutMs = 5_000) {
  const delivery = webhookSender(ctx, maxAttempts, timeoutMs);
  return async () => {
    await publishEvents(ctx.db, fanOut);
    return deliverDueWebhooks(delivery);
  };
}

export async function createEndpoint(
  ctx: TestContext,
  admin: Session,
  url: string,
  eventTypes: string[] = ["*"],
): Promise<WebhookEndpointWithSecret> {
  return expectJson<WebhookEndpointWithSecret>(
    await call(ctx, admin, "POST", "/api/v1/webhooks/", { url, eventTypes }),
    201,
  );
}
