import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { createMetrics } from "@platform/server";
import { metricValue, problemOf } from "@platform/server/testing";
import { admissionsMetrics } from "../src/metrics.ts";
import type { ChangeEvent } from "../src/modules/events/model.ts";
import { verifySignature } from "../src/modules/webhooks/internal/signature.ts";
import type {
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
} from "../src/modules/webhooks/model.ts";
import { runJobsOnce } from "../src/wiring.ts";
import { createDraft, createIntake, createProgram, type Paged, signIn } from "./support.ts";
import {
  createEndpoint,
  setupWebhooksApp,
  startReceiver,
  webhookPass,
  webhookSender,
} from "./webhooks-support.ts";
import { call, expectJson, recordingMailer, testJobs } from "./workflow-support.ts";

const ctx = await setupWebhooksApp();
const admin = await signIn(ctx, "admin");
const receiver = startReceiver(4142);
const pass = webhookPass(ctx);
const program = await createProgram(ctx, admin);
const intake = await createIntake(ctx, admin, program.id);

let hooks = 0;
const newHook = () => `/hook/${++hooks}`;
const nowSec = () => Math.floor(ctx.clock.now() / 1000);

async function deliveriesOf(endpointId: string) {
  const page = await expectJson<Paged<WebhookDelivery>>(
    await call(ctx, admin, "GET", `/api/v1/webhooks/${endpointId}/deliveries/`),
  );
  return page.results;
}
const detail = async (endpointId: string, deliveryId: string) =>
  expectJson<WebhookDeliveryDetail>(
    await call(ctx, admin, "GET", `/api/v1/webhooks/${endpointId}/deliveries/${deliveryId}/`),
  );

// Every test starts with no endpoint, so a pass's counts are its own endpoints' only, and at
// the same time, so its access token stays valid however far it moved the clock.
let startedAt = ctx.clock.now();
beforeEach(() => {
  startedAt = ctx.clock.now();
});
afterEach(async () => {
  ctx.clock.set(startedAt);
  const { results } = await expectJson<{ results: WebhookEndpoint[] }>(
    await call(ctx, admin, "GET", "/api/v1/webhooks/"),
  );
  for (const endpoint of results) {
    expect((await call(ctx, admin, "DELETE", `/api/v1/webhooks/${endpoint.id}/`)).status).toBe(204);
  }
});

/** One new draft: one application.created event. */
const newDraft = async () => createDraft(ctx, await signIn(ctx), intake.id);

