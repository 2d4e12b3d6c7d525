import { describe, expect, test } from "bun:test";
import {
  MAX_REFEREES,
  REFERENCE_LINK_LIFETIME_MS,
  sendRefereeReminders,
} from "../src/modules/references/service.ts";
import { mailboxKey } from "../src/modules/users/service.ts";
import { PNG, pdf, sha256 } from "./files.ts";
import {
  addReferee,
  applicantWithDraft,
  codeOf,
  lastEmail,
  later,
  listOf,
  namedReferee,
  openLink,
  PORTAL,
  type ReferenceJson,
  referencesSuite,
  sendFile,
  sendText,
  TEXT,
  unverifiedApplicant,
} from "./references-support.ts";
import { as, createDraft, takeLinkToken } from "./support.ts";

const { ctx, admin, program, intake, interval, reminders } = await referencesSuite();

describe("one mailbox, several addresses (mailboxKey)", () => {
  test.each([
    ["Ada@Example.com", "ada@example.com"],
    ["ada+referee@example.com", "ada@example.com"],
    ["ADA+a+b@EXAMPLE.COM", "ada@example.com"],
    ["a.lovelace@example.com", "a.lovelace@example.com"],
    ["A.Love.Lace+x@GMail.com", "alovelace@gmail.com"],
    ["a.lovelace@googlemail.com", "alovelace@gmail.com"],
    ["+tag@example.com", "+tag@example.com"],
    [" ada@example.com ", "ada@example.com"],
  ])("%s reaches %s", (address, key) => {
    expect(mailboxKey(address)).toBe(key);
  });
});

