import { expect, test } from "bun:test";
import { generatedSchema, SCHEMA_FILE } from "./client-schema.ts";

test("src/schema.ts is the site's current OpenAPI document (else: bun scripts/client-schema.ts)", async () => {
  const committed = await Bun.file(SCHEMA_FILE).text();
  expect(committed === (await generatedSchema())).toBe(true);
}, 60_000);
