/** Tag `rounds`: deal, play move by move (plain and sealed), replay a record, view a seat. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Card, PlainDeal, RoundState } from "../../src/client.js";
import { seededDeck } from "../../src/shuffle.js";
import { expectProblem, playPlainRound, playSealedRound, type PlayedRound } from "../helpers.js";
import { operation, referee } from "./registry.js";

const sorted = (cards: readonly Card[]) => [...cards].sort();

/** Every card of a state, wherever it lies. */
function allCards(state: RoundState): Card[] {
  return [...state.hands.flat(), ...state.table, ...state.stock, ...state.piles.flat()];
}

// Rounds played once and checked by several cases below.
const SCOPA = { rules: "scopa", players: 2, dealer: 0, seed: "ts-client" } as const;
const CHKOBBA4 = { rules: "chkobba", players: 4, dealer: 3, seed: 20261130 } as const;
let scopaDeal: PlainDeal;
let scopaRound: PlayedRound;
let chkobbaDeal: PlainDeal;
let chkobbaRound: PlayedRound;

let playing: Promise<void> | undefined;
/** Deals and plays those rounds, once for every operation below that needs them. */
const playTheRounds = (): Promise<void> =>
  (playing ??= (async () => {
    scopaDeal = await referee.client.dealRound({ ...SCOPA });
    scopaRound = await playPlainRound(referee.client, scopaDeal);
    chkobbaDeal = await referee.client.dealRound({ ...CHKOBBA4 });
    chkobbaRound = await playPlainRound(referee.client, chkobbaDeal);
  })());

operation("dealRound", () => {
  test("a seeded scopa deal: the deck of the seeded shuffle, dealt 3 a seat from the dealer's right, then 4", async () => {
    const { state, deck } = scopaDeal;
    assert.deepEqual(deck, seededDeck(SCOPA.seed));
    assert.deepEqual([state.phase, state.turn, state.dealer, state.players], ["play", 1, 0, 2]);
    assert.deepEqual(state.hands[1], deck.slice(0, 3));
    assert.deepEqual(state.hands[0], deck.slice(3, 6));
    assert.deepEqual(state.table, deck.slice(6, 10));
    assert.deepEqual(state.stock, deck.slice(10));
    assert.deepEqual([state.piles, state.sweeps, state.last_capturer], [[[], []], [0, 0], null]);
  });

  test("chkobba without cut waits in phase cut, the cutter to move; with cut it deals", async () => {
    assert.equal(chkobbaDeal.state.phase, "cut");
    assert.equal(chkobbaDeal.state.turn, 0, "the dealer's right cuts (seat 3 deals)");
    assert.deepEqual(chkobbaDeal.deck, seededDeck(CHKOBBA4.seed));
    const cut = await referee.client.dealRound({ ...CHKOBBA4, cut: "keep" });
    assert.equal(cut.state.phase, "play");
    assert.deepEqual(cut.deck, chkobbaDeal.deck);
    assert.deepEqual(sorted(allCards(cut.state)), sorted(cut.deck));
    assert.deepEqual(
      cut.state.hands.map((h) => h.length),
      [3, 3, 3, 3],
    );
  });

  test("a deck given is dealt as it lies; without deck or seed the service shuffles and says which deck", async () => {
    const deck = seededDeck("given");
    const given = await referee.client.dealRound({ rules: "scopa", players: 2, dealer: 1, deck });
    assert.deepEqual(given.deck, deck);
    const random = await referee.client.dealRound({ rules: "scopa", players: 2, dealer: 1 });
    assert.deepEqual(sorted(random.deck), sorted(deck));
    assert.deepEqual(random.state.hands[0], random.deck.slice(0, 3), "seat 0 is the right of dealer 1");
  });

  test("sealed: a state_token and one view per seat, no state and no deck", async () => {
    const sealed = await referee.client.dealRound({ ...SCOPA, sealed: true });
    assert.deepEqual(Object.keys(sealed).sort(), ["round_id", "seq", "state_token", "views"]);
    assert.equal(sealed.seq, 0);
    assert.equal(typeof sealed.state_token, "string");
    assert.deepEqual(
      sealed.views.map((v) => [v.seat, v.hand]),
      [
        [0, scopaDeal.state.hands[0]],
        [1, scopaDeal.state.hands[1]],
      ],
    );
    const one = await referee.client.dealRound({ ...SCOPA, sealed: true, viewer: 1 });
    assert.deepEqual(
      one.views.map((v) => v.seat),
      [1],
    );
  });

  test("a cut or a player count the profile does not take is a 422 not-in-profile problem", async () => {
    const cut = await expectProblem(referee.client.dealRound({ ...SCOPA, cut: "keep" }), 422, "not-in-profile");
    assert.deepEqual(Object.keys(cut.errors), ["cut"]);
    const three = await expectProblem(referee.client.dealRound({ ...CHKOBBA4, players: 3 }), 422, "not-in-profile");
    assert.deepEqual(Object.keys(three.errors), ["players"]);
  });

  test("a dealer or a viewer beyond the players is a 422 no-such-seat problem", async () => {
    const dealer = await expectProblem(referee.client.dealRound({ ...SCOPA, dealer: 2 }), 422, "no-such-seat");
    assert.deepEqual(Object.keys(dealer.errors), ["dealer"]);
    await expectProblem(referee.client.dealRound({ ...SCOPA, sealed: true, viewer: 2 }), 422, "no-such-seat");
  });

  test("a 41st card is a 422 validation-error problem", async () => {
    const problem = await expectProblem(
      referee.client.dealRound({ rules: "scopa", players: 2, dealer: 0, deck: [...seededDeck(1), "AD"] }),
      422,
      "validation-error",
    );
    assert.ok(problem.errors.deck, JSON.stringify(problem.errors));
  });
}, playTheRounds);