describe("naming a referee", () => {
  test("emails the referee a link to the portal page; only the token's hash is stored", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const res = await addReferee(ctx, applicant, draft.id, { email: "Babbage.Ref@Example.org" });
    expect(res.status).toBe(201);
    const reference = (await res.json()) as ReferenceJson;
    expect(res.headers.get("location")).toBe(`/api/v1/references/${reference.id}/`);
    expect(reference).toMatchObject({
      applicationId: draft.id,
      refereeEmail: "babbage.ref@example.org",
      status: "requested",
      remindersSent: 0,
      receivedAt: null,
    });
    const email = await lastEmail(ctx, "babbage.ref@example.org", "reference_requested");
    expect(email?.application_id).toBe(draft.id);
    expect(email?.subject).toBe(`Reference request for Test applicant: ${program.name}`);
    expect(email?.body).toContain(`${PORTAL}/references/write?token=`);
    expect(email?.body).toContain("Dear Charles Babbage");
    const token = await takeLinkToken(ctx, "babbage.ref@example.org", "reference_requested");
    const [stored] = await ctx.db.run(
      (sql) => sql`SELECT * FROM reference_requests WHERE id = ${reference.id}`,
    );
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.token_hash).toBe(
      new Bun.CryptoHasher("sha256").update(token).digest("base64url"),
    );
  });

  test(`at most ${MAX_REFEREES} per application, each address once, never the applicant's own`, async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const first = await namedReferee(ctx, applicant, draft.id);
    const same = await addReferee(ctx, applicant, draft.id, {
      email: first.reference.refereeEmail.toUpperCase(),
    });
    expect(same.status).toBe(409);
    expect(await codeOf(same)).toBe("REFEREE_EXISTS");
    const own = await addReferee(ctx, applicant, draft.id, { email: applicant.user.email });
    expect(own.status).toBe(422);
    expect(await codeOf(own)).toBe("REFEREE_IS_APPLICANT");
    for (let i = 1; i < MAX_REFEREES; i++) await namedReferee(ctx, applicant, draft.id);
    const over = await addReferee(ctx, applicant, draft.id);
    expect(over.status).toBe(409);
    expect(await codeOf(over)).toBe("REFEREE_LIMIT_REACHED");
    // Removing one frees its place.
    const removed = await ctx.app.handle(
      as(applicant, "DELETE", `/api/v1/references/${first.reference.id}/`),
    );
    expect(removed.status).toBe(204);
    expect((await addReferee(ctx, applicant, draft.id)).status).toBe(201);
  });

  test("never the applicant under another form of their address: case, +tag, Gmail's dots", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const [local, domain] = applicant.user.email.split("@");
    for (const variant of [
      applicant.user.email.toUpperCase(),
      `${local}+referee@${domain}`,
      `${local?.toUpperCase()}+A+B@${domain?.toUpperCase()}`,
    ]) {
      const res = await addReferee(ctx, applicant, draft.id, { email: variant });
      expect(res.status, variant).toBe(422);
      expect(await codeOf(res)).toBe("REFEREE_IS_APPLICANT");
    }
    // Gmail delivers a.d.a@ and ada@, at gmail.com or googlemail.com, to one mailbox.
    await ctx.db.run(
      (sql) =>
        sql`UPDATE users SET email = ${`ada.${local}@gmail.com`} WHERE id = ${applicant.user.id}`,
    );
    const gmail = await addReferee(ctx, applicant, draft.id, {
      email: `A.D.A.${local?.toUpperCase()}+x@googlemail.com`,
    });
    expect(gmail.status).toBe(422);
    expect(await codeOf(gmail)).toBe("REFEREE_IS_APPLICANT");
    expect(await listOf(ctx, applicant, draft.id).then((r) => r.json())).toMatchObject({
      references: [],
    });
  });

  test("the same referee twice under two forms of one address is refused; another is not", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const first = await addReferee(ctx, applicant, draft.id, { email: "c.babbage@example.edu" });
    expect(first.status).toBe(201);
    for (const variant of ["C.Babbage+second@Example.edu", "c.babbage+x@EXAMPLE.EDU"]) {
      const again = await addReferee(ctx, applicant, draft.id, { email: variant });
      expect(again.status, variant).toBe(409);
      expect(await codeOf(again)).toBe("REFEREE_EXISTS");
    }
    // Outside Gmail a dot is part of the address: cbabbage@ is someone else.
    expect(
      (await addReferee(ctx, applicant, draft.id, { email: "cbabbage@example.edu" })).status,
    ).toBe(201);
    const gmail = await addReferee(ctx, applicant, draft.id, { email: "ada.byron@gmail.com" });
    expect(gmail.status).toBe(201);
    const dotted = await addReferee(ctx, applicant, draft.id, {
      email: "AdaByron+1@googlemail.com",
    });
    expect(dotted.status).toBe(409);
    expect(await codeOf(dotted)).toBe("REFEREE_EXISTS");
  });

  test("two concurrent requests for the last place: exactly one referee is added", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    for (let i = 1; i < MAX_REFEREES; i++) await namedReferee(ctx, applicant, draft.id);
    const statuses = (
      await Promise.all([
        addReferee(ctx, applicant, draft.id),
        addReferee(ctx, applicant, draft.id),
      ])
    ).map((res) => res.status);
    expect(statuses.sort()).toEqual([201, 409]);
    const list = (await (await listOf(ctx, applicant, draft.id)).json()) as {
      references: unknown[];
    };
    expect(list.references).toHaveLength(MAX_REFEREES);
  });

  test("bad input is 422: missing fields, an invalid address, an empty relationship", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    for (const bad of [{ email: "not-an-address" }, { relationship: "" }, { name: "" }]) {
      const res = await addReferee(ctx, applicant, draft.id, bad);
      expect(res.status).toBe(422);
    }
    const missing = await ctx.app.handle(
      as(applicant, "POST", "/api/v1/references/", { applicationId: draft.id }),
    );
    expect(missing.status).toBe(422);
  });

  test("needs a verified email address (403 EMAIL_NOT_VERIFIED): we email third parties", async () => {
    const unverified = await unverifiedApplicant(ctx);
    const draft = await createDraft(ctx, unverified, intake.id);
    const res = await addReferee(ctx, unverified, draft.id);
    expect(res.status).toBe(403);
    expect(await codeOf(res)).toBe("EMAIL_NOT_VERIFIED");
  });

  test("open while the application is a draft or submitted; later 409 REFERENCES_CLOSED", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const kept = await namedReferee(ctx, applicant, draft.id);
    const submit = await ctx.app.handle(
      as(applicant, "POST", `/api/v1/applications/${draft.id}/submit/`),
    );
    expect(submit.status).toBe(200);
    expect((await addReferee(ctx, applicant, draft.id)).status).toBe(201);
    const review = await ctx.app.handle(
      as(admin, "POST", `/api/v1/applications/${draft.id}/transitions/`, { to: "under_review" }),
    );
    expect(review.status).toBe(200);
    const late = await addReferee(ctx, applicant, draft.id);
    expect(late.status).toBe(409);
    expect(await codeOf(late)).toBe("REFERENCES_CLOSED");
    const remove = await ctx.app.handle(
      as(applicant, "DELETE", `/api/v1/references/${kept.reference.id}/`),
    );
    expect(await codeOf(remove)).toBe("REFERENCES_CLOSED");
    // A referee asked earlier can still answer while the application is being decided.
    expect((await sendText(ctx, kept.token)).status).toBe(204);
  });
});

