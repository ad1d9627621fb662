/**
 * src/shuffle.ts, the seeded shuffle of docs/seeded-shuffle.md in TypeScript: against every published test vector
 * (tests/vectors/shuffle.json, the table of docs/seeded-shuffle.md), the rejection path, and the decks the
 * service deals from seeds.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { ProblemError, type Card, type PlainDeal } from "../src/client.js";
import { CANONICAL_DECK, MAX_INTEGER_SEED, MIN_INTEGER_SEED, draw, draws, seedText, seededDeck, shuffleWithDraws } from "../src/shuffle.js";
import { REPO_ROOT, expectProblem, useReferee } from "./helpers.js";

interface Vector {
  id: string;
  input: { seed: string | number };
  expect: { deck: Card[] };
}
const VECTORS = (JSON.parse(readFileSync(join(REPO_ROOT, "tests", "vectors", "shuffle.json"), "utf8")) as { vectors: Vector[] })
  .vectors;
const SPAN = 1n << 64n;
const HALF = 1n << 63n;

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
    assert.deepEqual([seedText(2n ** 53n + 1n), seedText(-(2n ** 53n) - 1n)], ["9007199254740993", "-9007199254740993"]);
    assert.throws(() => seedText(2 ** 53), RangeError, "an unsafe number would lose digits");
    assert.throws(() => seedText(1.5), /whole number/);
    assert.deepEqual(seededDeck(42n), seededDeck(42));
  });

  test("an integer seed lies in the signed 64-bit range, as the service requires; beyond, a string", () => {
    assert.deepEqual([MIN_INTEGER_SEED, MAX_INTEGER_SEED], [-HALF, HALF - 1n]);
    assert.equal(seedText(HALF - 1n), "9223372036854775807");
    assert.equal(seedText(-HALF), "-9223372036854775808");
    for (const seed of [HALF, -HALF - 1n, SPAN - 1n, -(SPAN - 1n), SPAN]) {
      assert.throws(() => seedText(seed), (error: unknown) => {
        assert.ok(error instanceof RangeError, String(error));
        assert.match(error.message, new RegExp(`pass it as the string "${seed}", which gives the same deck`));
        return true;
      });
      assert.throws(() => seededDeck(seed), RangeError);
    }
    assert.throws(() => seedText(2 ** 64), /pass the seed as a string/);
    // The string of the digits is the seed's text: the deck a 64-bit integer would give.
    assert.deepEqual(seededDeck(String(HALF - 1n)), seededDeck(HALF - 1n));
    assert.equal(seedText("18446744073709551615"), "18446744073709551615");
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

  /** Deals from a body whose seed is written as the given JSON text (a bigint or 42.0, which JSON.stringify cannot write). */
  const dealWithSeedText = (json: string) =>
    referee.client.raw.POST("/v1/rounds", {
      body: { rules: "scopa", players: 2, dealer: 0, seed: 0 },
      bodySerializer: (body) => JSON.stringify(body).replace('"seed":0', `"seed":${json}`),
    });

  test("whole-number seeds to the ends of the signed 64-bit range (sent as bigints, beyond JSON's safe range)", async () => {
    for (const seed of [HALF - 1n, -HALF, 2n ** 53n + 1n]) {
      const { data, error, response } = await dealWithSeedText(String(seed));
      if (!response.ok) throw ProblemError.fromBody(response, error);
      assert.deepEqual((data as PlainDeal).deck, seededDeck(seed), String(seed));
    }
  });

  test("a whole number written 42.0 is the integer 42", async () => {
    const { data, error, response } = await dealWithSeedText("42.0");
    if (!response.ok) throw ProblemError.fromBody(response, error);
    assert.deepEqual((data as PlainDeal).deck, seededDeck(42));
  });

  test("2^64 - 1 sent as a string deals the deck of that string", async () => {
    const seed = String(SPAN - 1n);
    assert.equal(seed, "18446744073709551615");
    const deal = await referee.client.dealRound({ rules: "scopa", players: 2, dealer: 0, seed });
    assert.deepEqual(deal.deck, seededDeck("18446744073709551615"));
    assert.notDeepEqual(deal.deck, seededDeck(String(SPAN - 2n)));
  });

  test("a seed of 2^63 or -(2^63) - 1 as an integer is a 422 invalid-input problem naming seed", async () => {
    for (const seed of [HALF, -HALF - 1n, SPAN]) {
      const call = dealWithSeedText(String(seed)).then(({ response, error }) =>
        Promise.reject(ProblemError.fromBody(response, error)),
      );
      const problem = await expectProblem(call, 422, "invalid-input");
      assert.deepEqual(Object.keys(problem.errors), ["seed"], String(seed));
      assert.match(problem.errors.seed![0]!, /string/, "the message says to send it as a string");
    }
  });
});
