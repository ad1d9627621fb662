/**
 * src/receipts.ts, `verifyReceipt`, and the README's TypeScript example (run from the README's text), on the
 * same receipts: the contract's example, receipts made here, and the service's own receipts of decideMatch,
 * scoreRound and replayRound, which verify for the exact request and answer and for nothing else. Bodies sent
 * with other spellings of the same JSON (`2.0`, `1E0`, escapes, key order, spaces) check that the service's
 * canonical JSON (Python) is JavaScript's.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { before, describe, test } from "node:test";
import canonicalize from "canonicalize";
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet } from "jose";
import type { MatchRequest, ReplayRequest, ScoreRequest } from "../src/client.js";
import { verifyAnyReceipt, verifyReceipt, type Jwks, type ReceiptOperation } from "../src/receipts.js";
import { CLIENT_DIR } from "../scripts/service.js";
import { REPO_ROOT, SPEC, playPlainRound, useReferee } from "./helpers.js";

type Verify = (operation: string, request: unknown, answer: object, jwks: JSONWebKeySet) => Promise<boolean>;

/** The README's example, written where it finds jose and canonicalize, and imported. */
async function readmeVerifier(): Promise<Verify> {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const found = /<!-- receipt-typescript:begin -->\n```ts\n([\s\S]*?)```\n<!-- receipt-typescript:end -->/.exec(readme);
  assert.ok(found, "the README has a receipt-typescript block");
  const folder = join(CLIENT_DIR, ".readme");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, "receipt.ts");
  writeFileSync(file, found[1]!);
  const module = (await import(pathToFileURL(file).href)) as { verifyReceipt: Verify };
  return module.verifyReceipt;
}

const readme = await readmeVerifier();

