import { afterAll } from "bun:test";
import { rmSync } from "node:fs";
import { TEST_ROOT } from "./support.ts";

afterAll(() => rmSync(TEST_ROOT, { recursive: true, force: true }));
