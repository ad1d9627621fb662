// A sealed four-player chkobba round with a rules object, played to the end with the top hint of every
// turn (the cut included) and its record replayed, by openapi-generator's typescript-fetch client. Run by
// tests/contract/test_openapi_generator_typescript_fetch.py, compiled with the client (copied into its
// src/), then run by Node with the service's base URL; it prints what it saw, one fact a line.
import { Configuration, RoundsApi, ResponseError } from "./index";
import type { MoveInput, ScoreLine, SealedDeal, SealedPlayResponse } from "./index";
import { instanceOfCutMove, instanceOfSealedDeal, instanceOfSealedPlayResponse } from "./index";

// Node's own globals, declared here: the generated client's tsconfig has no Node types.
declare const process: { argv: string[]; exit(code: number): never };

function totals(lines: ScoreLine[] | null): string {
  return (lines ?? []).map((line) => `${line.side}:${line.total}`).join(",");
}

async function main(baseUrl: string): Promise<void> {
  const rounds = new RoundsApi(new Configuration({ basePath: baseUrl }));
  const dealt = await rounds.dealRound({
    dealRequest: {
      rules: { profile: "chkobba", options: { target: 11 } },
      players: 4,
      dealer: 0,
      seed: "typescript-fetch",
      sealed: true,
    },
  });
  if (!instanceOfSealedDeal(dealt)) throw new Error("a sealed deal has a state token");
  const deal: SealedDeal = dealt;
  console.log(`views ${deal.views.length} ${deal.views[0].phase}`);

  let token = deal.stateToken;
  const kinds: string[] = [];
  let played: SealedPlayResponse | undefined;
  for (let i = 0; i < 60; i++) {
    const hints = await rounds.suggestMoves({ hintsRequest: { stateToken: token, limit: 1 } });
    const move: MoveInput = { ...hints.moves[0].move, seat: hints.seat }; // the seat added: the turn is checked
    kinds.push(instanceOfCutMove(move) ? "CutMove" : "PlayMove");
    const answer = await rounds.playRound({ playRequest: { stateToken: token, move } });
    if (!instanceOfSealedPlayResponse(answer)) throw new Error("a sealed play answers a state token");
    played = answer;
    token = played.stateToken;
    if (played.breakdown !== null) break;
  }
  if (played?.record === undefined) throw new Error("the answer that ends the round carries its record");
  console.log(`moves ${kinds.join(",")}`);
  console.log(`phase ${played.views[0].phase} piles ${played.views[0].piles.length}`);

  const replay = await rounds.replayRound({ replayRequest: played.record });
  console.log(`replay valid ${replay.valid} complete ${replay.complete}`);
  console.log(`totals ${totals(played.breakdown)} replayed ${totals(replay.breakdown)}`);

  try {
    await rounds.playRound({ playRequest: { stateToken: token, move: { card: "7D" } } });
  } catch (error) {
    if (!(error instanceof ResponseError)) throw error;
    const problem = await error.response.json();
    console.log(`refused ${error.response.status} ${problem.code}`);
  }
}

main(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
