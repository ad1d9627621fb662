/**
 * Every operation of openapi.yaml, exercised through the typed client against the live service.
 *
 * The cases live in test/operations/<tag>.ts, one module per tag of the spec, each declaring its
 * operations with `operation("operationId", ...)`. This file loads every module there, then checks that
 * each operationId of openapi.yaml has its cases: a new operation in the spec fails here until it has.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { describe, test } from "node:test";
import { covered } from "./operations/registry.js";
import { specOperations } from "./helpers.js";

const folder = new URL("./operations/", import.meta.url);
for (const name of readdirSync(folder).filter((n) => n.endsWith(".ts") && n !== "registry.ts").sort()) {
  await import(new URL(name, folder).href);
}

describe("the contract's operations", () => {
  test("every operationId in openapi.yaml has its cases here", () => {
    const missing = specOperations()
      .filter((op) => !covered.has(op.operationId))
      .map((op) => `${op.operationId} (${op.method} ${op.path}): add operation("${op.operationId}", ...) to test/operations/${op.tag}.ts`);
    assert.deepEqual(missing, [], `operations without a test:\n${missing.join("\n")}`);
  });

  test("every case names an operation of openapi.yaml", () => {
    const ids = new Set(specOperations().map((op) => op.operationId));
    assert.deepEqual([...covered].filter((id) => !ids.has(id)), []);
  });
});
