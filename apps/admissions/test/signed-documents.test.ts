import { describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import type { KeySet, Verification } from "../src/modules/signed-documents/model.ts";
import { generateSigningKey, importSigningKey } from "../src/modules/signed-documents/service.ts";
import { requestErasure } from "./data-rights-support.ts";
import { draftWithFee, newPayment } from "./payments-support.ts";
import { as, PASSWORD, type Session, setupApp, signIn, type TestContext } from "./support.ts";
import {
  applicationUnderReview,
  call,
  decide,
  expectJson,
  intakeWithSeats,
} from "./workflow-support.ts";

const firstKey = await generateSigningKey();
const ctx = await setupApp({ signingKey: firstKey });
const admin = await signIn(ctx, "admin");
const reviewer = await signIn(ctx, "reviewer");

const BASE = "/api/v1/signed-documents";
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** An applicant holding a conditional offer. */
async function offered(c: TestContext = ctx) {
  const { intake } = await intakeWithSeats(c, admin);
  const { applicant, application } = await applicationUnderReview(c, reviewer, intake.id);
  await expectJson(
    await decide(c, admin, application.id, {
      decision: "conditional_offer",
      conditions: ["Final transcript showing a 2:1 or better", "Proof of English (IELTS 6.5)"],
    }),
  );
  return { applicant, application };
}

async function download(who: Session, path: string, c: TestContext = ctx) {
  const res = await c.app.handle(as(who, "GET", `${BASE}${path}`));
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The PDF as the form field `file`, as a browser's file input sends it. */
function upload(bytes: Uint8Array, c: TestContext = ctx) {
  const form = new FormData();
  form.set("file", new Blob([bytes], { type: "application/pdf" }), "letter.pdf");
  return c.app.handle(
    new Request(`http://localhost${BASE}/verify/`, { method: "POST", body: form }),
  );
}

const rawPost = (body: string | Uint8Array, type: string) =>
  ctx.app.handle(
    new Request(`http://localhost${BASE}/verify/`, {
      method: "POST",
      headers: { "content-type": type },
      body,
    }),
  );

const publicGet = (path: string, c: TestContext = ctx) =>
  c.app.handle(new Request(`http://localhost${BASE}${path}`));

describe("offer letters", () => {
  test("the applicant's letter is a PDF whose exact bytes verify, publicly and offline", async () => {
    const { applicant, application } = await offered();
    const { res, bytes } = await download(applicant, `/offer-letters/${application.id}/`);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toStartWith("attachment;");
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const id = res.headers.get("x-document-id") ?? "";
    expect(res.headers.get("x-document-sha256")).toBe(sha256(bytes));

    const verdict = await expectJson<Verification>(await upload(bytes));
    expect(verdict).toMatchObject({
      valid: true,
      outcome: "valid",
      document: { id, kind: "offer_letter", sha256: sha256(bytes) },
    });
    // Offline: the signature from the headers, the key from the public key set.
    const keys = await expectJson<KeySet>(await publicGet("/keys/"));
    const key = keys.keys.find((k) => k.kid === res.headers.get("x-signing-key-id"));
    expect(key?.current).toBe(true);
    const publicKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "OKP", crv: "Ed25519", x: key?.x ?? "" },
      { name: "Ed25519" },
      false,
      ["verify"],
    );
    const signature = Buffer.from(res.headers.get("x-document-signature") ?? "", "base64url");
    expect(await crypto.subtle.verify({ name: "Ed25519" }, publicKey, signature, bytes)).toBe(true);

    // The same letter again: same document, same bytes. Staff get it too.
    const again = await download(applicant, `/offer-letters/${application.id}/`);
    expect(again.res.headers.get("x-document-id")).toBe(id);
    expect(sha256(again.bytes)).toBe(sha256(bytes));
    const staffCopy = await download(reviewer, `/offer-letters/${application.id}/`);
    expect(staffCopy.res.headers.get("x-document-id")).toBe(id);
  });

  test("one byte changed, anywhere: not valid, and nothing said about the document", async () => {
    const { applicant, application } = await offered();
    const { bytes } = await download(applicant, `/offer-letters/${application.id}/`);
    for (const at of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const changed = bytes.slice();
      changed[at] = (changed[at] ?? 0) ^ 1;
      expect(await expectJson<Verification>(await upload(changed))).toEqual({
        valid: false,
        outcome: "unknown_document",
        document: null,
      });
    }
    const truncated = bytes.slice(0, bytes.length - 1);
    expect((await expectJson<Verification>(await upload(truncated))).valid).toBe(false);
  });

  test("checked by the printed id and the file's hash; a wrong hash or id is not valid", async () => {
    const { applicant, application } = await offered();
    const { res, bytes } = await download(applicant, `/offer-letters/${application.id}/`);
    const id = res.headers.get("x-document-id") ?? "";
    const good = await expectJson<Verification>(
      await publicGet(`/verify/${id}/?sha256=${sha256(bytes)}`),
    );
    expect(good).toMatchObject({ valid: true, document: { id, kind: "offer_letter" } });
    const wrongHash = await publicGet(`/verify/${id}/?sha256=${"a".repeat(64)}`);
    expect(await wrongHash.json()).toEqual({
      valid: false,
      outcome: "hash_mismatch",
      document: null,
    });
    const unknown = await publicGet(`/verify/${crypto.randomUUID()}/?sha256=${sha256(bytes)}`);
    expect(((await unknown.json()) as Verification).outcome).toBe("unknown_document");
    expect((await publicGet(`/verify/${id}/?sha256=nothex`)).status).toBe(422);
  });

  test("another applicant's letter is 404, like one that does not exist; no offer is 409", async () => {
    const { application } = await offered();
    const stranger = await signIn(ctx);
    const theirs = await ctx.app.handle(
      as(stranger, "GET", `${BASE}/offer-letters/${application.id}/`),
    );
    expect(theirs.status).toBe(404);
    const missing = await ctx.app.handle(
      as(stranger, "GET", `${BASE}/offer-letters/${crypto.randomUUID()}/`),
    );
    expect(missing.status).toBe(404);
    expect((await problemOf(theirs)).detail).toBe((await problemOf(missing)).detail);
    const anonymous = await publicGet(`/offer-letters/${application.id}/`);
    expect(anonymous.status).toBe(401);
    const { intake } = await intakeWithSeats(ctx, admin);
    const under = await applicationUnderReview(ctx, reviewer, intake.id);
    const early = await ctx.app.handle(
      as(under.applicant, "GET", `${BASE}/offer-letters/${under.application.id}/`),
    );
    expect((await problemOf(early)).code).toBe("OFFER_LETTER_NOT_AVAILABLE");
  });

  test("a record whose signature no longer holds is reported as such", async () => {
    const { applicant, application } = await offered();
    const { res, bytes } = await download(applicant, `/offer-letters/${application.id}/`);
    const forged = Buffer.alloc(64, 7).toString("base64url");
    await ctx.db.run(
      (sql) => sql`UPDATE signed_documents SET signature = ${forged}
        WHERE id = ${res.headers.get("x-document-id") ?? ""}`,
    );
    expect(await expectJson<Verification>(await upload(bytes))).toEqual({
      valid: false,
      outcome: "signature_invalid",
      document: null,
    });
  });
});

