import type { Logger } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { UploadLimits } from "../../../lib/files/multipart.ts";
import type { DocumentStorage } from "../../../lib/files/storage.ts";

export type DocumentsDeps = {
  db: Db;
  storage: DocumentStorage;
  logger: Logger;
  now: () => number;
  limits: UploadLimits;
  /** Documents one application may hold (uploads past it: 409). */
  maxPerApplication: number;
};
