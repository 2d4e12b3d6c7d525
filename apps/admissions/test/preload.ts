/**
 * Once every test file has run: the suites' PostgreSQL databases still being dropped, the spare
 * copy nobody took and the migrated template they were copied from (test/pg-databases.ts).
 */
import { afterAll } from "bun:test";
import { dropAll } from "./pg-databases.ts";

afterAll(dropAll);
