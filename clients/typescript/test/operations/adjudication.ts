/** Tag `adjudication`: captures, plays, scores and match decisions. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RequestOf, Schemas, ScoreLine } from "../../src/client.js";
import { expectProblem } from "../helpers.js";
import { operation, referee } from "./registry.js";

operation("legalCaptures", () => {
  test("docs/rules.md §7.5: QH (8 in chkobba) takes 2D+6S, one entry per hand card in hand order", async () => {
    const { moves } = await referee.client.legalCaptures({
      rules: "chkobba",
      table: ["2D", "6S", "AC"],
      hand: ["QH", "7C", "KS"],
    });
    assert.deepEqual(moves, [
      { card: "QH", value: 8, kind: "sum", options: [{ capture: ["2D", "6S"], sweep: false }] },
      { card: "7C", value: 7, kind: "sum", options: [{ capture: ["6S", "AC"], sweep: false }] },
      { card: "KS", value: 10, kind: "none", options: [] },
    ]);
  });

  test("a capture of the whole table sweeps, except on the last play", async () => {
    const body = { rules: "chkobba", table: ["2D", "6S"], hand: ["QH"] } as const;
    const normal = await referee.client.legalCaptures({ ...body, table: [...body.table], hand: [...body.hand] });
    assert.equal(normal.moves[0]!.options[0]!.sweep, true);
    const last = await referee.client.legalCaptures({ ...body, table: [...body.table], hand: [...body.hand], last_play: true });
    assert.equal(last.moves[0]!.options[0]!.sweep, false);
  });

  test("profiles differ: Q is 9 in chkobba-crp, and face cards sum only with face_sums", async () => {
    const plain = await referee.client.legalCaptures({ rules: "chkobba-crp", table: ["4D", "5S"], hand: ["QH"] });
    assert.deepEqual([plain.moves[0]!.value, plain.moves[0]!.kind], [9, "none"]);
    const sums = await referee.client.legalCaptures({
      rules: { profile: "chkobba-crp", options: { face_sums: true } },
      table: ["4D", "5S"],
      hand: ["QH"],
    });
    assert.deepEqual(sums.moves[0]!.options, [{ capture: ["4D", "5S"], sweep: true }]);
  });

  test("a bad card and a duplicate are 422 problems with their field paths", async () => {
    const bad = await expectProblem(
      referee.client.legalCaptures({ rules: "chkobba", table: ["8D" as "7D"], hand: ["QH"] }),
      422,
      "invalid-card",
    );
    assert.ok(bad.errors["table.0"]?.length);
    const twice = await expectProblem(
      referee.client.legalCaptures({ rules: "chkobba", table: ["QH"], hand: ["QH"] }),
      422,
      "duplicate-card",
    );
    assert.ok(Object.keys(twice.errors).length > 0);
  });

  test("an unknown profile and an option the profile lacks are 422 problems", async () => {
    await expectProblem(
      referee.client.legalCaptures({ rules: "belote" as "scopa", table: [], hand: ["QH"] }),
      422,
      "unknown-profile",
    );
    await expectProblem(
      referee.client.legalCaptures({
        rules: { profile: "chkobba", options: { face_sums: true } } as never,
        table: [],
        hand: ["QH"],
      }),
      422,
      "invalid-option",
    );
  });
});

operation("applyMove", () => {
  test("a match takes the named card", async () => {
    const result = await referee.client.applyMove({
      rules: "chkobba",
      table: ["7S", "7D", "AC"],
      hand: ["7C", "2H"],
      play: { card: "7C", capture: ["7D"] },
    });
    assert.deepEqual(result, {
      card: "7C",
      kind: "match",
      captured: ["7C", "7D"],
      taken: ["7D"],
      sweep: false,
      table: ["7S", "AC"],
      hand: ["2H"],
    });
  });

  test("the capture is a set, and may be omitted when there is one option or none", async () => {
    const sum = await referee.client.applyMove({
      rules: "chkobba",
      table: ["2D", "6S"],
      hand: ["QH"],
      play: { card: "QH", capture: ["6S", "2D"] },
    });
    assert.deepEqual([sum.kind, sum.sweep, sum.table], ["sum", true, []]);
    const only = await referee.client.applyMove({ rules: "chkobba", table: ["2D", "6S"], hand: ["QH"], play: { card: "QH" } });
    assert.deepEqual(only.taken, ["2D", "6S"]);
    const laid = await referee.client.applyMove({ rules: "chkobba", table: ["2D"], hand: ["KS", "AH"], play: { card: "KS" } });
    assert.deepEqual([laid.kind, laid.captured, laid.table, laid.hand], ["none", [], ["2D", "KS"], ["AH"]]);
  });

  test("an illegal play is a 422 illegal-move problem that lists the legal options", async () => {
    const problem = await expectProblem(
      referee.client.applyMove({
        rules: "chkobba",
        table: ["7S", "4C", "3D"],
        hand: ["7H"],
        play: { card: "7H", capture: ["4C", "3D"] },
      }),
      422,
      "illegal-move",
    );
    assert.deepEqual(problem.problem.options, [{ capture: ["7S"], sweep: false }]);
    assert.deepEqual(problem.problem.legal?.map((m) => m.card), ["7H"]);
    assert.ok(problem.errors["play.capture"]?.length);
  });

  test("a choice left open is a 422 ambiguous-capture problem with both options", async () => {
    const problem = await expectProblem(
      referee.client.applyMove({ rules: "chkobba", table: ["2D", "6S", "5C", "3H"], hand: ["QH"], play: { card: "QH" } }),
      422,
      "ambiguous-capture",
    );
    assert.equal(problem.problem.options?.length, 2);
  });

  test("a card not in the hand is a 422 card-not-held problem", async () => {
    await expectProblem(
      referee.client.applyMove({ rules: "chkobba", table: ["2D"], hand: ["KS"], play: { card: "AH" } }),
      422,
      "card-not-held",
    );
  });
});

/** docs/rules.md §7.5's worked example, from counts (a fresh copy each time). */
function workedExample(): RequestOf<"scoreRound"> & { sides: { counts: Schemas["CountsInput"]; sweeps: number }[] } {
  return {
    rules: "chkobba",
    sides: [
      { counts: { cards: 22, diamonds: 6, sevens: 2, sixes: 3, seven_of_diamonds: true }, sweeps: 1 },
      { counts: { cards: 18, diamonds: 4, sevens: 2, sixes: 1, seven_of_diamonds: false }, sweeps: 0 },
    ],
  };
}

