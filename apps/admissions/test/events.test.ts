import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { DEFAULT_SETTINGS } from "../src/config.ts";
import type { FeedPage } from "../src/modules/events/model.ts";
import { recordEvent } from "../src/modules/events/service.ts";
import { documentsPath, uploaded } from "./files.ts";
import { newPayment, paymentsPath } from "./payments-support.ts";
import { as, createDraft, createIntake, createProgram, json, signIn } from "./support.ts";
import { setupWebhooksApp } from "./webhooks-support.ts";
import { call, expectJson } from "./workflow-support.ts";

// Manual payment references expire after a minute here, so expiry is reached within a test.
const ctx = await setupWebhooksApp({
  payments: { ...DEFAULT_SETTINGS.payments, manualTtlMs: 60_000 },
});
const admin = await signIn(ctx, "admin");
const reviewer = await signIn(ctx, "reviewer");
const applicant = await signIn(ctx);

const feed = (query: string) =>
  call(ctx, admin, "GET", `/api/v1/events/${query}`).then((res) => expectJson<FeedPage>(res));

/** Every event after `after`, read page by page as a consumer does. */
async function readAll(after: number, limit: number, type = "") {
  const events: FeedPage["events"] = [];
  let cursor = after;
  for (;;) {
    const page = await feed(`?after=${cursor}&limit=${limit}${type}`);
    events.push(...page.events);
    cursor = page.next;
    if (!page.hasMore) return { events, cursor };
  }
}

describe("the change feed", () => {
  test("pages by cursor, oldest first, with gap-free positions; a type filter narrows it", async () => {
    const start = (await readAll(0, 500)).cursor;
    const program = await createProgram(ctx, admin, {
      applicationFee: { amount: 5000, currency: "EUR" },
    });
    const intake = await createIntake(ctx, admin, program.id);
    const draft = await createDraft(ctx, applicant, intake.id);
    const payment = await newPayment(ctx, applicant, draft.id);
    await expectJson(await call(ctx, admin, "POST", `/api/v1/payments/${payment.id}/confirm/`, {}));
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/payments/${payment.id}/refunds/`, {
        amount: 1000,
        reason: "Partial refund",
      }),
      201,
    );
    await expectJson(
      await call(ctx, applicant, "POST", `/api/v1/applications/${draft.id}/submit/`),
    );

    const paged = await readAll(start, 2);
    const whole = await feed(`?after=${start}&limit=500`);
    expect(paged.events).toEqual(whole.events);
    expect(paged.cursor).toBe(whole.next);
    expect(whole.events.map((e) => e.type)).toEqual([
      "application.created",
      "payment.succeeded",
      "payment.refunded",
      "application.status_changed",
    ]);
    expect(whole.events.map((e) => e.position)).toEqual([1, 2, 3, 4].map((n) => start + n));
    expect(whole.events[1]).toMatchObject({
      applicationId: draft.id,
      subject: { type: "payment", id: payment.id },
      data: { status: "succeeded", provider: "manual", amount: 5000, currency: "EUR" },
    });
    expect(whole.events[3]?.data).toMatchObject({ from: "draft", to: "submitted" });
    // Thin events: no name, email or statement of the applicant anywhere in them.
    expect(JSON.stringify(whole.events)).not.toContain(applicant.user.email);

    const payments = await readAll(start, 1, "&type=payment.refunded");
    expect(payments.events.map((e) => e.subject.id)).toEqual([payment.id]);
    const end = await feed(`?after=${whole.next}`);
    expect(end).toEqual({ events: [], next: whole.next, hasMore: false });
    expect(paymentsPath(draft.id)).toContain(draft.id);
  });

  test("payments that fail or expire, and documents uploaded, reviewed and deleted, are events", async () => {
    const program = await createProgram(ctx, admin, {
      applicationFee: { amount: 2500, currency: "EUR" },
      requiredDocuments: ["transcript"],
    });
    const draft = await createDraft(
      ctx,
      applicant,
      (await createIntake(ctx, admin, program.id)).id,
    );
    const start = (await readAll(0, 500)).cursor;
    const failing = await newPayment(ctx, applicant, draft.id);
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/payments/${failing.id}/fail/`, {
        reason: "Not seen",
      }),
    );
    const expiring = await newPayment(ctx, applicant, draft.id);
    ctx.clock.advance(61_000);
    const seen = await expectJson<{ status: string }>(
      await call(ctx, applicant, "GET", `/api/v1/payments/${expiring.id}/`),
    );
    expect(seen.status).toBe("expired");
    const document = await uploaded(ctx, applicant, draft.id, "transcript");
    const path = `${documentsPath(draft.id)}${document.id}/`;
    await expectJson(
      await call(ctx, admin, "POST", `${path}review/`, {
        decision: "rejected",
        note: "Unreadable",
      }),
    );
    expect((await call(ctx, applicant, "DELETE", path)).status).toBe(204);
    const { events } = await feed(`?after=${start}`);
    expect(events.map((e) => [e.type, e.subject.id])).toEqual([
      ["payment.failed", failing.id],
      ["payment.expired", expiring.id],
      ["document.uploaded", document.id],
      ["document.reviewed", document.id],
      ["document.deleted", document.id],
    ]);
    expect(events[3]?.data).toEqual({ status: "rejected" }); // the note stays out
  });

  test("a refused change writes no event: the event shares the change's transaction", async () => {
    const program = await createProgram(ctx, admin, {
      applicationFee: { amount: 5000, currency: "EUR" },
    });
    const draft = await createDraft(
      ctx,
      applicant,
      (await createIntake(ctx, admin, program.id)).id,
    );
    const before = (await readAll(0, 500)).cursor;
    const refused = await call(ctx, applicant, "POST", `/api/v1/applications/${draft.id}/submit/`);
    expect((await problemOf(refused)).code).toBe("APPLICATION_FEE_UNPAID");
    expect((await feed(`?after=${before}`)).events).toEqual([]);
    // …and one rolled back after it was written leaves no trace either.
    await ctx.db
      .transaction(async (tx) => {
        await recordEvent(
          tx,
          { type: "document.deleted", applicationId: null, subject: { type: "document", id: "x" } },
          new Date(ctx.clock.now()).toISOString(),
        );
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect((await feed(`?after=${before}`)).events).toEqual([]);
  });

  test.skipIf(ctx.db.dialect !== "postgres")(
    "an event committed late is published after those committed before it, never below them",
    async () => {
      const before = (await readAll(0, 500)).cursor;
      const at = () => new Date(ctx.clock.now()).toISOString();
      const subject = (id: string) => ({ type: "document", id });
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      // Written first (an earlier UUIDv7 and timestamp), committed last.
      const slow = ctx.db.transaction(async (tx) => {
        await recordEvent(
          tx,
          { type: "document.deleted", applicationId: null, subject: subject("slow") },
          at(),
        );
        await held;
      });
      await Bun.sleep(20);
      ctx.clock.advance(1);
      await ctx.db.transaction((tx) =>
        recordEvent(
          tx,
          { type: "document.deleted", applicationId: null, subject: subject("fast") },
          at(),
        ),
      );
      const first = await feed(`?after=${before}`);
      expect(first.events.map((e) => [e.subject.id, e.position])).toEqual([["fast", before + 1]]);
      release();
      await slow;
      const second = await feed(`?after=${first.next}`);
      expect(second.events.map((e) => [e.subject.id, e.position])).toEqual([["slow", before + 2]]);
    },
  );
});

