import type { Logger } from "@platform/server";
import type { Db } from "../../../db/client.ts";
import type { DocumentStorage } from "../../../lib/files/storage.ts";
import type { PasswordCost, User } from "../../users/model.ts";
import type { MoveDeps, Origin } from "../../workflow/model.ts";

export type DataRightsDeps = {
  db: Db;
  logger: Logger;
  now: () => number;
  storage: DocumentStorage;
  move: MoveDeps;
  portalUrl: string;
  passwordCost: PasswordCost;
  /** Calendar years an erased applicant's payment records are kept. */
  retentionYears: number;
};

export type ActorOrigin = Origin & { actor: User };

export const subjectOf = (userId: string) => ({ type: "user", id: userId });
