import type { Db } from "../../../db/client.ts";
import type { MoveDeps } from "../../workflow/model.ts";

export type ApplicationsDeps = {
  db: Db;
  now: () => number;
  /** How moves are made: the lifecycle with every feature's effects, as the app wires it. */
  move: MoveDeps;
};