describe("who may read and manage", () => {
  const routes = [
    { method: "GET", path: "/api/v1/events/", body: undefined },
    { method: "GET", path: "/api/v1/webhooks/", body: undefined },
    {
      method: "POST",
      path: "/api/v1/webhooks/",
      body: { url: "https://example.org/h", eventTypes: ["*"] },
    },
  ];
  test.each(routes)(
    "$method $path: applicants and reviewers 403, nobody signed in 401",
    async ({ method, path, body }) => {
      for (const who of [applicant, reviewer]) {
        expect((await ctx.app.handle(as(who, method, path, body))).status).toBe(403);
      }
      expect((await ctx.app.handle(json(method, path, body))).status).toBe(401);
    },
  );

  test("unknown endpoints and deliveries of another endpoint are 404", async () => {
    const made = await expectJson<{ id: string }>(
      await call(ctx, admin, "POST", "/api/v1/webhooks/", {
        url: "https://hooks.example.org/a",
        eventTypes: ["payment.succeeded"],
      }),
      201,
    );
    const missing = "01900000-0000-7000-8000-000000000000";
    for (const path of [
      `/api/v1/webhooks/${missing}/`,
      `/api/v1/webhooks/${missing}/deliveries/`,
      `/api/v1/webhooks/${made.id}/deliveries/${missing}/`,
    ]) {
      expect((await call(ctx, admin, "GET", path)).status).toBe(404);
    }
    const redeliver = `/api/v1/webhooks/${made.id}/deliveries/${missing}/redeliver/`;
    expect((await call(ctx, admin, "POST", redeliver)).status).toBe(404);
  });

  test("URLs that are not http(s), or carry credentials, are refused (422)", async () => {
    for (const url of ["ftp://example.org/h", "not a url at all", "https://u:p@example.org/h"]) {
      const res = await call(ctx, admin, "POST", "/api/v1/webhooks/", { url, eventTypes: ["*"] });
      expect(res.status).toBe(422);
    }
    const unknownType = await call(ctx, admin, "POST", "/api/v1/webhooks/", {
      url: "https://example.org/h",
      eventTypes: ["application.deleted"],
    });
    expect(unknownType.status).toBe(422);
  });
});
