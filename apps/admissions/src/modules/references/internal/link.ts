import type { SQL } from "bun";
import { classify } from "../../../lib/files/file-type.ts";
import { problem } from "../../../problems.ts";
import { digestOf } from "../../account/service.ts";
import type { ApplicationStatus } from "../../workflow/model.ts";
import { isFinal } from "../../workflow/service.ts";
import type { ReferencesDeps } from "./deps.ts";
import {
  findByLiveToken,
  invitationFacts,
  type Received,
  type ReferenceRow,
  receiveReference,
} from "./queries.ts";

/*
 * The referee's side: no account, only the emailed link's token, posted in a request body
 * (never in a URL path, which the request log records). The token is looked up by its SHA-256;
 * the statement that records the reference also kills the link, so it works exactly once.
 */

export const invalidLink = () =>
  problem("INVALID_REFERENCE_LINK", {
    detail:
      "This reference link is invalid, has expired, was replaced by a newer one or was already used",
  });

type Live = { row: ReferenceRow; about: NonNullable<Awaited<ReturnType<typeof invitationFacts>>> };

/** The live request behind the token, for an application still deciding; refused otherwise. */
export async function liveRequest(sql: SQL, token: string, nowMs: number): Promise<Live> {
  const row = await findByLiveToken(sql, digestOf(token), nowMs);
  if (!row) throw invalidLink();
  const about = await invitationFacts(sql, row.application_id);
  if (!about) throw invalidLink();
  if (isFinal(about.status as ApplicationStatus)) {
    throw problem("REFERENCES_CLOSED", {
      detail: "This application is closed: no reference is needed any more. Thank you.",
    });
  }
  return { row, about };
}

/** Records what the referee sent, once: the statement that stores it kills the link. */
export async function record(
  deps: ReferencesDeps,
  token: string,
  received: Received,
): Promise<void> {
  const nowMs = deps.now();
  await deps.db.transaction(async (tx) => {
    await liveRequest(tx, token, nowMs);
    if (!(await receiveReference(tx, digestOf(token), received, nowMs))) throw invalidLink();
  });
}

/** The uploaded file as a reference: a PDF, neither empty nor cut short (409 otherwise). */
export function assertPdf(file: { head: Uint8Array; tail: Uint8Array; size: number }): void {
  const verdict = classify(file.head, file.tail, file.size);
  if (!verdict.ok && verdict.reason === "empty") {
    throw problem("DOCUMENT_EMPTY", { detail: verdict.detail });
  }
  if (!verdict.ok && verdict.reason === "truncated") {
    throw problem("DOCUMENT_TRUNCATED", { detail: verdict.detail });
  }
  if (!verdict.ok || verdict.mediaType !== "application/pdf") {
    throw problem("DOCUMENT_TYPE_NOT_ALLOWED", { detail: "A reference is uploaded as a PDF" });
  }
}