operation("playRound", () => {
  test("a whole scopa round, plain, played through the client to phase over", () => {
    const { state, breakdown, nextDealer } = scopaRound;
    assert.equal(state!.phase, "over");
    assert.equal(state!.turn, null);
    assert.deepEqual(sorted(state!.piles.flat()), sorted(scopaDeal.deck), "every card ends in a pile");
    assert.equal(breakdown.length, 2);
    assert.equal(nextDealer, 1, "the dealer's right deals next");
    assert.equal(scopaRound.moves.length, 40 - 4, "36 cards are played");
  });

  test("a whole 4-player chkobba round, from the cut, to phase over", () => {
    const { state, breakdown, moves } = chkobbaRound;
    assert.deepEqual(moves[0], { cut: "keep" });
    assert.equal(state!.phase, "over");
    assert.equal(breakdown.length, 2, "two sides of partners");
    assert.deepEqual(sorted(state!.piles.flat()), sorted(chkobbaDeal.deck));
  });

  test("the same round played sealed, from the views alone, ends with the same breakdown", async () => {
    const sealed = await playSealedRound(referee.client, await referee.client.dealRound({ ...SCOPA, sealed: true }));
    assert.deepEqual(sealed.moves, scopaRound.moves);
    assert.deepEqual(sealed.breakdown, scopaRound.breakdown);
    assert.equal(sealed.nextDealer, scopaRound.nextDealer);
    const chkobba = await playSealedRound(referee.client, await referee.client.dealRound({ ...CHKOBBA4, sealed: true }));
    assert.deepEqual(chkobba.breakdown, chkobbaRound.breakdown);
  });

  test("a move out of turn or of a card not held is a 422 problem; a forged token is tampered-state", async () => {
    const { state } = scopaDeal;
    await expectProblem(
      referee.client.playRound({ state, move: { card: state.hands[0]![0]!, seat: 0 } }),
      422,
      "not-your-turn",
    );
    await expectProblem(referee.client.playRound({ state, move: { card: state.hands[0]![0]! } }), 422, "card-not-held");
    await expectProblem(referee.client.playRound({ state, move: { cut: "keep" } }), 422, "wrong-phase");
    const sealed = await referee.client.dealRound({ ...SCOPA, sealed: true });
    const forged = sealed.state_token.slice(0, -4) + (sealed.state_token.endsWith("AAAA") ? "BBBB" : "AAAA");
    const problem = await expectProblem(
      referee.client.playRound({ state_token: forged, move: { card: sealed.views[1]!.hand[0]! } }),
      422,
      "tampered-state",
    );
    assert.ok(problem.errors.state_token);
  });

  test("a state that breaks docs/rules.md §9 is a 422 bad-state problem", async () => {
    const state = structuredClone(scopaDeal.state);
    state.table.push(state.stock.pop()!);
    await expectProblem(referee.client.playRound({ state, move: { card: state.hands[1]![0]! } }), 422, "bad-state");
  });

  test("a viewer beyond the players is a 422 no-such-seat problem", async () => {
    const sealed = await referee.client.dealRound({ ...SCOPA, sealed: true });
    const move = scopaRound.moves[0]!; // legal: the first move of the same deal
    await expectProblem(referee.client.playRound({ state_token: sealed.state_token, move, viewer: 2 }), 422, "no-such-seat");
    const played = await referee.client.playRound({ state_token: sealed.state_token, move, viewer: 1 });
    assert.deepEqual(
      played.views.map((v) => v.seat),
      [1],
    );
  });
}, playTheRounds);

