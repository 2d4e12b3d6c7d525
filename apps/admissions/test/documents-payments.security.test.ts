import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { documentsPath, pdf, uploaded, uploadRequest } from "./files.ts";
import { newPayment, pay, paymentsPath } from "./payments-support.ts";
import {
  as,
  createDraft,
  createIntake,
  createProgram,
  json,
  signIn,
  suiteWithStaff,
} from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;
const program = await createProgram(ctx, admin, {
  requiredDocuments: ["transcript"],
  applicationFee: { amount: 5000, currency: "EUR" },
});
const intake = await createIntake(ctx, admin, program.id);

const victim = await signIn(ctx);
const victimDraft = await createDraft(ctx, victim, intake.id);
const victimDocument = await uploaded(ctx, victim, victimDraft.id, "transcript");
const victimPayment = await newPayment(ctx, victim, victimDraft.id);

const attacker = await signIn(ctx);
const attackerDraft = await createDraft(ctx, attacker, intake.id);
await uploaded(ctx, attacker, attackerDraft.id, "transcript");

const docs = documentsPath(victimDraft.id);
const doc = `${docs}${victimDocument.id}/`;
const paymentPath = `/api/v1/payments/${victimPayment.id}/`;
const made = crypto.randomUUID();

describe("another applicant's documents and payments are unreachable (404, as for no such id)", () => {
  const routes: [string, string][] = [
    ["GET", docs],
    ["GET", `${docs}checklist/`],
    ["GET", doc],
    ["GET", `${doc}file/`],
    ["DELETE", doc],
    ["GET", paymentsPath(victimDraft.id)],
    ["GET", `/api/v1/applications/${victimDraft.id}/fee/`],
    ["GET", paymentPath],
    ["POST", `${paymentPath}refresh/`],
    ["GET", `${paymentPath}receipt/`],
    // The attacker's own application with the victim's document id:
    ["GET", `${documentsPath(attackerDraft.id)}${victimDocument.id}/`],
    ["GET", `${documentsPath(attackerDraft.id)}${victimDocument.id}/file/`],
    ["DELETE", `${documentsPath(attackerDraft.id)}${victimDocument.id}/`],
  ];
  test.each(routes)("%s %s", async (method, path) => {
    const res = await app.handle(as(attacker, method, path));
    expect((await problemOf(res)).status).toBe(404);
    // Made-up ids answer exactly the same.
    const guessedPath = path
      .replaceAll(victimDocument.id, made)
      .replaceAll(victimPayment.id, made)
      .replaceAll(victimDraft.id, made);
    const guessed = await problemOf(await app.handle(as(attacker, method, guessedPath)));
    expect(guessed.status).toBe(404);
  });

  test("uploading to it or paying for it: 404, nothing stored", async () => {
    const up = await app.handle(
      uploadRequest(docs, { type: "transcript" }, { bytes: pdf(), filename: "x.pdf" }, attacker),
    );
    expect(up.status).toBe(404);
    const payment = await pay(ctx, attacker, victimDraft.id);
    expect(payment.status).toBe(404);
  });

  test("…and nothing of the victim's changed", async () => {
    const list = await app.handle(as(victim, "GET", docs));
    expect(((await list.json()) as { count: number }).count).toBe(1);
    const payment = await app.handle(as(victim, "GET", paymentPath));
    expect(((await payment.json()) as { status: string }).status).toBe("pending");
    const payments = await app.handle(as(victim, "GET", paymentsPath(victimDraft.id)));
    expect(((await payments.json()) as { count: number }).count).toBe(1);
  });
});

describe("roles", () => {
  const staffRoutes: [string, string, unknown][] = [
    ["POST", `${doc}review/`, { decision: "verified" }],
    ["POST", `${paymentPath}confirm/`, {}],
    ["POST", `${paymentPath}fail/`, { reason: "x" }],
    ["POST", `${paymentPath}refunds/`, { reason: "x" }],
    ["POST", `/api/v1/applications/${victimDraft.id}/fee-waiver/`, { reason: "x" }],
  ];
  test.each(staffRoutes)(
    "%s %s: the owning applicant 403, anonymous 401",
    async (method, path, body) => {
      expect((await app.handle(as(victim, method, path, body))).status).toBe(403);
      expect((await app.handle(json(method, path, body))).status).toBe(401);
    },
  );

  test("staff read any application's documents and payments", async () => {
    for (const who of [reviewer, admin]) {
      for (const path of [
        docs,
        `${doc}file/`,
        `${docs}checklist/`,
        paymentPath,
        paymentsPath(victimDraft.id),
      ]) {
        expect((await app.handle(as(who, "GET", path))).status).toBe(200);
      }
    }
  });

  test("staff neither upload, delete nor pay for an applicant (403)", async () => {
    const up = await app.handle(
      uploadRequest(docs, { type: "transcript" }, { bytes: pdf(), filename: "x.pdf" }, admin),
    );
    expect(up.status).toBe(403);
    expect((await app.handle(as(admin, "DELETE", doc))).status).toBe(403);
    expect((await pay(ctx, admin, victimDraft.id)).status).toBe(403);
  });

  test("anonymous: 401 on every read", async () => {
    for (const path of [docs, `${doc}file/`, paymentPath, `${paymentPath}receipt/`]) {
      expect((await app.handle(json("GET", path))).status).toBe(401);
    }
  });
});

describe("cookie sessions need the CSRF token for uploads and payments", () => {
  test("an upload and a payment with the cookie alone: 403 CSRF_TOKEN_MISSING; with it: accepted", async () => {
    const request = uploadRequest(
      docs,
      { type: "transcript" },
      { bytes: pdf(), filename: "x.pdf" },
    );
    request.headers.set("cookie", victim.cookie);
    expect((await problemOf(await app.handle(request))).code).toBe("CSRF_TOKEN_MISSING");

    const withToken = uploadRequest(
      docs,
      { type: "transcript" },
      { bytes: pdf(), filename: "y.pdf" },
    );
    withToken.headers.set("cookie", victim.cookie);
    withToken.headers.set("x-csrf-token", victim.csrfToken);
    expect((await app.handle(withToken)).status).toBe(201);

    const payment = await app.handle(
      json(
        "POST",
        paymentsPath(victimDraft.id),
        {},
        {
          cookie: victim.cookie,
          headers: { "idempotency-key": crypto.randomUUID() },
        },
      ),
    );
    expect((await problemOf(payment)).code).toBe("CSRF_TOKEN_MISSING");
  });
});