test("the client's verifyAnyReceipt is the README's example, word for word", () => {
  const block = /<!-- receipt-typescript:begin -->\n```ts\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, "README.md"), "utf8"))![1]!;
  const shown = block.slice(block.indexOf("export async function verifyReceipt(")).replace("function verifyReceipt(", "function verifyAnyReceipt(");
  assert.ok(readFileSync(join(CLIENT_DIR, "src", "receipts.ts"), "utf8").includes(shown), "src/receipts.ts differs from the README");
});

/** The client's verdict, and the README's, which must agree. */
async function verifies(operation: string, request: unknown, answer: object, jwks: JSONWebKeySet): Promise<boolean> {
  const ours = await verifyAnyReceipt(operation, request, answer, jwks);
  assert.equal(await readme(operation, request, answer, jwks), ours, "the README's verifyReceipt and the client's disagree");
  return ours;
}

function without<T extends object>(value: T, name: string): object {
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== name));
}

/** Every JSON value in `value` changed in turn (and every member dropped): the copies. */
function* altered(value: unknown): Generator<[string, unknown]> {
  const copy = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
  function* at(path: (string | number)[], here: unknown): Generator<[string, unknown]> {
    const others: unknown[] =
      typeof here === "number"
        ? [here + 1, String(here)]
        : typeof here === "string"
          ? [`${here}x`, here.toLowerCase() === here ? here.toUpperCase() : here.toLowerCase()]
          : typeof here === "boolean"
            ? [!here, Number(here)]
            : here === null
              ? [0]
              : Array.isArray(here)
                ? [[...here, null], ...(here.length ? [here.slice(0, -1)] : [])]
                : [{ ...(here as object), extra: null }];
    for (const other of others) {
      if (path.length === 0) {
        yield ["", other];
        continue;
      }
      const whole = copy(value) as Record<string | number, unknown>;
      let parent = whole;
      for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
      parent[path.at(-1)!] = other;
      yield [path.join("."), whole];
    }
    if (typeof path.at(-1) === "string") {
      const whole = copy(value) as Record<string | number, unknown>;
      let parent = whole;
      for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
      delete parent[path.at(-1)!];
      yield [`${path.join(".")} dropped`, whole];
    }
    if (Array.isArray(here)) for (const [i, item] of here.entries()) yield* at([...path, i], item);
    else if (here && typeof here === "object") for (const [k, item] of Object.entries(here)) yield* at([...path, k], item);
  }
  yield* at([], value);
}

// RFC 8037, Appendix A.2 (the public key of A.1's example) and A.3 (its thumbprint).
const EXAMPLE_KEY = { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" } as const;
const EXAMPLE_KID = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k";

describe("receipts, offline", () => {
  test("the contract's example receipt verifies with RFC 8037's example key, named by its thumbprint", async () => {
    assert.equal(await calculateJwkThumbprint(EXAMPLE_KEY), EXAMPLE_KID);
    const operation = SPEC.paths["/v1/match-decisions"]!.post as unknown as {
      requestBody: { content: { "application/json": { examples: Record<string, { value: MatchRequest }> } } };
      responses: { 200: { content: { "application/json": { examples: Record<string, { value: object }> } } } };
    };
    const request = operation.requestBody.content["application/json"].examples["with-receipt"]!.value;
    const answer = operation.responses[200].content["application/json"].examples["with-receipt"]!.value;
    const jwks = { keys: [{ ...EXAMPLE_KEY, kid: EXAMPLE_KID, alg: "EdDSA", use: "sig" }] };
    assert.equal(await verifies("decideMatch", request, answer, jwks), true);
    assert.equal(await verifies("decideMatch", { ...request, receipt: false }, answer, jwks), false);
    assert.equal(await verifies("decideMatch", request, answer, { keys: [{ ...jwks.keys[0]!, kid: "another" }] }), false);
  });

  test("a receipt signed over anything but the canonical JSON fails, over it verifies", async () => {
    const { privateKey, publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const jwks = { keys: [{ ...jwk, kid, alg: "EdDSA", use: "sig" }] };
    const request = { scores: [17, 12], rules: "chkobba", round_points: [5, 1], receipt: true };
    const answer = { scores: [22, 13], outcome: "won", winner: 0, target: 21 };
    const content = { operation: "decideMatch", request, answer };
    const signed = async (text: string): Promise<string> => {
      const whole = await new CompactSign(new TextEncoder().encode(text)).setProtectedHeader({ alg: "EdDSA", kid }).sign(privateKey);
      const [header, , signature] = whole.split(".");
      return `${header}..${signature}`;
    };
    assert.equal(await verifies("decideMatch", request, { ...answer, receipt: await signed(canonicalize(content)!) }, jwks), true);
    for (const text of [
      JSON.stringify(content), // the object's own key order
      JSON.stringify(content, null, 1), // and spaces
      JSON.stringify({ answer, operation: "decideMatch", request }), // sorted at the top only
      `${canonicalize(content)}\n`,
    ]) {
      assert.equal(await verifies("decideMatch", request, { ...answer, receipt: await signed(text) }, jwks), false, text);
    }
    // The payload carried in the receipt, not detached: refused, even with the right one.
    const whole = await new CompactSign(new TextEncoder().encode(canonicalize(content)!)).setProtectedHeader({ alg: "EdDSA", kid }).sign(privateKey);
    assert.equal(await verifies("decideMatch", request, { ...answer, receipt: whole }, jwks), false);
    for (const receipt of [undefined, 7, "", "..", "a..b..c", (await signed(canonicalize(content)!)).replace("..", ".")]) {
      assert.equal(await verifies("decideMatch", request, { ...answer, receipt }, jwks), false, String(receipt));
    }
  });
});

describe("receipts from the service", () => {
  const referee = useReferee();
  let jwks: Jwks;
  before(async () => {
    await referee.ready();
    jwks = await referee.client.getJwks();
  });

  async function cases(): Promise<{ operation: ReceiptOperation; request: object; answer: object }[]> {
    const client = referee.client;
    const match: MatchRequest = { rules: "chkobba", scores: [17, 12], round_points: [5, 1], claimed: { outcome: "won", winner: 1 }, receipt: true };
    const deal = await client.dealRound({ rules: "scopa", players: 2, dealer: 0, seed: "receipts" });
    const played = await playPlainRound(client, deal);
    const replay: ReplayRequest = { rules: "scopa", players: 2, dealer: 0, deck: deal.deck, moves: played.moves, receipt: true };
    const piles = played.state!.piles;
    const score: ScoreRequest = {
      rules: "scopa",
      sides: piles.map((pile, side) => ({ captured: pile, sweeps: played.state!.sweeps[side]! })),
      last_capturer: played.state!.last_capturer,
      receipt: true,
    };
    return [
      { operation: "decideMatch", request: match, answer: await client.decideMatch(match) },
      { operation: "scoreRound", request: score, answer: await client.scoreRound(score) },
      { operation: "replayRound", request: replay, answer: await client.replayRound(replay) },
    ];
  }

  test("decideMatch, scoreRound and replayRound: a receipt verifies for the exact request and answer", async () => {
    for (const { operation, request, answer } of await cases()) {
      assert.match((answer as { receipt: string }).receipt, /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
      assert.equal(await verifyReceipt(operation, request as never, answer as never, jwks), true, operation);
      assert.equal(await verifies(operation, request, answer, jwks), true, operation);
    }
  });

  test("without receipt, or with receipt: false, nothing is signed and the answer is the same", async () => {
    const body: MatchRequest = { rules: "chkobba", scores: [3, 4], round_points: [1, 2] };
    const plain = await referee.client.decideMatch(body);
    assert.equal("receipt" in plain, false);
    assert.deepEqual(await referee.client.decideMatch({ ...body, receipt: false }), plain);
    assert.deepEqual(without(await referee.client.decideMatch({ ...body, receipt: true }), "receipt"), plain);
  });

  test("any field of the request or of the answer changed, or another operation, fails", async () => {
    for (const { operation, request, answer } of await cases()) {
      const receipt = (answer as { receipt: string }).receipt;
      let tried = 0;
      for (const [where, other] of altered(request)) {
        assert.equal(await verifyAnyReceipt(operation, other, answer, jwks), false, `${operation} request ${where}`);
        tried++;
      }
      for (const [where, other] of altered(without(answer, "receipt"))) {
        assert.equal(await verifyAnyReceipt(operation, request, { ...(other as object), receipt }, jwks), false, `${operation} answer ${where}`);
        tried++;
      }
      assert.ok(tried > 20);
      for (const another of ["decideMatch", "scoreRound", "replayRound", "replayMatch"].filter((o) => o !== operation)) {
        assert.equal(await verifies(another, request, answer, jwks), false, `${operation} as ${another}`);
      }
    }
  });

  test("a kid the key set lacks, or another key under the service's kid, fails", async () => {
    const { operation, request, answer } = (await cases())[0]!;
    const ours = jwks.keys[0]!;
    const other = await exportJWK((await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })).publicKey);
    assert.equal(await verifies(operation, request, answer, { keys: [] }), false);
    assert.equal(await verifies(operation, request, answer, { keys: [{ ...ours, kid: await calculateJwkThumbprint(other) }] }), false);
    assert.equal(await verifies(operation, request, answer, { keys: [{ ...ours, x: other.x! }] }), false);
    assert.equal(await verifies(operation, request, answer, { keys: [{ ...EXAMPLE_KEY, kid: EXAMPLE_KID }, ours] }), true);
  });

  test("the body as sent, however it is spelled: the service's canonical JSON is JavaScript's", async () => {
    // Numbers as fractions and exponents, an escape, keys in another order, spaces: JSON.parse of these bytes
    // is the request a client keeps, and the receipt verifies against it.
    const texts = [
      '{ "receipt" : true, "round_points": [5.0, 1E0],\n "scores": [17, 12.00], "rules": "\\u0063hkobba" }',
      '{"rules":{"profile":"chkobba-crp","options":{"target":16.0,"primiera":true}},"scores":[1.5e1,0],"round_points":[2,-0.0],"receipt":true}',
    ];
    for (const text of texts) {
      const response = await fetch(`${referee.url}/v1/match-decisions`, { method: "POST", headers: { "content-type": "application/json" }, body: text });
      assert.equal(response.status, 200, await response.clone().text());
      const answer = (await response.json()) as object;
      assert.equal(await verifies("decideMatch", JSON.parse(text), answer, jwks), true, text);
    }
  });

  test("the key set: Ed25519 keys, each named by its RFC 7638 thumbprint, cacheable", async () => {
    const response = await fetch(`${referee.url}/.well-known/jwks.json`);
    assert.equal(response.headers.get("cache-control"), "public, max-age=300");
    const keys = ((await response.json()) as Jwks).keys;
    assert.ok(keys.length >= 1);
    for (const key of keys) {
      assert.deepEqual([key.kty, key.crv, key.alg, key.use], ["OKP", "Ed25519", "EdDSA", "sig"]);
      assert.equal(await calculateJwkThumbprint(key), key.kid);
    }
  });
});
