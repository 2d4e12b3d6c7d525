import type { Db } from "../../../db/client.ts";
import type { CatalogCache } from "./cache.ts";

export type CatalogDeps = { db: Db; cache: CatalogCache; now: () => number };
