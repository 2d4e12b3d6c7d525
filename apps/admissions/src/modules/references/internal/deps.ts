import type { Logger } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { UploadLimits } from "../../../lib/files/multipart.ts";
import type { DocumentStorage } from "../../../lib/files/storage.ts";

export type ReferenceSettings = {
  /** A referee who has not answered is reminded this long after the last email. */
  reminderIntervalMs: number;
  /** Uses of referee links (right or wrong) per client IP per hour. */
  linkUsesPerIpPerHour: number;
};

export type ReferencesDeps = {
  db: Db;
  logger: Logger;
  now: () => number;
  /** Where uploaded references live: the documents' storage (local disk or S3). */
  storage: DocumentStorage;
  limits: UploadLimits;
  /** The web portal's base URL (no trailing slash): where the emailed links lead. */
  portalUrl: string;
};

const DAY = 86_400_000;

/*
 * Limits fixed in code rather than configured (docs/admissions.md, "References"): they are
 * policy an operator has had no reason to change, and each is checked by a test.
 */
/** Referees one application may name (removing one frees its place). */
export const MAX_REFEREES = 5;
/** Reminders per referee; after the last, the link still works until it expires. */
export const MAX_REMINDERS = 3;
/** How long a link works from the email that carried it (a reminder carries a new one). */
export const LINK_LIFETIME_MS = 30 * DAY;
/** Referees an applicant may add per hour: each one makes us email a third party. */
export const REFEREES_PER_HOUR = 20;