function line(side: number, points: Partial<ScoreLine>): ScoreLine {
  const base = { side, cards: 0, diamonds: 0, sevens: 0, seven_of_diamonds: 0, sweeps: 0, primiera: 0, total: 0 };
  return { ...base, ...points };
}

operation("scoreRound", () => {
  test("docs/rules.md §7.5 worked example, from counts: 5 to 0", async () => {
    const { breakdown, valid } = await referee.client.scoreRound(workedExample());
    assert.deepEqual(breakdown, [
      line(0, { cards: 1, diamonds: 1, sevens: 1, seven_of_diamonds: 1, sweeps: 1, total: 5 }),
      line(1, {}),
    ]);
    assert.equal(valid, undefined, "no claim, no verdict");
  });

  test("a wrong claim is a 200 with valid false and one discrepancy per differing category", async () => {
    const answer = await referee.client.scoreRound({
      ...workedExample(),
      claimed: [
        line(0, { cards: 1, diamonds: 1, seven_of_diamonds: 1, sweeps: 1, total: 4 }),
        line(1, { sevens: 1, total: 1 }),
      ],
    });
    assert.equal(answer.valid, false);
    assert.deepEqual(answer.discrepancies, [
      { side: 0, category: "sevens", claimed: 0, expected: 1 },
      { side: 0, category: "total", claimed: 4, expected: 5 },
      { side: 1, category: "sevens", claimed: 1, expected: 0 },
      { side: 1, category: "total", claimed: 1, expected: 0 },
    ]);
  });

  test("a right claim is valid with no discrepancies", async () => {
    const { breakdown } = await referee.client.scoreRound(workedExample());
    const answer = await referee.client.scoreRound({ ...workedExample(), claimed: breakdown });
    assert.deepEqual([answer.valid, answer.discrepancies], [true, []]);
  });

  test("counts that cannot come from one round are a 422 inconsistent-counts problem", async () => {
    const body = workedExample();
    body.sides[0]!.counts.cards = 23;
    await expectProblem(referee.client.scoreRound(body), 422, "inconsistent-counts");
  });
});

operation("decideMatch", () => {
  test("17 + 5 reaches chkobba's target of 21: won by side 0", async () => {
    const answer = await referee.client.decideMatch({ rules: "chkobba", scores: [17, 12], round_points: [5, 1] });
    assert.deepEqual(answer, { scores: [22, 13], outcome: "won", winner: 0, target: 21 });
  });

  test("below the target the match continues; a claim that it was won is a verdict, not an error", async () => {
    const answer = await referee.client.decideMatch({
      rules: { profile: "chkobba", options: { target: 31 } },
      scores: [17, 12],
      round_points: [5, 1],
      claimed: { outcome: "won", winner: 0 },
    });
    assert.deepEqual([answer.outcome, answer.winner, answer.target, answer.valid], ["continue", null, 31, false]);
    assert.ok(answer.discrepancies?.some((d) => d.field === "outcome" && d.claimed === "won" && d.expected === "continue"));
  });

  test("lists of different lengths are a 422 problem", async () => {
    const problem = await expectProblem(
      referee.client.decideMatch({ rules: "chkobba", scores: [1, 2], round_points: [1, 2, 3] }),
      422,
      "invalid-scores",
    );
    assert.ok(Object.keys(problem.errors).length > 0);
  });
});
