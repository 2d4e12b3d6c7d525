import { afterAll, describe, expect, test } from "bun:test";
import { problemOf } from "@platform/server/testing";
import { createApp } from "../src/app.ts";
import { s3Storage } from "../src/lib/files/s3-storage.ts";
import {
  type DocumentJson,
  documentsPath,
  pdf,
  sha256,
  streamingUpload,
  upload,
  uploaded,
} from "./files.ts";
import { startS3, unreachableS3 } from "./s3-server.ts";
import {
  as,
  createDraft,
  createIntake,
  createProgram,
  type Paged,
  setupApp,
  signIn,
} from "./support.ts";

const s3 = await startS3();
afterAll(() => s3.stop());
const ctx = await setupApp({ documentStorage: s3Storage(s3.settings) });
const { app } = ctx;
const admin = await signIn(ctx, "admin");
const program = await createProgram(ctx, admin, { requiredDocuments: ["transcript", "cv"] });
const intake = await createIntake(ctx, admin, program.id);

async function freshDraft() {
  const applicant = await signIn(ctx);
  return { applicant, draft: await createDraft(ctx, applicant, intake.id) };
}
const MiB = 1024 * 1024;

describe("documents on S3", () => {
  test("upload, list, download as sent, delete: the object follows the row", async () => {
    const { applicant, draft } = await freshDraft();
    const bytes = pdf(200_000);
    const before = await s3.objects();
    const document = await uploaded(ctx, applicant, draft.id, "transcript", { bytes });
    expect(document.sha256).toBe(sha256(bytes));
    expect((await s3.objects()).length).toBe(before.length + 1);
    const list = await app.handle(as(applicant, "GET", documentsPath(draft.id)));
    expect(((await list.json()) as Paged<DocumentJson>).count).toBe(1);
    const download = await app.handle(as(applicant, "GET", document.downloadUrl));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
    const del = await app.handle(
      as(applicant, "DELETE", `${documentsPath(draft.id)}${document.id}/`),
    );
    expect(del.status).toBe(204);
    expect(await s3.objects()).toEqual(before);
  });

  test("an exactly-10-MiB file goes up in parts and comes back intact", async () => {
    const { applicant, draft } = await freshDraft();
    const bytes = pdf(10 * MiB);
    const document = await uploaded(ctx, applicant, draft.id, "transcript", { bytes });
    const download = await app.handle(as(applicant, "GET", document.downloadUrl));
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  test("refused files leave no object: wrong type, too large (413 mid-stream)", async () => {
    const { applicant, draft } = await freshDraft();
    const before = await s3.objects();
    const html = await upload(ctx, applicant, draft.id, "transcript", {
      bytes: new TextEncoder().encode("<html><script>1</script></html>"),
    });
    expect((await problemOf(html)).status).toBe(415);
    const big = streamingUpload(documentsPath(draft.id), applicant, { fileBytes: 12 * MiB });
    expect((await problemOf(await app.handle(big.request))).code).toBe("DOCUMENT_TOO_LARGE");
    expect(await s3.objects()).toEqual(before);
  });

  test("a client that goes away mid-upload (6 MiB sent, past the first part) leaves no object", async () => {
    const { applicant, draft } = await freshDraft();
    const before = await s3.objects();
    const boundary = "----gone";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ntranscript\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7\n`;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(head));
        if (sent >= 6) return controller.error(new Error("connection reset by the client"));
        sent++;
        controller.enqueue(new Uint8Array(MiB).fill(0x20));
      },
    });
    const request = new Request(`http://localhost${documentsPath(draft.id)}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${applicant.accessToken}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    const res = await app.handle(request);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await s3.objects()).toEqual(before);
    const list = await app.handle(as(applicant, "GET", documentsPath(draft.id)));
    expect(((await list.json()) as Paged<DocumentJson>).count).toBe(0);
  });
});

describe("replicas and outages", () => {
  test("two app instances on one bucket see each other's documents", async () => {
    const replica = createApp({ ...ctx.deps, documentStorage: s3Storage(s3.settings) });
    const { applicant, draft } = await freshDraft();
    const bytes = pdf(7 * MiB);
    const before = await s3.objects();
    const document = await uploaded(ctx, applicant, draft.id, "cv", { bytes });
    const there = await replica.handle(as(applicant, "GET", document.downloadUrl));
    expect(there.status).toBe(200);
    expect(sha256(new Uint8Array(await there.arrayBuffer()))).toBe(sha256(bytes));
    // And back: deleted through the replica, gone for the first instance too.
    const del = await replica.handle(
      as(applicant, "DELETE", `${documentsPath(draft.id)}${document.id}/`),
    );
    expect(del.status).toBe(204);
    expect((await app.handle(as(applicant, "GET", document.downloadUrl))).status).toBe(404);
    expect(await s3.objects()).toEqual(before);
  });

  test("S3 unreachable: uploads and downloads are 503 problem+json with Retry-After, no row kept", async () => {
    const cut = createApp({ ...ctx.deps, documentStorage: s3Storage(unreachableS3()) });
    const { applicant, draft } = await freshDraft();
    const stored = await uploaded(ctx, applicant, draft.id, "transcript");
    const download = await cut.handle(as(applicant, "GET", stored.downloadUrl));
    const problem = await problemOf(download);
    expect(problem.status).toBe(503);
    expect(download.headers.get("retry-after")).toBe("5");
    const res = await cut.handle(
      new Request(`http://localhost${documentsPath(draft.id)}`, {
        method: "POST",
        headers: { authorization: `Bearer ${applicant.accessToken}` },
        body: (() => {
          const form = new FormData();
          form.append("type", "cv");
          form.append("file", new Blob([pdf()]), "cv.pdf");
          return form;
        })(),
      }),
    );
    expect((await problemOf(res)).status).toBe(503);
    const list = await app.handle(as(applicant, "GET", documentsPath(draft.id)));
    expect(((await list.json()) as Paged<DocumentJson>).count).toBe(1);
  });
});
