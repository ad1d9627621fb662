/**
 * Committed deals from the client's side (docs/fair-deals.md): the published test vectors, and rounds the
 * service deals from a commitment, checked with nothing but the client's own derivation.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import type { Card, SealedPlayResponse } from "../src/client.js";
import { commitmentOf, fairDeck, fairSeedText, seedsMessage, verifyFairDeal } from "../src/fair.js";
import { REPO_ROOT, useReferee } from "./helpers.js";

interface Vector {
  server_seed: string;
  seeds: string[];
  commitment: string;
  message: string;
  seed_text: string;
  deck: Card[];
}

const page = readFileSync(join(REPO_ROOT, "docs", "fair-deals.md"), "utf8");
const block = /<!-- fair-vectors:begin -->\n```json\n([\s\S]*?)```/.exec(page);
const VECTORS: Vector[] = JSON.parse(block![1]!);

describe("the published vectors", () => {
  test("are read from docs/fair-deals.md", () => assert.equal(VECTORS.length, 2));
  for (const v of VECTORS) {
    test(`${v.seeds.length} seats: commitment, message, seed text and deck`, () => {
      assert.equal(commitmentOf(v.server_seed), v.commitment);
      assert.equal(seedsMessage(v.commitment, v.seeds), v.message);
      assert.equal(fairSeedText(v.server_seed, v.commitment, v.seeds), v.seed_text);
      assert.deepEqual(fairDeck(v.server_seed, v.commitment, v.seeds), v.deck);
    });
  }
});

describe("verifyFairDeal's reasons", () => {
  const v = VECTORS[0]!;
  const record = (deck: readonly Card[]) => ({
    players: v.seeds.length, deck, fair: { commitment: v.commitment, seeds: v.seeds, server_seed: v.server_seed },
  });
  test("a deck longer than 40 whose first 40 cards match: its length, not a card", () => {
    assert.deepEqual(verifyFairDeal(record([...v.deck, v.deck[0]!])), {
      verified: false, reason: "the record's deck has 41 cards, not 40",
    });
  });
  test("a deck shorter than 40: its length", () => {
    assert.deepEqual(verifyFairDeal(record(v.deck.slice(0, 39))), {
      verified: false, reason: "the record's deck has 39 cards, not 40",
    });
  });
  test("a deck of 40 cut differently: the first card that differs", () => {
    assert.deepEqual(verifyFairDeal(record([v.deck[1]!, v.deck[0]!, ...v.deck.slice(2)])), {
      verified: false, reason: "card 0 of the deck is not the one the seeds give",
    });
  });
});

describe("a round the service deals from a commitment", () => {
  const referee = useReferee();
  before(() => referee.ready());

  test("ends with the server seed revealed, whose commitment and deck check, and an edit shows", async () => {
    const client = referee.client;
    const { commitment, commit_token } = await client.commitDeal();
    const seeds = ["north", "east", "سعيد", "west"];
    let answer: SealedPlayResponse | Awaited<ReturnType<typeof client.dealRound>> = await client.dealRound({
      rules: "chkobba", players: 4, dealer: 3, sealed: true, fair: { commit_token, seeds },
    });
    for (let step = 0; !answer.record && step < 50; step++) {
      assert.ok(!JSON.stringify(answer).includes("server_seed"), "no answer before the end reveals the seed");
      const hints = await client.suggestMoves({ state_token: answer.state_token });
      answer = await client.playRound({ state_token: answer.state_token, move: { ...hints.moves[0]!.move, seat: hints.seat } });
    }
    const record = answer.record!;
    assert.equal(record.fair!.commitment, commitment);
    assert.deepEqual(record.fair!.seeds, seeds);
    assert.deepEqual(verifyFairDeal(record as Parameters<typeof verifyFairDeal>[0]), { verified: true });
    const replayed = await client.replayRound(record);
    assert.equal(replayed.fair_deal, "verified");
    const edited = { ...record, fair: { ...record.fair!, seeds: ["north", "east", "سعيد", "south"] } };
    assert.equal(verifyFairDeal(edited as Parameters<typeof verifyFairDeal>[0]).verified, false);
    assert.equal((await client.replayRound(edited)).fair_deal, "mismatch");
  });
});
