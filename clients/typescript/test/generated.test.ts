/** src/schema.ts is exactly what openapi.yaml gives: regenerate with `npm run generate`. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { SCHEMA_PATH, generateSchema, staleness } from "../scripts/generate.js";
import { specOperations } from "./helpers.js";

test("the committed src/schema.ts is what openapi.yaml generates", async () => {
  const problem = await staleness();
  assert.equal(problem, null, problem ?? "");
});

test("generation is deterministic", async () => {
  assert.equal(await generateSchema(), await generateSchema());
});

test("the generated operations are the spec's operationIds", () => {
  const generated = readFileSync(SCHEMA_PATH, "utf8");
  const block = generated.slice(generated.indexOf("export interface operations {"));
  const names = [...block.matchAll(/^ {4}(\w+): \{$/gm)].map((m) => m[1]);
  assert.deepEqual(names.sort(), specOperations().map((op) => op.operationId).sort());
});