operation("replayMatch", () => {
  test("a scopa match of one round: its verdicts, its score and the match's decision", async () => {
    const round = { deck: scopaDeal.deck, moves: scopaRound.moves };
    const body = { rules: scopaDeal.state.rules, players: 2, dealer: scopaDeal.state.dealer, rounds: [round] };
    const match = await referee.client.replayMatch(body);
    const single = await referee.client.replayRound({ ...round, rules: body.rules, players: 2, dealer: body.dealer });
    assert.deepEqual([match.valid, match.complete, match.first_illegal], [true, true, null]);
    assert.deepEqual(match.rounds[0]!.moves, single.moves);
    assert.deepEqual(match.rounds[0]!.breakdown, single.breakdown);
    const points = single.breakdown!.map((line) => line.total);
    const decision = await referee.client.decideMatch({ rules: body.rules, scores: [0, 0], round_points: points });
    assert.deepEqual([match.scores, match.outcome, match.winner], [decision.scores, decision.outcome, decision.winner]);
  });

  test("a round after the end of the match is a 422 match-over problem", async () => {
    const round = { deck: scopaDeal.deck, moves: scopaRound.moves };
    const body = { rules: scopaDeal.state.rules, players: 2, dealer: 0, rounds: [round, { ...round, dealer: 1 }] };
    await expectProblem(referee.client.replayMatch(body), 422, "match-over");
  });
}, playTheRounds);

operation("commitDeal", () => {
  test("a commitment to a secret server seed, and the token that holds it; a new one every time", async () => {
    const first = await referee.client.commitDeal();
    const second = await referee.client.commitDeal();
    assert.match(first.commitment, /^[0-9a-f]{64}$/);
    assert.notEqual(first.commitment, second.commitment);
    assert.equal(typeof first.commit_token, "string");
    const dealt = await referee.client.dealRound({
      rules: "scopa", players: 2, dealer: 0, sealed: true, fair: { commit_token: first.commit_token, seeds: ["a", "b"] },
    });
    assert.equal(dealt.seq, 0);
    await expectProblem(
      referee.client.dealRound({ rules: "scopa", players: 2, dealer: 0, sealed: true, fair: { commit_token: first.commit_token, seeds: ["a", "b", "c"] } }),
      422,
      "wrong-seed-count",
    );
  });
});

operation("reviewRound", () => {
  test("every move of a round played move by move is judged, in order, with each seat's accuracy", async () => {
    const review = await referee.client.reviewRound({
      rules: chkobbaDeal.state.rules,
      players: chkobbaDeal.state.players,
      dealer: chkobbaDeal.state.dealer,
      deck: chkobbaDeal.deck,
      moves: chkobbaRound.moves,
    });
    assert.equal(review.first_illegal, null);
    assert.deepEqual(review.moves.map((m) => m.index), chkobbaRound.moves.map((_, i) => i));
    const judgments = new Set(["forced", "best", "good", "inaccuracy", "mistake", "blunder"]);
    assert.ok(review.moves.every((m) => m.loss >= 0 && judgments.has(m.judgment)));
    assert.deepEqual(review.seats.map((s) => s.seat), [...Array(chkobbaDeal.state.players).keys()]);
  });

  test("a record whose seat is beyond the players is a 422 no-such-seat problem", async () => {
    const [first, ...rest] = chkobbaRound.moves;
    await expectProblem(
      referee.client.reviewRound({
        rules: chkobbaDeal.state.rules,
        players: chkobbaDeal.state.players,
        dealer: chkobbaDeal.state.dealer,
        deck: chkobbaDeal.deck,
        moves: [{ ...first!, seat: 5 }, ...rest],
      }),
      422,
      "no-such-seat",
    );
  });
});

