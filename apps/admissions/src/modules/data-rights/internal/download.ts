import { verifiedStream } from "../../../lib/files/checksum.ts";
import { isoAt, newId } from "../../../lib/ids.ts";
import { recordAudit } from "../../workflow/service.ts";
import { insertRequest } from "../queries.ts";
import { type ActorOrigin, type DataRightsDeps, subjectOf } from "./deps.ts";
import { enqueueDataRightsEmail } from "./emails.ts";
import { collectExport } from "./export.ts";
import { type ZipEntry, zipStream } from "./zip.ts";

/**
 * The applicant's data as a ZIP streamed to them: `data.json` and their uploaded files. The
 * download is recorded (a completed `export` request), audited and emailed first.
 */
export async function exportData(deps: DataRightsDeps, origin: ActorOrigin) {
  const user = origin.actor;
  const at = isoAt(deps.now());
  const requestId = newId();
  await deps.db.transaction(async (tx) => {
    await insertRequest(tx, {
      id: requestId,
      userId: user.id,
      kind: "export",
      status: "completed",
      reason: null,
      at,
    });
    await recordAudit(
      tx,
      origin,
      { action: "data.exported", subject: subjectOf(user.id), details: { requestId } },
      at,
    );
    await enqueueDataRightsEmail(tx, user.email, "data.exported", {
      at,
      portalUrl: deps.portalUrl,
    });
  });
  const { data, files } = await deps.db.run((sql) => collectExport(sql, user, at));
  async function* entries(): AsyncGenerator<ZipEntry> {
    yield {
      name: "data.json",
      compress: true,
      open: async () => new TextEncoder().encode(JSON.stringify(data, null, 2)),
    };
    for (const file of files) {
      yield {
        name: file.path,
        compress: false,
        async open() {
          const blob = await deps.storage.read(file.storageKey);
          // Listed in the database but gone: the server's fault, never a silently short archive.
          if (!blob) throw new Error(`export: stored file ${file.storageKey} is missing`);
          return verifiedStream(blob.stream(), file.sha256);
        },
      };
    }
  }
  return { fileName: `admissions-data-${at.slice(0, 10)}.zip`, body: zipStream(entries()) };
}
