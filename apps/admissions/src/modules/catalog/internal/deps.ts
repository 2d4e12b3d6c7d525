import type { Db } from "../../../db/client.ts";
import type { MoveDeps } from "../../workflow/model.ts";
import type { CatalogCache } from "./cache.ts";

/** `move`: how the waitlist's promotion moves an application (the app's wiring). */
export type CatalogDeps = { db: Db; cache: CatalogCache; now: () => number; move: MoveDeps };