operation("replayRound", () => {
  const record = (deal: PlainDeal, round: PlayedRound) => ({
    rules: deal.state.rules,
    players: deal.state.players,
    dealer: deal.state.dealer,
    deck: deal.deck,
    moves: round.moves,
  });

  test("the record of the round played move by move replays as valid, to the same end", async () => {
    for (const [deal, round] of [
      [scopaDeal, scopaRound],
      [chkobbaDeal, chkobbaRound],
    ] as const) {
      const replay = await referee.client.replayRound(record(deal, round));
      assert.deepEqual([replay.valid, replay.complete, replay.first_illegal], [true, true, null]);
      assert.equal(replay.moves.length, round.moves.length);
      assert.ok(replay.moves.every((m, i) => m.verdict === "legal" && m.index === i));
      assert.deepEqual(replay.breakdown, round.breakdown);
      assert.deepEqual(replay.state, round.state);
      assert.equal(replay.next_dealer, round.nextDealer);
    }
  });

  test("a claim is checked: right, then wrong", async () => {
    const right = await referee.client.replayRound({ ...record(scopaDeal, scopaRound), claimed: scopaRound.breakdown });
    assert.deepEqual(right.claim, { verdict: "right", valid: true, discrepancies: [] });
    const claimed = structuredClone(scopaRound.breakdown);
    claimed[0]!.total += 1;
    const wrong = await referee.client.replayRound({ ...record(scopaDeal, scopaRound), claimed });
    assert.equal(wrong.claim?.valid, false);
    assert.equal(wrong.claim?.verdict, "wrong");
    assert.deepEqual(
      wrong.claim?.discrepancies.map((d) => [d.side, d.category]),
      [[0, "total"]],
    );
  });

  test("a move's seat beyond the players is a 422 no-such-seat problem, not a verdict", async () => {
    const [first, ...rest] = scopaRound.moves;
    const problem = await expectProblem(
      referee.client.replayRound({ ...record(scopaDeal, scopaRound), moves: [{ ...first!, seat: 2 }, ...rest] }),
      422,
      "no-such-seat",
    );
    assert.deepEqual(Object.keys(problem.errors), ["moves.0.seat"]);
  });

  test("an illegal move is a verdict (200), and the replay stops there", async () => {
    const moves = [...scopaRound.moves];
    moves.splice(1, 0, moves[0]!); // the same card twice
    const replay = await referee.client.replayRound({ ...record(scopaDeal, scopaRound), moves });
    assert.deepEqual([replay.valid, replay.complete, replay.first_illegal], [false, false, 1]);
    assert.equal(replay.moves.at(-1)!.verdict, "illegal");
    assert.equal(typeof replay.moves.at(-1)!.code, "string");
  });
}, playTheRounds);

operation("viewRound", () => {
  test("a plain state: each seat sees its own hand, the sizes of the others, and no stock", async () => {
    const { state } = scopaDeal;
    for (const seat of [0, 1]) {
      const answer = await referee.client.viewRound({ state, seat });
      assert.ok("view" in answer, "a seat's view");
      const { view } = answer;
      assert.deepEqual(view.hand, state.hands[seat]);
      assert.deepEqual(view.hand_sizes, [3, 3]);
      assert.equal(view.stock_size, 30);
      assert.equal(JSON.stringify(view).includes(state.hands[1 - seat]![0]!), false, "no card of the other hand");
    }
  });

  test("a sealed state gives the view that dealRound gave", async () => {
    const sealed = await referee.client.dealRound({ ...SCOPA, sealed: true });
    const answer = await referee.client.viewRound({ state_token: sealed.state_token, seat: 1 });
    assert.ok("view" in answer, "a seat's view");
    assert.deepEqual(answer.view, sealed.views[1]);
  });

  test("without a seat, a spectator's view: what every seat sees, no hand", async () => {
    const answer = await referee.client.viewRound({ state: scopaDeal.state });
    assert.ok("spectator" in answer, "a spectator's view");
    assert.deepEqual(answer.spectator.hand_sizes, [3, 3]);
    assert.equal("hand" in answer.spectator, false);
    for (const hand of scopaDeal.state.hands) {
      assert.equal(JSON.stringify(answer).includes(hand[0]!), false, "no card of any hand");
    }
  });

  test("a seat that does not play is a 422 no-such-seat problem, plain or sealed", async () => {
    const plain = await expectProblem(referee.client.viewRound({ state: scopaDeal.state, seat: 3 }), 422, "no-such-seat");
    assert.deepEqual(Object.keys(plain.errors), ["seat"]);
    const sealed = await referee.client.dealRound({ ...SCOPA, sealed: true });
    await expectProblem(referee.client.viewRound({ state_token: sealed.state_token, seat: 2 }), 422, "no-such-seat");
  });
}, playTheRounds);

operation("suggestMoves", () => {
  test("every legal move of the seat to move, best first; the first one is accepted by playRound", async () => {
    const { state } = scopaDeal;
    const hints = await referee.client.suggestMoves({ state });
    assert.equal(hints.seat, state.turn);
    const scores = hints.moves.map((m) => m.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    const played = await referee.client.playRound({ state, move: hints.moves[0]!.move });
    assert.equal(played.event.seat, state.turn);
  });

  test("a sealed state gives the same hints as the plain one", async () => {
    const sealed = await referee.client.dealRound({ ...SCOPA, sealed: true });
    assert.deepEqual(
      await referee.client.suggestMoves({ state_token: sealed.state_token }),
      await referee.client.suggestMoves({ state: scopaDeal.state }),
    );
  });

  test("a seat that is not to move is a 422 not-your-turn problem; one beyond the players, no-such-seat", async () => {
    const other = 1 - (scopaDeal.state.turn ?? 0);
    await expectProblem(referee.client.suggestMoves({ state: scopaDeal.state, seat: other }), 422, "not-your-turn");
    await expectProblem(referee.client.suggestMoves({ state: scopaDeal.state, seat: 2 }), 422, "no-such-seat");
  });
}, playTheRounds);
