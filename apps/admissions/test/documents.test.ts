import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { problemOf } from "@platform/server/testing";
import {
  type DocumentJson,
  documentsPath,
  JPEG,
  PNG,
  pdf,
  sha256,
  upload,
  uploaded,
  uploadRequest,
} from "./files.ts";
import {
  as,
  createDraft,
  createIntake,
  createProgram,
  type Paged,
  setupApp,
  signIn,
  suiteWithStaff,
  type TestContext,
} from "./support.ts";

const { ctx, admin, reviewer } = await suiteWithStaff();
const { app } = ctx;

/** A draft for a program asking for a transcript and an identity document, no fee. */
async function draftNeedingDocuments(on: TestContext = ctx) {
  const staff = on === ctx ? admin : await signIn(on, "admin");
  const program = await createProgram(on, staff, {
    requiredDocuments: ["transcript", "identity_document"],
  });
  const intake = await createIntake(on, staff, program.id);
  const applicant = await signIn(on);
  const draft = await createDraft(on, applicant, intake.id);
  return { applicant, draft };
}

/** Every file the storage holds, committed or partial. */
function storedFiles(root = ctx.documentStorage.root): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe("uploading", () => {
  test("a PDF: 201 with type, size, SHA-256 and sanitised name; listed; downloadable as sent", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const bytes = pdf(5_000);
    const res = await upload(ctx, applicant, draft.id, "transcript", {
      bytes,
      filename: "My Transcript.pdf",
      contentType: "application/pdf",
    });
    expect(res.status).toBe(201);
    const document = (await res.json()) as DocumentJson;
    expect(document).toMatchObject({
      applicationId: draft.id,
      type: "transcript",
      status: "uploaded",
      fileName: "My Transcript.pdf",
      mediaType: "application/pdf",
      size: bytes.byteLength,
      sha256: sha256(bytes),
      reviewNote: null,
    });
    expect(res.headers.get("location")).toBe(`${documentsPath(draft.id)}${document.id}/`);

    const list = await app.handle(as(applicant, "GET", documentsPath(draft.id)));
    const page = (await list.json()) as Paged<DocumentJson>;
    expect(page.count).toBe(1);
    expect(page.results[0]?.id).toBe(document.id);

    const download = await app.handle(as(applicant, "GET", document.downloadUrl));
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="My Transcript.pdf"; filename*=UTF-8''My%20Transcript.pdf`,
    );
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("content-security-policy")).toContain("sandbox");
    expect(download.headers.get("x-request-id")).toBeTruthy();
  });

  test("the bytes decide the type, not the declared one: a PNG sent as scan.pdf is a PNG", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const document = await uploaded(ctx, applicant, draft.id, "identity_document", {
      bytes: PNG,
      filename: "scan.pdf",
      contentType: "application/pdf",
    });
    expect(document.mediaType).toBe("image/png");
    // The name keeps what the client said, with the real extension added: never saved as .pdf.
    expect(document.fileName).toBe("scan.pdf.png");
    const jpeg = await uploaded(ctx, applicant, draft.id, "transcript", {
      bytes: JPEG,
      filename: "photo.JPG",
      contentType: "text/plain",
    });
    expect(jpeg).toMatchObject({ mediaType: "image/jpeg", fileName: "photo.JPG" });
  });

  test("a path-traversal filename is only metadata: stored under a random key inside the root", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const before = new Set(storedFiles());
    const names = ["../../../../etc/passwd.pdf", "..\\..\\windows\\win.ini.pdf", "/abs/olute.pdf"];
    const expected = ["passwd.pdf", "win.ini.pdf", "olute.pdf"];
    for (const [i, filename] of names.entries()) {
      const document = await uploaded(ctx, applicant, draft.id, "transcript", {
        bytes: pdf(),
        filename,
      });
      expect(document.fileName).toBe(expected[i] ?? "");
    }
    const added = storedFiles().filter((name) => !before.has(name));
    expect(added).toHaveLength(names.length);
    for (const name of added) expect(name).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("a name built to break the download header stays inside it", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const document = await uploaded(ctx, applicant, draft.id, "transcript", {
      bytes: pdf(),
      filename: 'evil";\tx=1; filename="a.html\u202egnp.pdf',
    });
    expect(document.fileName).not.toContain("\u202e");
    const res = await app.handle(as(applicant, "GET", document.downloadUrl));
    const disposition = res.headers.get("content-disposition") ?? "";
    expect(disposition).toStartWith('attachment; filename="');
    // One quoted ASCII name, one encoded name: no quote or semicolon escapes either.
    expect(disposition.match(/"/g)).toHaveLength(2);
    expect(disposition).toMatch(/^attachment; filename="[^";]*"; filename\*=UTF-8''[^";\s]*$/);
  });

  test("an exactly-10-MiB file is accepted", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const bytes = pdf(10 * 1024 * 1024);
    expect(bytes.byteLength).toBe(10 * 1024 * 1024);
    const document = await uploaded(ctx, applicant, draft.id, "transcript", { bytes });
    expect(document.size).toBe(bytes.byteLength);
    expect(document.sha256).toBe(sha256(bytes));
    await app.handle(as(applicant, "DELETE", `${documentsPath(draft.id)}${document.id}/`));
  });

  test("several documents of one type may be kept (a replacement for a rejected one)", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    await uploaded(ctx, applicant, draft.id, "transcript");
    await uploaded(ctx, applicant, draft.id, "transcript");
    const list = await app.handle(as(applicant, "GET", documentsPath(draft.id)));
    expect(((await list.json()) as Paged<DocumentJson>).count).toBe(2);
  });
});

describe("what an upload must carry", () => {
  test("`type` is required and must be one the program asks for (422)", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const file = { bytes: pdf(), filename: "x.pdf" };
    const cases: Record<string, string>[] = [
      {},
      { type: "" },
      { type: "portfolio" },
      { type: "not-a-type" },
    ];
    for (const fields of cases) {
      const res = await app.handle(uploadRequest(documentsPath(draft.id), fields, file, applicant));
      const problem = await problemOf(res);
      expect(problem.status).toBe(422);
      expect(problem.errors?.[0]?.path).toBe("/body/type");
    }
    expect(storedFiles().filter((name) => name.endsWith(".part"))).toEqual([]);
  });

  test("no file, or a file in another field, or two files: 422", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const none = await app.handle(
      uploadRequest(documentsPath(draft.id), { type: "transcript" }, null, applicant),
    );
    expect((await problemOf(none)).errors?.[0]?.path).toBe("/body/file");

    const form = new FormData();
    form.append("type", "transcript");
    form.append("file", new Blob([pdf()]), "a.pdf");
    form.append("file", new Blob([pdf()]), "b.pdf");
    const two = await app.handle(
      new Request(`http://localhost${documentsPath(draft.id)}`, {
        method: "POST",
        headers: { authorization: `Bearer ${applicant.accessToken}` },
        body: form,
      }),
    );
    expect((await problemOf(two)).status).toBe(422);
  });

  test("JSON or another content type instead of multipart: 415", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const json = await app.handle(as(applicant, "POST", documentsPath(draft.id), { type: "cv" }));
    expect((await problemOf(json)).status).toBe(415);
    const octets = await app.handle(
      new Request(`http://localhost${documentsPath(draft.id)}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${applicant.accessToken}`,
          "content-type": "application/pdf",
        },
        body: pdf(),
      }),
    );
    expect((await problemOf(octets)).status).toBe(415);
  });

  test("a malformed multipart body: 400, and nothing is stored", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const before = storedFiles().length;
    const res = await app.handle(
      new Request(`http://localhost${documentsPath(draft.id)}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${applicant.accessToken}`,
          "content-type": "multipart/form-data; boundary=xyz",
        },
        body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 never ends',
      }),
    );
    expect((await problemOf(res)).status).toBe(400);
    expect(storedFiles()).toHaveLength(before);
  });
});