describe("payment receipts", () => {
  test("a confirmed payment's receipt is a signed PDF; others' are 404; unpaid ones 409", async () => {
    const { applicant, draft } = await draftWithFee(ctx, admin);
    const payment = await newPayment(ctx, applicant, draft.id);
    const early = await ctx.app.handle(as(applicant, "GET", `${BASE}/receipts/${payment.id}/`));
    expect((await problemOf(early)).code).toBe("RECEIPT_NOT_AVAILABLE");
    await expectJson(
      await call(ctx, reviewer, "POST", `/api/v1/payments/${payment.id}/confirm/`, {}),
    );
    const { res, bytes } = await download(applicant, `/receipts/${payment.id}/`);
    expect(await expectJson<Verification>(await upload(bytes))).toMatchObject({
      valid: true,
      document: { kind: "payment_receipt", id: res.headers.get("x-document-id") ?? "" },
    });
    const stranger = await signIn(ctx);
    const theirs = await ctx.app.handle(as(stranger, "GET", `${BASE}/receipts/${payment.id}/`));
    expect(theirs.status).toBe(404);
    const staff = await download(admin, `/receipts/${payment.id}/`);
    expect(staff.res.headers.get("x-document-id")).toBe(res.headers.get("x-document-id"));
  });
});

describe("the public check's input and limits", () => {
  test("the PDF comes as a form's `file`: a bare body 415, no file 400, over 2 MiB 413", async () => {
    const { applicant, application } = await offered();
    const { bytes } = await download(applicant, `/offer-letters/${application.id}/`);
    expect((await problemOf(await rawPost(bytes, "application/pdf"))).code).toBe(
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expect((await rawPost("x", "text/plain")).status).toBe(415);
    const noFile = new FormData();
    noFile.set("other", "x");
    const empty = await ctx.app.handle(
      new Request(`http://localhost${BASE}/verify/`, { method: "POST", body: noFile }),
    );
    expect((await problemOf(empty)).code).toBe("BAD_REQUEST");
    expect((await upload(new Uint8Array())).status).toBe(400);
    expect((await problemOf(await upload(new Uint8Array(2 * 1024 * 1024 + 1)))).code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
  });

  test("checks are limited per client address (429 past 60 in 10 minutes)", async () => {
    const own = await setupApp({ signingKey: firstKey });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push((await upload(new Uint8Array([i + 1]), own)).status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  }, 60_000); // its own app and database: slow to make on a busy PostgreSQL server
});

describe("keys and erasure", () => {
  test("after a key change old documents still verify; both keys are listed, the new one current", async () => {
    const { applicant, application } = await offered();
    const { res, bytes } = await download(applicant, `/offer-letters/${application.id}/`);
    const oldKid = res.headers.get("x-signing-key-id") ?? "";
    const newKey = await generateSigningKey();
    const rotated = createApp({ ...ctx.deps, signingKey: newKey });
    const rotatedCtx = { ...ctx, app: rotated } as TestContext;
    const keys = await expectJson<KeySet>(await publicGet("/keys/", rotatedCtx));
    const newKid = (await importSigningKey(newKey)).id;
    expect(keys.keys.map((k) => [k.kid, k.current]).sort()).toEqual(
      [
        [oldKid, false],
        [newKid, true],
      ].sort(),
    );
    expect(await expectJson<Verification>(await upload(bytes, rotatedCtx))).toMatchObject({
      valid: true,
      document: { keyId: oldKid },
    });
    // New documents are signed with the new key.
    const other = await offered();
    const fresh = await download(
      other.applicant,
      `/offer-letters/${other.application.id}/`,
      rotatedCtx,
    );
    expect(fresh.res.headers.get("x-signing-key-id")).toBe(newKid);
  });

  test("an erasure deletes the letters' bytes; a letter the person kept still verifies", async () => {
    const { applicant, application } = await offered();
    const { res, bytes } = await download(applicant, `/offer-letters/${application.id}/`);
    const request = await expectJson<{ id: string }>(
      await requestErasure(ctx, applicant, PASSWORD),
      201,
    );
    await expectJson(
      await call(ctx, admin, "POST", `/api/v1/data-rights/requests/${request.id}/approve/`),
    );
    const [row] = await ctx.db.run(
      (sql) => sql`SELECT pdf_base64 FROM signed_documents
        WHERE id = ${res.headers.get("x-document-id") ?? ""}`,
    );
    expect(row).toEqual({ pdf_base64: null });
    expect((await expectJson<Verification>(await upload(bytes))).valid).toBe(true);
  });
});
