import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { problemOf } from "@platform/server/testing";
import { classify, SNIFF_BYTES } from "../src/lib/files/file-type.ts";
import { concat, documentsPath, JPEG, PNG, pdf, streamingUpload, upload } from "./files.ts";
import { createDraft, createIntake, createProgram, setupApp, signIn } from "./support.ts";

const ctx = await setupApp();
const admin = await signIn(ctx, "admin");
const program = await createProgram(ctx, admin, { requiredDocuments: ["transcript"] });
const intake = await createIntake(ctx, admin, program.id);
const applicant = await signIn(ctx);
const draft = await createDraft(ctx, applicant, intake.id);

const MiB = 1024 * 1024;
const storedFiles = () =>
  readdirSync(ctx.documentStorage.root, { recursive: true, withFileTypes: true }).filter((e) =>
    e.isFile(),
  );

/** Sends `bytes` declared as a harmless PDF; returns the problem code (or 201). */
async function verdictOf(bytes: Uint8Array): Promise<string | number> {
  const res = await upload(ctx, applicant, draft.id, "transcript", {
    bytes,
    filename: "statement.pdf",
    contentType: "application/pdf",
  });
  if (res.status === 201) return 201;
  return (await problemOf(res)).code;
}

const HTML = "<html><body><script>alert(document.cookie)</script></body></html>";

describe("the file's bytes decide: PDF, JPEG and PNG only", () => {
  test.each([
    ["a GIF", concat("GIF89a", new Uint8Array(64))],
    ["an HTML page", concat(HTML)],
    ["an SVG", concat('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>')],
    ["a Windows executable", concat("MZ", new Uint8Array(300))],
    ["a ZIP (or DOCX)", concat(Uint8Array.of(0x50, 0x4b, 3, 4), new Uint8Array(100))],
    ["plain text that mentions %PDF- later", concat("hello %PDF-1.7 %%EOF")],
    ["a PDF header after a byte-order mark", concat("\ufeff%PDF-1.7\n%%EOF")],
  ])("%s → 415 DOCUMENT_TYPE_NOT_ALLOWED", async (_label, bytes) => {
    expect(await verdictOf(bytes)).toBe("DOCUMENT_TYPE_NOT_ALLOWED");
  });

  test("a zero-byte file → 422 DOCUMENT_EMPTY", async () => {
    expect(await verdictOf(new Uint8Array(0))).toBe("DOCUMENT_EMPTY");
  });

  test.each([
    ["a PNG cut in half", PNG.subarray(0, Math.floor(PNG.byteLength / 2))],
    ["a PNG signature alone", PNG.subarray(0, 8)],
    ["a JPEG without its end marker", JPEG.subarray(0, JPEG.byteLength - 2)],
    ["a JPEG of three bytes", JPEG.subarray(0, 3)],
    ["a PDF without %%EOF", pdf(4_000).subarray(0, 3_000)],
  ])("%s → 422 DOCUMENT_TRUNCATED", async (_label, bytes) => {
    expect(await verdictOf(bytes)).toBe("DOCUMENT_TRUNCATED");
  });

  test.each([
    ["a PNG with an HTML page after IEND", concat(PNG, HTML)],
    [
      "a PNG with a ZIP archive appended",
      concat(PNG, Uint8Array.of(0x50, 0x4b, 5, 6), new Uint8Array(18)),
    ],
    ["a JPEG with a script after its end", concat(JPEG, "<script>alert(1)</script>")],
    [
      "a PDF with a ZIP appended after %%EOF",
      concat(pdf(), Uint8Array.of(0x50, 0x4b, 5, 6), new Uint8Array(18)),
    ],
    [
      "a JPEG whose comment holds a PDF header (read as a PDF by PDF readers)",
      concat(JPEG.subarray(0, 20), "%PDF-1.4\n1 0 obj", JPEG.subarray(20)),
    ],
    [
      "a PNG whose text chunk holds HTML (a browser would sniff it)",
      concat(PNG.subarray(0, 33), "\0\0\0\x40tEXtComment\0", HTML, PNG.subarray(33)),
    ],
    ["a PDF with an HTML page in its first kilobyte", concat("%PDF-1.7\n%", HTML, "\n%%EOF\n")],
  ])("polyglot: %s → 415", async (_label, bytes) => {
    expect(await verdictOf(bytes)).toBe("DOCUMENT_TYPE_NOT_ALLOWED");
  });

  test("harmless padding after the end marker is accepted (PDF and JPEG writers add it)", async () => {
    expect(await verdictOf(concat(pdf(), "\r\n\n  "))).toBe(201);
    expect(await verdictOf(concat(JPEG, new Uint8Array(16)))).toBe(201);
  });

  test("no refused file leaves anything in storage", () => {
    const files = storedFiles();
    // Only the two accepted ones above.
    expect(files).toHaveLength(2);
    expect(files.some((f) => f.name.endsWith(".part"))).toBe(false);
  });

  test("classification looks only at the first and last kilobyte (what the stream keeps)", () => {
    const big = pdf(SNIFF_BYTES * 10);
    const head = big.subarray(0, SNIFF_BYTES);
    const tail = big.subarray(big.byteLength - SNIFF_BYTES);
    expect(classify(head, tail, big.byteLength)).toEqual({
      ok: true,
      mediaType: "application/pdf",
    });
  });
});

describe("oversized uploads: 413 without reading the whole body", () => {
  const path = documentsPath(draft.id);

  test("a declared Content-Length past the limit is refused before a byte is read", async () => {
    const upload = streamingUpload(path, applicant, {
      fileBytes: 50 * MiB,
      declareLength: 50 * MiB + 500,
    });
    const res = await ctx.app.handle(upload.request);
    const problem = await problemOf(res);
    expect(problem.status).toBe(413);
    expect(problem.code).toBe("DOCUMENT_TOO_LARGE");
    expect(upload.pulled()).toBeLessThan(2 * MiB);
  });

  test("a chunked body (no length) stops being read just past 10 MiB; the partial file is deleted", async () => {
    const before = storedFiles().length;
    const upload = streamingUpload(path, applicant, { fileBytes: 200 * MiB });
    const res = await ctx.app.handle(upload.request);
    expect((await problemOf(res)).code).toBe("DOCUMENT_TOO_LARGE");
    // The stream can be ahead of the parser by a few chunks, never by the rest of 200 MiB.
    expect(upload.pulled()).toBeGreaterThan(10 * MiB);
    expect(upload.pulled()).toBeLessThan(12 * MiB);
    expect(storedFiles()).toHaveLength(before);
  });

  test("one byte over 10 MiB is too large; the limit itself is not", async () => {
    const framing = "%PDF-1.7\n".length + "\n%%EOF".length;
    const over = streamingUpload(path, applicant, { fileBytes: 10 * MiB - framing + 1 });
    expect((await problemOf(await ctx.app.handle(over.request))).code).toBe("DOCUMENT_TOO_LARGE");
    const exact = streamingUpload(path, applicant, { fileBytes: 10 * MiB - framing });
    const res = await ctx.app.handle(exact.request);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { size: number }).size).toBe(10 * MiB);
  });

  test("the limit holds for an anonymous caller too, and it is refused before its body is read", async () => {
    const upload = streamingUpload(
      path,
      { ...applicant, accessToken: "nope" },
      {
        fileBytes: 20 * MiB,
      },
    );
    const res = await ctx.app.handle(upload.request);
    expect(res.status).toBe(401);
    expect(upload.pulled()).toBeLessThan(2 * MiB);
  });
});
