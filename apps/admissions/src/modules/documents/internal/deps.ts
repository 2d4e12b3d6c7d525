import type { Logger } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { UploadLimits } from "./multipart.ts";
import type { DocumentStorage } from "./storage.ts";

export type DocumentsDeps = {
  db: Db;
  storage: DocumentStorage;
  logger: Logger;
  now: () => number;
  limits: UploadLimits;
  /** Documents one application may hold (uploads past it: 409). */
  maxPerApplication: number;
};