describe("documents of a closed application, and the per-application cap", () => {
  test("uploading to a withdrawn application: 409 DOCUMENTS_CLOSED", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    await app.handle(as(applicant, "POST", `/api/v1/applications/${draft.id}/withdraw/`));
    const res = await upload(ctx, applicant, draft.id, "transcript", { bytes: pdf() });
    expect((await problemOf(res)).code).toBe("DOCUMENTS_CLOSED");
  });

  test("past the cap: 409 DOCUMENT_LIMIT_REACHED, checked before the body is read", async () => {
    const small = await setupApp({ maxDocumentsPerApplication: 2 });
    const { applicant, draft } = await draftNeedingDocuments(small);
    await uploaded(small, applicant, draft.id, "transcript");
    await uploaded(small, applicant, draft.id, "identity_document");
    const res = await upload(small, applicant, draft.id, "transcript", { bytes: pdf() });
    expect((await problemOf(res)).code).toBe("DOCUMENT_LIMIT_REACHED");
    expect(storedFiles(small.documentStorage.root)).toHaveLength(2);
  });

  test("uploads are rate limited per applicant: 429 with Retry-After", async () => {
    const limited = await setupApp({ uploadsPerHour: 2 });
    const { applicant, draft } = await draftNeedingDocuments(limited);
    await uploaded(limited, applicant, draft.id, "transcript");
    await uploaded(limited, applicant, draft.id, "transcript");
    const res = await upload(limited, applicant, draft.id, "transcript", { bytes: pdf() });
    expect((await problemOf(res)).status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.headers.get("ratelimit-policy")).toContain("q=2");
    // Another applicant is not affected.
    const other = await draftNeedingDocuments(limited);
    await uploaded(limited, other.applicant, other.draft.id, "transcript");
  });
});

