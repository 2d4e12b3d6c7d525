import { notFound } from "../../../problems.ts";
import { blindFilename, contentDisposition, verifiedStream } from "../../documents/service.ts";
import type { User } from "../../users/model.ts";
import { isBlindFor } from "../../workflow/service.ts";
import type { ReferenceContent } from "../model.ts";
import { findReference, type ReferenceRow, toContent } from "../queries.ts";
import { sameNotFound, staffApplication } from "./access.ts";
import type { ReferencesDeps } from "./deps.ts";

/**
 * The request, if `viewer` is staff allowed to read its application's references (else 404),
 * as they may see it: under blind review a reviewer reads a neutral file name, in the metadata
 * and the download alike, since referees name files after the applicant ("Reference for …").
 */
async function readable(deps: ReferencesDeps, viewer: User, id: string): Promise<ReferenceRow> {
  return deps.db.run(async (sql) => {
    const row = await findReference(sql, id);
    if (!row) throw notFound("Reference");
    await staffApplication(sql, row.application_id, viewer).catch(sameNotFound("Reference"));
    if (!row.file_name || !(await isBlindFor(sql, viewer, row.application_id))) return row;
    const neutral = blindFilename({ id: row.id, type: "reference", media_type: "application/pdf" });
    return { ...row, file_name: neutral };
  });
}

/** Staff read the reference itself (text or the file's metadata). */
export const getContent = async (
  deps: ReferencesDeps,
  viewer: User,
  id: string,
): Promise<ReferenceContent> => toContent(await readable(deps, viewer, id));

/** Staff download the uploaded PDF, streamed and checked against its SHA-256. */
export async function openFile(deps: ReferencesDeps, viewer: User, id: string) {
  const row = await readable(deps, viewer, id);
  if (!row.storage_key || !row.sha256 || !row.file_name) throw notFound("Reference file");
  const blob = await deps.storage.read(row.storage_key);
  // The database lists it, so its absence is the server's fault (a 500, logged), not a 404.
  if (!blob) throw new Error(`reference ${row.id}: stored file ${row.storage_key} is missing`);
  return {
    file: {
      disposition: contentDisposition(row.file_name),
      size: Number(row.size_bytes),
      sha256: row.sha256,
    },
    body: verifiedStream(blob.stream(), row.sha256),
  };
}
