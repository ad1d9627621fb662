/**
 * src/shuffle.ts, the seeded shuffle of CONTRACT.md in TypeScript: against every published test vector
 * (tests/vectors/shuffle.json, the table of docs/seeded-shuffle.md), the rejection path, and the decks the
 * service deals from seeds.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { ProblemError, type Card, type PlainDeal } from "../src/client.js";
import { CANONICAL_DECK, draw, draws, seedText, seededDeck, shuffleWithDraws } from "../src/shuffle.js";
import { REPO_ROOT, useReferee } from "./helpers.js";

interface Vector {
  id: string;
  input: { seed: string | number };
  expect: { deck: Card[] };
}
const VECTORS = (JSON.parse(readFileSync(join(REPO_ROOT, "tests", "vectors", "shuffle.json"), "utf8")) as { vectors: Vector[] })
  .vectors;
const SPAN = 1n << 64n;

describe("the published test vectors", () => {
  test("there are some, with string and integer seeds", () => {
    assert.ok(VECTORS.length >= 7);
    assert.ok(VECTORS.some((v) => typeof v.input.seed === "number"));
    assert.ok(VECTORS.some((v) => typeof v.input.seed === "string"));
  });
  for (const vector of VECTORS) {
    test(`${vector.id}: seed ${JSON.stringify(vector.input.seed)}`, () => {
      assert.deepEqual(seededDeck(vector.input.seed), vector.expect.deck);
    });
  }

  test("the docs' table publishes the same decks", () => {
    const doc = readFileSync(join(REPO_ROOT, "docs", "seeded-shuffle.md"), "utf8");
    const rows = [...doc.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|$/gm)].map((m) => [JSON.parse(m[1]!), m[2]!.split(" ")]);
    assert.deepEqual(
      rows,
      VECTORS.map((v) => [v.input.seed, v.expect.deck]),
    );
  });
});

describe("the algorithm", () => {
  test("the canonical order: D H S C, each A..K", () => {
    assert.equal(CANONICAL_DECK.length, 40);
    assert.deepEqual([CANONICAL_DECK[0], CANONICAL_DECK[9], CANONICAL_DECK[10], CANONICAL_DECK[39]], ["AD", "KD", "AH", "KC"]);
  });

  test('draws hash the UTF-8 text "<seed>:<k>", first 8 bytes big-endian', () => {
    // référé:0 is hashed as its UTF-8 bytes (docs/seeded-shuffle.md): é is two bytes, not one.
    const utf8 = Buffer.from("référé:0", "utf8");
    assert.deepEqual([...utf8], [0x72, 0xc3, 0xa9, 0x66, 0xc3, 0xa9, 0x72, 0xc3, 0xa9, 0x3a, 0x30]);
    const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest();
    assert.equal(draw("référé", 0), BigInt(`0x${sha(utf8).subarray(0, 8).toString("hex")}`));
    assert.notEqual(draw("référé", 0), BigInt(`0x${sha(Buffer.from("référé:0", "latin1")).subarray(0, 8).toString("hex")}`));
    assert.notEqual(draw("référé", 0), sha(utf8).readBigUInt64LE(0), "big-endian, not little-endian");
    const stream = draws(0);
    assert.deepEqual([stream.next().value, stream.next().value], [draw("0", 0), draw("0", 1)]);
  });

  test("an integer seed is its decimal text; bigints beyond 2^53 stay exact", () => {
    assert.deepEqual([seedText(42), seedText("42"), seedText(-7), seedText(0), seedText(-0)], ["42", "42", "-7", "0", "0"]);
    assert.equal(seedText(SPAN - 1n), "18446744073709551615");
    assert.throws(() => seedText(2 ** 64), RangeError, "an unsafe number would lose digits");
    assert.throws(() => seedText(1.5), RangeError);
    assert.throws(() => seedText(SPAN), RangeError);
    assert.deepEqual(seededDeck(42n), seededDeck(42));
  });

  test("a draw at or above 2^64 - (2^64 mod n) is drawn again, and the next draw is the next k", () => {
    // For n = 40, 2^64 mod 40 = 16: 2^64 - 16 is the first value rejected, 2^64 - 17 the last accepted.
    const rest = () => {
      const stream = draws("chkobba");
      stream.next(); // draw 0 is replaced below
      return stream;
    };
    const withFirst = (...forced: bigint[]) =>
      shuffleWithDraws(
        (function* () {
          yield* forced;
          yield* rest();
        })(),
      );
    const honest = seededDeck("chkobba");
    // Rejected: draw 0 is skipped, so draw 1 decides i = 39 and every later draw shifts by one.
    const rejected = withFirst(SPAN - 16n);
    assert.deepEqual(rejected, shuffleWithDraws(rest()));
    assert.notDeepEqual(rejected, honest);
    assert.deepEqual(withFirst(SPAN - 1n), rejected);
    // Accepted: (2^64 - 17) mod 40 = 39, so card 39 stays in place.
    const accepted = withFirst(SPAN - 17n);
    assert.equal(accepted[39], "KC");
    assert.notDeepEqual(accepted, honest);
  });

  test("every deck is a permutation of the 40 cards", () => {
    for (const seed of ["", "a", "🂡", 1, -1, 2 ** 53 - 1]) {
      assert.deepEqual([...seededDeck(seed)].sort(), [...CANONICAL_DECK].sort());
    }
  });
});

const referee = useReferee();

describe("the decks the service deals", () => {
  before(() => referee.ready());
  const SEEDS: (string | number)[] = ["0", 0, 42, -7, "chkobba", "référé", "🂡 : sept", "a:b:c", 2 ** 53 - 1, -(2 ** 53 - 1)];

  for (const seed of SEEDS) {
    test(`seed ${JSON.stringify(seed)}: scopa and chkobba deal the deck seededDeck gives`, async () => {
      const expected = seededDeck(seed);
      const scopa = await referee.client.dealRound({ rules: "scopa", players: 2, dealer: 0, seed });
      assert.deepEqual(scopa.deck, expected);
      assert.deepEqual(scopa.state.table, expected.slice(6, 10));
      const chkobba = await referee.client.dealRound({ rules: "chkobba", players: 4, dealer: 2, seed, cut: "table" });
      assert.deepEqual(chkobba.deck, expected);
    });
  }

  test("whole-number seeds up to 2^64 - 1 (sent as bigints, beyond JSON's safe range)", async () => {
    for (const seed of [SPAN - 1n, -(SPAN - 1n), 2n ** 53n + 1n]) {
      // JSON.stringify cannot write a bigint: write its digits as a JSON number by hand.
      const { data, error, response } = await referee.client.raw.POST("/v1/rounds", {
        body: { rules: "scopa", players: 2, dealer: 0, seed: 0 },
        bodySerializer: (body) => JSON.stringify(body).replace('"seed":0', `"seed":${seed}`),
      });
      if (!response.ok) throw ProblemError.fromBody(response, error);
      assert.deepEqual((data as PlainDeal).deck, seededDeck(seed), String(seed));
    }
  });

  test("a seed of 2^64 is refused as a 422 problem", async () => {
    const { error, response } = await referee.client.raw.POST("/v1/rounds", {
      body: { rules: "scopa", players: 2, dealer: 0, seed: 0 },
      bodySerializer: (body) => JSON.stringify(body).replace('"seed":0', `"seed":${SPAN}`),
    });
    assert.equal(response.status, 422);
    assert.ok(ProblemError.fromBody(response, error).errors.seed);
  });
});