describe("deleting", () => {
  test("the applicant deletes from a draft: 204, the file is gone; not after submission (409)", async () => {
    const program = await createProgram(ctx, admin, { requiredDocuments: ["cv"] });
    const intake = await createIntake(ctx, admin, program.id);
    const applicant = await signIn(ctx);
    const draft = await createDraft(ctx, applicant, intake.id);
    const first = await uploaded(ctx, applicant, draft.id, "cv");
    const second = await uploaded(ctx, applicant, draft.id, "cv");
    const before = storedFiles().length;
    const del = await app.handle(as(applicant, "DELETE", `${documentsPath(draft.id)}${first.id}/`));
    expect(del.status).toBe(204);
    expect(storedFiles()).toHaveLength(before - 1);
    const gone = await app.handle(as(applicant, "GET", first.downloadUrl));
    expect(gone.status).toBe(404);

    const submit = await app.handle(
      as(applicant, "POST", `/api/v1/applications/${draft.id}/submit/`),
    );
    expect(submit.status).toBe(200);
    const late = await app.handle(
      as(applicant, "DELETE", `${documentsPath(draft.id)}${second.id}/`),
    );
    expect((await problemOf(late)).code).toBe("APPLICATION_NOT_EDITABLE");
    const still = await app.handle(as(applicant, "GET", second.downloadUrl));
    expect(still.status).toBe(200);
  });
});

describe("staff review and the checklist", () => {
  test("missing → uploaded → rejected (with a note) → verified, as the checklist shows", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const checklist = async () => {
      const res = await app.handle(as(applicant, "GET", `${documentsPath(draft.id)}checklist/`));
      return (await res.json()) as {
        complete: boolean;
        items: { type: string; status: string; documentId: string | null }[];
      };
    };
    expect(await checklist()).toEqual({
      applicationId: draft.id,
      complete: false,
      items: [
        { type: "transcript", status: "missing", documentId: null },
        { type: "identity_document", status: "missing", documentId: null },
      ],
    } as never);

    const transcript = await uploaded(ctx, applicant, draft.id, "transcript");
    const id = await uploaded(ctx, applicant, draft.id, "identity_document");
    expect((await checklist()).complete).toBe(true);

    const review = (documentId: string, body: unknown, who = reviewer) =>
      app.handle(as(who, "POST", `${documentsPath(draft.id)}${documentId}/review/`, body));
    const noNote = await review(transcript.id, { decision: "rejected" });
    expect((await problemOf(noNote)).errors?.[0]?.path).toBe("/body/note");
    const rejected = await review(transcript.id, { decision: "rejected", note: "Cut off" });
    expect(rejected.status).toBe(200);
    expect(await rejected.json()).toMatchObject({
      status: "rejected",
      reviewNote: "Cut off",
      reviewedBy: reviewer.user.id,
    });
    const verified = await review(id.id, { decision: "verified" }, admin);
    expect(((await verified.json()) as DocumentJson).status).toBe("verified");

    const after = await checklist();
    expect(after.complete).toBe(false);
    expect(after.items).toEqual([
      { type: "transcript", status: "rejected", documentId: transcript.id },
      { type: "identity_document", status: "verified", documentId: id.id },
    ]);
    // The applicant sees the outcome and the note, not who reviewed it.
    const seen = await app.handle(
      as(applicant, "GET", `${documentsPath(draft.id)}${transcript.id}/`),
    );
    expect(await seen.json()).toMatchObject({
      status: "rejected",
      reviewNote: "Cut off",
      reviewedBy: null,
    });

    // A replacement makes the type "uploaded" again.
    const replacement = await uploaded(ctx, applicant, draft.id, "transcript");
    const last = await checklist();
    expect(last.items[0]).toEqual({
      type: "transcript",
      status: "uploaded",
      documentId: replacement.id,
    });
    expect(last.complete).toBe(true);
  });

  test("applicants cannot review, not even their own documents (403)", async () => {
    const { applicant, draft } = await draftNeedingDocuments();
    const document = await uploaded(ctx, applicant, draft.id, "transcript");
    const res = await app.handle(
      as(applicant, "POST", `${documentsPath(draft.id)}${document.id}/review/`, {
        decision: "verified",
      }),
    );
    expect(res.status).toBe(403);
  });
});
