/** Once every test file has run: the migrated template the suites were copied from goes. */
import { afterAll } from "bun:test";
import { dropTemplate } from "./support.ts";

afterAll(dropTemplate);