describe("signed deliveries", () => {
  test("each event is posted once, signed as Standard Webhooks has it; the secret is shown once", async () => {
    const path = newHook();
    const endpoint = await createEndpoint(ctx, admin, `${receiver.base}${path}`);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const shown = await expectJson<WebhookEndpoint>(
      await call(ctx, admin, "GET", `/api/v1/webhooks/${endpoint.id}/`),
    );
    expect(shown).not.toHaveProperty("secret");
    const [stored] = await ctx.db.run(
      (sql) => sql`SELECT secret_sealed FROM webhook_endpoints WHERE id = ${endpoint.id}`,
    );
    expect(String(stored?.secret_sealed)).not.toContain(endpoint.secret.slice(6));

    const draft = await newDraft();
    expect(await pass()).toEqual({ delivered: 1, failed: 0 });
    const [request] = receiver.at(path);
    if (!request) throw new Error("nothing received");
    const body = JSON.parse(request.body) as ChangeEvent;
    expect(body).toMatchObject({
      type: "application.created",
      applicationId: draft.id,
      subject: { type: "application", id: draft.id },
      data: { status: "draft", programId: program.id, intakeId: intake.id },
    });
    expect(request.headers.get("webhook-id")).toBe(body.id);
    expect(request.headers.get("content-type")).toBe("application/json");
    // The signature as a receiver computes it by hand, without our code.
    const timestamp = request.headers.get("webhook-timestamp") ?? "";
    expect(Number(timestamp)).toBe(nowSec());
    const key = Buffer.from(endpoint.secret.slice("whsec_".length), "base64");
    const expected = createHmac("sha256", key)
      .update(`${body.id}.${timestamp}.${request.body}`)
      .digest("base64");
    expect(request.headers.get("webhook-signature")).toBe(`v1,${expected}`);
    expect(verifySignature(endpoint.secret, request.headers, request.body, nowSec())).toBe(true);

    // Replays and forgeries a receiver following the docs refuses.
    expect(verifySignature(endpoint.secret, request.headers, request.body, nowSec() + 301)).toBe(
      false,
    );
    expect(verifySignature(endpoint.secret, request.headers, `${request.body} `, nowSec())).toBe(
      false,
    );
    const other = await createEndpoint(ctx, admin, `${receiver.base}/unused`, ["payment.failed"]);
    expect(verifySignature(other.secret, request.headers, request.body, nowSec())).toBe(false);

    // The secret is in no audit entry either.
    const audit = await ctx.db.run(
      (sql) => sql`SELECT details FROM audit_log
      WHERE subject_id = ${endpoint.id}`,
    );
    expect(audit).toHaveLength(1); // its creation
    expect(JSON.stringify(audit)).not.toContain(endpoint.secret.slice(6, 30));

    // Published once, fanned out once: further passes post nothing.
    expect(await pass()).toEqual({ delivered: 0, failed: 0 });
    expect(receiver.at(path)).toHaveLength(1);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
  });

  test("a rotated secret signs every attempt from then on; the old one no longer verifies", async () => {
    const path = newHook();
    const endpoint = await createEndpoint(ctx, admin, `${receiver.base}${path}`);
    const rotated = await expectJson<{ secret: string }>(
      await call(ctx, admin, "POST", `/api/v1/webhooks/${endpoint.id}/rotate-secret/`),
    );
    expect(rotated.secret).not.toBe(endpoint.secret);
    await newDraft();
    await pass();
    const [request] = receiver.at(path);
    if (!request) throw new Error("nothing received");
    expect(verifySignature(rotated.secret, request.headers, request.body, nowSec())).toBe(true);
    expect(verifySignature(endpoint.secret, request.headers, request.body, nowSec())).toBe(false);
  });
});

