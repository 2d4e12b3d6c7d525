import { blindFilename } from "../../../lib/files/filename.ts";
import { notFound } from "../../../problems.ts";
import type { User } from "../../users/model.ts";
import { isBlindFor } from "../../workflow/service.ts";
import { sameNotFound, staffApplication } from "./access.ts";
import type { ReferencesDeps } from "./deps.ts";
import { findReference, type ReferenceRow } from "./queries.ts";

/**
 * The request, if `viewer` is staff allowed to read its application's references (else 404),
 * as they may see it: under blind review a reviewer reads a neutral file name, in the metadata
 * and the download alike, since referees name files after the applicant ("Reference for …").
 */
export async function readable(
  deps: ReferencesDeps,
  viewer: User,
  id: string,
): Promise<ReferenceRow> {
  return deps.db.run(async (sql) => {
    const row = await findReference(sql, id);
    if (!row) throw notFound("Reference");
    await staffApplication(sql, row.application_id, viewer).catch(sameNotFound("Reference"));
    if (!row.file_name || !(await isBlindFor(sql, viewer, row.application_id))) return row;
    const neutral = blindFilename({ id: row.id, type: "reference", media_type: "application/pdf" });
    return { ...row, file_name: neutral };
  });
}