describe("the referee's link", () => {
  test("shows who asked and for what, then takes the text once; reuse is 400", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { reference, token } = await namedReferee(ctx, applicant, draft.id);
    const opened = await openLink(ctx, token);
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({
      refereeName: "Charles Babbage",
      applicantName: "Test applicant",
      programName: program.name,
      intakeTerm: intake.term,
      expiresAt: new Date(ctx.clock.now() + REFERENCE_LINK_LIFETIME_MS).toISOString(),
    });
    // Opening does not use the link.
    expect((await openLink(ctx, token)).status).toBe(200);
    expect((await sendText(ctx, token)).status).toBe(204);
    for (const reuse of [await sendText(ctx, token), await openLink(ctx, token)]) {
      expect(reuse.status).toBe(400);
      expect(await codeOf(reuse)).toBe("INVALID_REFERENCE_LINK");
    }
    expect((await sendFile(ctx, token, pdf())).status).toBe(400);
    const list = await listOf(ctx, applicant, draft.id);
    const body = (await list.json()) as { references: Record<string, unknown>[] };
    expect(body.references).toEqual([
      expect.objectContaining({ id: reference.id, status: "received" }),
    ]);
    expect(JSON.stringify(body)).not.toContain("careful, inventive");
    expect(Object.keys(body.references[0] ?? {})).not.toContain("text");
    const content = await ctx.app.handle(as(admin, "GET", `/api/v1/references/${reference.id}/`));
    expect(await content.json()).toMatchObject({ status: "received", text: TEXT, file: null });
  });

  test("takes a PDF, which staff download as it was sent", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { reference, token } = await namedReferee(ctx, applicant, draft.id);
    const bytes = pdf(4_000);
    const res = await sendFile(ctx, token, bytes, "../../Letter for Ada.pdf");
    expect(res.status).toBe(204);
    const content = await ctx.app.handle(as(admin, "GET", `/api/v1/references/${reference.id}/`));
    expect(await content.json()).toMatchObject({
      text: null,
      file: {
        fileName: "Letter for Ada.pdf",
        mediaType: "application/pdf",
        size: bytes.byteLength,
        sha256: sha256(bytes),
        downloadUrl: `/api/v1/references/${reference.id}/file/`,
      },
    });
    const download = await ctx.app.handle(
      as(admin, "GET", `/api/v1/references/${reference.id}/file/`),
    );
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toStartWith("attachment;");
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    expect((await sendFile(ctx, token, pdf())).status).toBe(400);
  });

  test("refuses what is not a PDF, an empty file, a missing token; the link stays live", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { reference, token } = await namedReferee(ctx, applicant, draft.id);
    const png = await sendFile(ctx, token, PNG, "reference.pdf");
    expect(png.status).toBe(415);
    expect(await codeOf(png)).toBe("DOCUMENT_TYPE_NOT_ALLOWED");
    const empty = await sendFile(ctx, token, new Uint8Array(0));
    expect(empty.status).toBe(422);
    expect((await sendFile(ctx, null, pdf())).status).toBe(422);
    const notMultipart = await ctx.app.handle(
      new Request(`http://localhost/api/v1/references/link/file/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      }),
    );
    expect(notMultipart.status).toBe(415);
    const download = await ctx.app.handle(
      as(admin, "GET", `/api/v1/references/${reference.id}/file/`),
    );
    expect(download.status).toBe(404);
    expect((await openLink(ctx, token)).status).toBe(200);
    // Nothing refused was kept: the only file on disk is the one finally accepted.
    const files = async () =>
      Array.from(new Bun.Glob("**/*").scanSync({ cwd: ctx.documentStorage.root, dot: true }));
    const before = (await files()).filter((name) => !name.endsWith(".part"));
    expect((await sendFile(ctx, token, pdf())).status).toBe(204);
    expect((await files()).length).toBe(before.length + 1);
  });

  test("text too short (also once trimmed) or too long is 422, and the link stays live", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { token } = await namedReferee(ctx, applicant, draft.id);
    for (const text of ["too short", `   ${"x".repeat(10)}${" ".repeat(60)}`, "y".repeat(20_001)]) {
      expect((await sendText(ctx, token, text)).status).toBe(422);
    }
    expect((await openLink(ctx, token)).status).toBe(200);
  });

  test("expires 30 days after its email; a removed referee's link is dead", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const expiring = await namedReferee(ctx, applicant, draft.id);
    const removed = await namedReferee(ctx, applicant, draft.id);
    await later(ctx, REFERENCE_LINK_LIFETIME_MS + 1, async () => {
      expect(await codeOf(await sendText(ctx, expiring.token))).toBe("INVALID_REFERENCE_LINK");
    });
    const res = await ctx.app.handle(
      as(applicant, "DELETE", `/api/v1/references/${removed.reference.id}/`),
    );
    expect(res.status).toBe(204);
    expect(await codeOf(await openLink(ctx, removed.token))).toBe("INVALID_REFERENCE_LINK");
  });

  test("a received reference cannot be removed by the applicant (409 REFERENCE_RECEIVED)", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { reference, token } = await namedReferee(ctx, applicant, draft.id);
    expect((await sendText(ctx, token)).status).toBe(204);
    const res = await ctx.app.handle(
      as(applicant, "DELETE", `/api/v1/references/${reference.id}/`),
    );
    expect(res.status).toBe(409);
    expect(await codeOf(res)).toBe("REFERENCE_RECEIVED");
  });

  test("once the application is closed (withdrawn) the link answers 409 REFERENCES_CLOSED", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { reference, token } = await namedReferee(ctx, applicant, draft.id);
    const withdrawn = await ctx.app.handle(
      as(applicant, "POST", `/api/v1/applications/${draft.id}/transitions/`, { to: "withdrawn" }),
    );
    expect(withdrawn.status).toBe(200);
    const res = await sendText(ctx, token);
    expect(res.status).toBe(409);
    expect(await codeOf(res)).toBe("REFERENCES_CLOSED");
    await later(ctx, interval, () => sendRefereeReminders(reminders));
    expect(await lastEmail(ctx, reference.refereeEmail, "reference_reminder")).toBeUndefined();
  });

  test("two concurrent submissions with one link: exactly one is taken", async () => {
    const { applicant, draft } = await applicantWithDraft(ctx, intake.id);
    const { token } = await namedReferee(ctx, applicant, draft.id);
    const statuses = (await Promise.all([sendText(ctx, token), sendText(ctx, token)])).map(
      (res) => res.status,
    );
    expect(statuses.sort()).toEqual([204, 400]);
  });
});
