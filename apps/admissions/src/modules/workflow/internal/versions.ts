import { HttpProblem } from "@platform/server";
import { problem } from "../../../problems.ts";
import type { Precondition } from "../model.ts";

const ETAG = /^(?:W\/)?"(\d{1,9})"$/;

export const etagOf = (version: number): string => `"${version}"`;

/** `If-Match: "3"` (weak or strong), `*` (any version) or absent, plus the body's `version`. */
export function preconditionsOf(
  ifMatch: string | null,
  bodyVersion: number | undefined,
): Precondition[] {
  const preconditions: Precondition[] = [];
  const header = ifMatch?.trim();
  if (header && header !== "*") {
    const version = ETAG.exec(header)?.[1];
    if (version === undefined) {
      throw new HttpProblem("BAD_REQUEST", {
        detail: 'If-Match must be an ETag this API sent, e.g. "3"',
      });
    }
    preconditions.push({ version: Number(version), via: "if-match" });
  }
  if (bodyVersion !== undefined) preconditions.push({ version: bodyVersion, via: "body" });
  return preconditions;
}

/** Optimistic locking: refuses the change when the client's copy is out of date. */
export function assertVersion(current: number, preconditions: Precondition[]): void {
  for (const { version, via } of preconditions) {
    if (version === current) continue;
    const detail = `The application changed since you read it (your version ${version}, now ${current}); reload and retry`;
    throw via === "if-match"
      ? problem("PRECONDITION_FAILED", { detail, extensions: { currentVersion: current } })
      : problem("VERSION_CONFLICT", { detail, extensions: { currentVersion: current } });
  }
}

/** A concurrent writer won the race between our read and our conditional UPDATE. */
export const lostRace = () =>
  problem("VERSION_CONFLICT", {
    detail: "The application was changed by another request at the same time; reload and retry",
  });