describe("retries through the outbox", () => {
  test("a 500 is retried after its backoff with the same webhook-id, then delivered once", async () => {
    const path = newHook();
    receiver.answers.set(path, 500);
    const endpoint = await createEndpoint(ctx, admin, `${receiver.base}${path}`);
    await newDraft();
    expect(await pass()).toEqual({ delivered: 0, failed: 1 });
    const [pending] = await deliveriesOf(endpoint.id);
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    expect(await pass()).toEqual({ delivered: 0, failed: 0 }); // not due before its backoff
    ctx.clock.advance(30_000);
    expect(await pass()).toEqual({ delivered: 0, failed: 1 });
    receiver.answers.set(path, 204);
    ctx.clock.advance(60_000);
    expect(await pass()).toEqual({ delivered: 1, failed: 0 });
    ctx.clock.advance(600_000);
    expect(await pass()).toEqual({ delivered: 0, failed: 0 });
    const requests = receiver.at(path);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers.get("webhook-id"))).size).toBe(1);
    const done = await detail(endpoint.id, pending?.id ?? "");
    expect(done.status).toBe("delivered");
    expect(done.attemptLog.map((a) => a.statusCode)).toEqual([500, 500, 204]);
  });

  test("out of attempts it is dead; an admin redelivers it; a pending one is refused", async () => {
    const path = newHook();
    receiver.answers.set(path, 503);
    const endpoint = await createEndpoint(ctx, admin, `${receiver.base}${path}`);
    await newDraft();
    for (const wait of [0, 30_000, 60_000, 120_000, 240_000]) {
      ctx.clock.advance(wait);
      await pass();
    }
    expect(receiver.at(path)).toHaveLength(3); // maxAttempts in this suite
    const [dead] = await deliveriesOf(endpoint.id);
    expect(dead).toMatchObject({ status: "dead", attempts: 3, nextAttemptAt: null });
    const metrics = createMetrics("admissions");
    admissionsMetrics(metrics, ctx.db);
    const text = await metrics.registry.metrics();
    expect(metricValue(text, "admissions_webhook_deliveries", 'status="dead"')).toBe("1");
    const redeliver = `/api/v1/webhooks/${endpoint.id}/deliveries/${dead?.id}/redeliver/`;
    receiver.answers.set(path, 200);
    const again = await expectJson<WebhookDelivery>(await call(ctx, admin, "POST", redeliver), 202);
    expect(again).toMatchObject({ status: "pending", attempts: 0 });
    const refused = await call(ctx, admin, "POST", redeliver);
    expect(refused.status).toBe(409);
    expect((await problemOf(refused)).code).toBe("WEBHOOK_DELIVERY_PENDING");
    expect(await pass()).toEqual({ delivered: 1, failed: 0 });
    expect((await detail(endpoint.id, dead?.id ?? "")).attemptLog).toHaveLength(4);
  });

  test("redirects are not followed and a receiver that does not answer times out", async () => {
    const redirecting = newHook();
    const hanging = newHook();
    receiver.answers.set(redirecting, 302);
    receiver.answers.set(hanging, "hang");
    const moved = await createEndpoint(ctx, admin, `${receiver.base}${redirecting}`);
    const slow = await createEndpoint(ctx, admin, `${receiver.base}${hanging}`);
    await newDraft();
    expect(await webhookPass(ctx, 3, 300)()).toEqual({ delivered: 0, failed: 2 });
    expect(receiver.at("/elsewhere")).toHaveLength(0);
    expect((await deliveriesOf(moved.id))[0]).toMatchObject({ lastStatusCode: 302 });
    const [timedOut] = await deliveriesOf(slow.id);
    expect(timedOut).toMatchObject({ status: "pending", lastStatusCode: null });
    expect(timedOut?.lastError).toContain("TimeoutError");
  });
});

describe("which endpoints get what", () => {
  test("the type filter holds, a disabled endpoint gets nothing, a new one nothing older", async () => {
    const paymentsOnly = newHook();
    const disabledPath = newHook();
    await newDraft(); // before both endpoints exist
    await pass();
    const filtered = await createEndpoint(ctx, admin, `${receiver.base}${paymentsOnly}`, [
      "payment.succeeded",
    ]);
    const disabled = await createEndpoint(ctx, admin, `${receiver.base}${disabledPath}`);
    await expectJson(
      await call(ctx, admin, "PATCH", `/api/v1/webhooks/${disabled.id}/`, { enabled: false }),
    );
    await newDraft();
    await pass();
    expect(receiver.at(paymentsOnly)).toHaveLength(0);
    expect(receiver.at(disabledPath)).toHaveLength(0);
    expect(await deliveriesOf(filtered.id)).toHaveLength(0);
    expect(await deliveriesOf(disabled.id)).toHaveLength(0);
  });
});

describe("the background pass", () => {
  test("publishes the new events and posts the webhooks due (the server's jobs)", async () => {
    const path = newHook();
    await createEndpoint(ctx, admin, `${receiver.base}${path}`, ["application.status_changed"]);
    const draft = await newDraft();
    const jobs = { ...testJobs(ctx, recordingMailer().mailer), webhooks: webhookSender(ctx) };
    const before = await runJobsOnce(jobs);
    expect(before).toMatchObject({ webhooksDelivered: 0, webhooksFailed: 0 });
    expect(before.published).toBeGreaterThan(0);
    const withdrawn = await call(
      ctx,
      admin,
      "POST",
      `/api/v1/applications/${draft.id}/transitions/`,
      {
        to: "withdrawn",
        reason: "Applicant asked by phone",
      },
    );
    expect(withdrawn.status).toBe(200);
    expect(await runJobsOnce(jobs)).toMatchObject({ published: 1, webhooksDelivered: 1 });
    const [request] = receiver.at(path);
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      type: "application.status_changed",
      data: { from: "draft", to: "withdrawn" },
    });
  });
});
