/** Tag `operations`: health, readiness, metrics, the contract itself (YAML and JSON), and the receipt keys. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers.js";
import { operation, referee } from "./registry.js";

operation("getHealth", () => {
  test("alive", async () => {
    assert.equal(typeof (await referee.client.getHealth()).status, "string");
  });
});

operation("getReadiness", () => {
  test("ready", async () => {
    const readiness = await referee.client.getReadiness();
    assert.equal(readiness.ready, true);
    assert.equal(typeof readiness.status, "string");
  });
});

operation("getMetrics", () => {
  test("Prometheus text that counts this client's requests per operation", async () => {
    await referee.client.listRulesets();
    await referee.client.getRuleset("nope").catch(() => undefined);
    // Two workers share the counters: whichever answers the scrape sees both requests.
    const text = await referee.client.getMetrics();
    assert.match(text, /^# TYPE chkobba_http_requests_total counter$/m);
    assert.match(text, /^chkobba_http_requests_total\{[^}]*operation="listRulesets"[^}]*status="200"[^}]*\} [1-9]/m);
    assert.match(text, /^chkobba_http_requests_total\{[^}]*operation="getRuleset"[^}]*status="404"[^}]*\} [1-9]/m);
  });
});

operation("getOpenapi", () => {
  test("serves the committed openapi.yaml, from which this client is generated", async () => {
    const served = parse(await referee.client.getOpenapi());
    const committed = parse(readFileSync(join(REPO_ROOT, "openapi.yaml"), "utf8"));
    assert.equal(served.openapi, "3.1.0");
    assert.deepEqual(served, committed);
  });
});

operation("getOpenapiJson", () => {
  test("serves the same document as JSON: the committed openapi.json, equal to openapi.yaml", async () => {
    const served = await referee.client.getOpenapiJson();
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, "openapi.json"), "utf8"));
    assert.equal(served.openapi, "3.1.0");
    assert.deepEqual(served, committed);
    assert.deepEqual(served, parse(readFileSync(join(REPO_ROOT, "openapi.yaml"), "utf8")));
    assert.ok(Object.keys(served.paths).includes("/openapi.json"), "the document lists this operation");
  });
});

operation("getJwks", () => {
  test("the keys that verify receipts: Ed25519, the signing key first, and the one a receipt names", async () => {
    const { keys } = await referee.client.getJwks();
    assert.ok(keys.length >= 1);
    for (const key of keys) assert.deepEqual([key.kty, key.crv, key.alg, key.use], ["OKP", "Ed25519", "EdDSA", "sig"]);
    const { receipt } = await referee.client.decideMatch({ rules: "scopa", scores: [0, 0], round_points: [2, 1], receipt: true });
    const header = JSON.parse(Buffer.from(receipt!.split(".")[0]!, "base64url").toString()) as { alg: string; kid: string };
    assert.deepEqual(header, { alg: "EdDSA", kid: keys[0]!.kid });
  });
});
