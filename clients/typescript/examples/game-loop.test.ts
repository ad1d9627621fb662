/**
 * game-loop.ts, the TypeScript game loop of docs/game-loops.md, against the running service: run as
 * its documentation says (a script with a base URL), it plays a sealed four-player round with a redeal and
 * exits 0 with its summary; its referee refuses a filed record that was edited.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { CLIENT_DIR, REPO_ROOT } from "../scripts/service.js";
import { playGame, recordVerifies, referee, GameError, type Filed, type Summary } from "./game-loop.js";
import { useReferee } from "../test/helpers.js";

const service = useReferee();
// The first deal's table calls for a redeal whichever way seat 1 cuts; the second deal's never does.
const SEEDS = ["table-244", "table-1"];

describe("the TypeScript game loop", () => {
  before(() => service.ready());

  test("run as a script, it plays a sealed four-player round to the end and the referee's replay agrees", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "examples/game-loop.ts", service.url, ...SEEDS.flatMap((s) => ["--seed", s])], {
      cwd: CLIENT_DIR,
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const said = run.stdout.trimEnd().split("\n");
    const { points, ...summary } = JSON.parse(said.at(-1)!) as Summary;
    assert.deepEqual(summary, {
      deals: 2,
      redeals: 1,
      moves: 37,
      hinted_seats: [0, 1, 2, 3],
      refused: ["not-your-turn"],
      next_dealer: 1,
      receipts: "verified",
      replay: "agrees",
    });
    assert.equal(points.length, 2); // two sides
    // The output docs/game-loops.md shows (the Python program's), but for the JSON's spacing.
    const page = readFileSync(join(REPO_ROOT, "docs", "game-loops.md"), "utf8");
    const shown = /<!-- game-loop-output:begin -->\n```text\n([\s\S]*?)```\n/.exec(page);
    assert.ok(shown, "docs/game-loops.md shows the output between game-loop-output markers");
    const lines = shown[1]!.trimEnd().split("\n");
    const missing = lines.slice(0, -1).filter((line) => line.trim() !== "..." && !said.includes(line));
    assert.deepEqual(missing, [], run.stdout);
    assert.deepEqual(JSON.parse(said.at(-1)!), JSON.parse(lines.at(-1)!));
  });

  test("its referee refuses a filed record whose move was edited, before replaying it", async () => {
    const kept: Filed[] = [];
    await playGame(service.url, { seeds: SEEDS, log: () => {}, file: (one) => kept.push(one) });
    assert.equal(kept.length, 2);
    const round = kept[1]!;
    const jwks = await service.client.getJwks();
    assert.equal(await recordVerifies(round.record, round.record_receipt, jwks), true);
    const edited = structuredClone(round);
    const [first, second] = [edited.record.moves[1]!, edited.record.moves[2]!];
    edited.record.moves[1] = second;
    edited.record.moves[2] = first;
    assert.equal(await recordVerifies(edited.record, edited.record_receipt, jwks), false);
    await assert.rejects(referee(service.client, edited, jwks), GameError);
    const voided = structuredClone(kept[0]!);
    voided.record.deck.reverse();
    await assert.rejects(referee(service.client, voided, jwks), /receipt verifies/);
  });
});
