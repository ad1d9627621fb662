/**
 * A game server's loop: one sealed round of four-player chkobba, played through the project's client
 * (src/client.ts). The same game as clients/python/examples/game_loop.py; docs/game-loops.md walks
 * through both.
 *
 *   cd clients/typescript && npx tsx examples/game-loop.ts http://127.0.0.1:8080 [--seed S]... [--dealer N]
 *
 * 1. deals a sealed round: every seat gets its own view, the game server keeps only the token;
 * 2. asks the cutter for its cut, then each seat in turn for its move, on its behalf: suggestMoves with the
 *    `seat` to move stands in for the player, and the hint's move, which comes back without a seat, gets that
 *    `seat` added before playRound, so that the service checks whose turn it is;
 * 3. once, a seat tries to move out of turn: the client throws a ProblemError, the game server tells that
 *    seat `not-your-turn` and goes on;
 * 4. when the cut leaves a table that calls for a redeal (phase `redeal`), files the void deal's record and
 *    deals again, with the same dealer;
 * 5. keeps the `record` and `record_receipt` of the round's last answer, and then, as a referee would from
 *    what was filed, checks the receipt against the service's keys and replays the record: its verdict must be
 *    the breakdown the round ended with.
 *
 * It exits with 0 and prints a last line of JSON (a summary) when every check holds, else it exits with 1 and
 * says which check failed. `--seed` (repeatable) gives the decks of the deals in order; without it the service
 * shuffles.
 */
import { pathToFileURL } from "node:url";
import canonicalize from "canonicalize";
import { base64url, compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import {
  createRefereeClient,
  ProblemError,
  type CutMove,
  type Jwks,
  type Phase,
  type PlayMove,
  type RefereeClient,
  type ReplayRequest,
  type ReplayResponse,
  type RoundRecord,
  type SealedDeal,
  type SealedPlayResponse,
  type SeatView,
} from "../src/client.js";

const RULES = "chkobba";
const PLAYERS = 4;
const MAX_DEALS = 10; // a redeal is rare (a few deals in a hundred): ten void deals in a row would be a bug

/** A check of the game server failed. */
export class GameError extends Error {
  override readonly name = "GameError";
}

function expect(holds: boolean, what: string): asserts holds {
  if (!holds) throw new GameError(what);
}

/** What a game server files when a round (or a void deal) ends: the record and its receipt. */
export interface Filed {
  record: RoundRecord;
  record_receipt: string;
}

export interface Summary {
  deals: number;
  redeals: number;
  moves: number;
  hinted_seats: number[];
  refused: string[];
  points: number[];
  next_dealer: number | null;
  receipts: "verified";
  replay: "agrees";
}

export interface GameOptions {
  /** The seeds of the deals, in order; once they run out the service shuffles. */
  seeds?: string[];
  dealer?: number;
  log?: (line: string) => void;
  /** Where the game server files each deal's record and receipt (a database, say), void deals included. */
  file?: (kept: Filed) => void;
}

/**
 * What the game server keeps of a table's round: the last token, and the round_id and seq of the last answer
 * it accepted, so that an answer to a stale token is refused (docs/integrator.md).
 */
class Table {
  readonly roundId: string;
  seq: number;
  token: string;
  views: SeatView[];

  constructor(dealt: SealedDeal) {
    this.roundId = dealt.round_id;
    this.seq = dealt.seq;
    this.token = dealt.state_token;
    this.views = dealt.views;
  }

  accept(played: SealedPlayResponse): void {
    expect(played.round_id === this.roundId && played.seq === this.seq + 1, `a stale answer: seq ${played.seq} after ${this.seq}`);
    this.seq = played.seq;
    this.token = played.state_token;
    this.views = played.views;
  }

  get phase(): Phase {
    return this.views[0]!.phase;
  }

  get turn(): number | null {
    return this.views[0]!.turn;
  }
}

type SeatMove = CutMove | PlayMove;

class GameServer {
  deals = 0;
  readonly voidDeals: Filed[] = [];
  readonly hinted = new Set<number>();
  readonly refused: string[] = [];
  private outOfTurnTried = false;

  constructor(
    private readonly referee: RefereeClient,
    private readonly seeds: string[],
    private readonly dealer: number,
    private readonly say: (line: string) => void,
  ) {}

  async deal(): Promise<Table> {
    const seed = this.seeds[this.deals]; // undefined: the service shuffles
    this.deals += 1;
    const dealt = await this.referee.dealRound({
      rules: RULES,
      players: PLAYERS,
      dealer: this.dealer,
      sealed: true,
      ...(seed === undefined ? {} : { seed }),
    });
    const table = new Table(dealt);
    expect(table.phase === "cut" && table.views.every((view) => view.hand.length === 0), "a chkobba deal waits for the cut");
    expect(table.turn === (this.dealer + 1) % PLAYERS, "the cutter is the dealer's right");
    this.say(`deal ${this.deals} (seed ${seed ?? "none"}): dealer ${this.dealer}, seat ${table.turn} to cut`);
    return table;
  }

  /** The move a seat would make: the top hint, asked for on that seat's behalf (a player's app would show the hints). */
  async hint(table: Table, seat: number): Promise<SeatMove> {
    const hints = await this.referee.suggestMoves({ state_token: table.token, seat, limit: 1 });
    expect(hints.seat === seat && hints.moves.length === 1, `one hint for seat ${seat}`);
    const move = hints.moves[0]!.move;
    expect("cut" in move || "card" in move, `a cut or a play for seat ${seat}`);
    this.hinted.add(seat);
    return move as SeatMove;
  }

  async play(table: Table, move: SeatMove): Promise<SealedPlayResponse> {
    const played = await this.referee.playRound({ state_token: table.token, move });
    table.accept(played);
    return played;
  }

  /** A seat that is not to move sends a move: the service refuses it, because the move carries its seat. */
  async outOfTurn(table: Table, move: SeatMove, seat: number): Promise<void> {
    const intruder = (seat + 1) % PLAYERS;
    try {
      await this.play(table, { ...move, seat: intruder });
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      expect(error.code === "not-your-turn", `not-your-turn, not ${error.message}`);
      this.refused.push(error.code);
      this.say(`  seat ${intruder} tried to move out of turn: ${error.code} (${error.problem.detail})`);
      return;
    }
    throw new GameError(`seat ${intruder} moved out of turn and the service took it`);
  }

  /** One round, from the deal to its end: redeals included. */
  async round(): Promise<SealedPlayResponse> {
    let table = await this.deal();
    for (;;) {
      const seat = table.turn;
      expect(seat !== null, `a seat to move in phase ${table.phase}`);
      const hinted = await this.hint(table, seat);
      if ("card" in hinted && !this.outOfTurnTried) {
        this.outOfTurnTried = true;
        await this.outOfTurn(table, hinted, seat);
      }
      const move = { ...hinted, seat }; // the hint's move has no seat: with it, the service checks whose turn it is
      const played = await this.play(table, move);
      this.say(`  seat ${seat} ${describe(played)}`);
      if (table.phase === "redeal") {
        expect(played.next_dealer === this.dealer, "the same dealer deals again");
        this.voidDeals.push(filed(played));
        this.say(`  the table ${table.views[0]!.table.join(" ")} calls for a redeal: dealer ${this.dealer} deals again`);
        expect(this.deals < MAX_DEALS, `${MAX_DEALS} void deals in a row`);
        table = await this.deal();
      } else if (table.phase === "over") {
        return played;
      }
    }
  }
}

function describe(played: SealedPlayResponse): string {
  const { event } = played;
  if (event.cut) return `cuts: ${event.cut}`;
  const taken = (event.captured ?? []).filter((card) => card !== event.card); // captured holds the played card too
  let said = `plays ${event.card}, ` + (taken.length > 0 ? `takes ${taken.join(" ")}` : "lays it");
  if (event.sweep) said += " (chkobba: a sweep)";
  if (event.collected.length > 0) said += `; the last to capture collects ${event.collected.join(" ")}`;
  return said;
}

function filed(played: SealedPlayResponse): Filed {
  expect(played.record !== undefined, "the answer that ends a round carries its record");
  expect(typeof played.record_receipt === "string", "and its receipt");
  return { record: played.record as RoundRecord, record_receipt: played.record_receipt };
}

// The referee's side: from what was filed alone.

/**
 * docs/referee.md: the receipt is a detached JWS (EdDSA) over the RFC 8785 canonical JSON of
 * {"operation": "playRound", "record": record}, by a key of /.well-known/jwks.json.
 */
export async function recordVerifies(record: RoundRecord, receipt: string, jwks: Jwks): Promise<boolean> {
  const [header, detached, signature, ...more] = receipt.split(".");
  if (!header || detached !== "" || !signature || more.length > 0) return false;
  const payload = canonicalize({ operation: "playRound", record })!;
  try {
    await compactVerify(`${header}.${base64url.encode(payload)}.${signature}`, createLocalJWKSet(jwks as JSONWebKeySet), {
      algorithms: ["EdDSA"],
    });
    return true;
  } catch {
    return false;
  }
}

/** Checks a filed record's receipt, then replays it: the verdict on every move, and the state reached. */
export async function referee(client: RefereeClient, kept: Filed, jwks: Jwks): Promise<ReplayResponse> {
  expect(await recordVerifies(kept.record, kept.record_receipt, jwks), "the record's receipt verifies");
  const replay = await client.replayRound(kept.record as ReplayRequest);
  expect(replay.valid && replay.first_illegal === null, `every move of the record is legal: ${replay.first_illegal}`);
  return replay;
}

export async function playGame(
  baseUrl: string,
  { seeds = [], dealer = 0, log = console.log, file = () => {} }: GameOptions = {},
): Promise<Summary> {
  const client = createRefereeClient(baseUrl);
  const server = new GameServer(client, seeds, dealer, log);
  const last = await server.round();
  const kept = filed(last);
  expect(last.breakdown !== null && last.next_dealer === (dealer + 1) % PLAYERS, "a breakdown and the next dealer");
  expect(server.hinted.size === PLAYERS, `every seat was hinted: ${[...server.hinted].sort()}`);
  expect(server.refused.length === 1 && server.refused[0] === "not-your-turn", `one out-of-turn move refused: ${server.refused}`);
  [...server.voidDeals, kept].forEach(file);

  const jwks = await client.getJwks();
  for (const voidDeal of server.voidDeals) {
    const replay = await referee(client, voidDeal, jwks);
    expect(!replay.complete && replay.state.phase === "redeal", "a void deal replays to its redeal");
    expect(replay.next_dealer === dealer, "and the same dealer deals again");
  }
  const replay = await referee(client, kept, jwks);
  expect(replay.complete && replay.state.phase === "over", "the record replays to the round's end");
  expect(JSON.stringify(replay.breakdown) === JSON.stringify(last.breakdown), "the replay's breakdown is the round's");
  expect(replay.next_dealer === last.next_dealer, "and so is the next dealer");
  const points = last.breakdown.map((line) => line.total);
  log(`round over: points by side [${points.join(", ")}]; the referee's replay agrees, and the receipts verify`);
  return {
    deals: server.deals,
    redeals: server.voidDeals.length,
    moves: kept.record.moves.length,
    hinted_seats: [...server.hinted].sort((a, b) => a - b),
    refused: server.refused,
    points,
    next_dealer: last.next_dealer,
    receipts: "verified",
    replay: "agrees",
  };
}

function parseArguments(argv: string[]): { baseUrl: string; seeds: string[]; dealer: number } {
  const seeds: string[] = [];
  let dealer = 0;
  let baseUrl: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--seed") seeds.push(argv[++i] ?? "");
    else if (arg === "--dealer") dealer = Number(argv[++i]);
    else baseUrl = arg;
  }
  if (!baseUrl || !Number.isInteger(dealer)) {
    console.error("usage: tsx examples/game-loop.ts BASE_URL [--seed SEED]... [--dealer SEAT]");
    process.exit(2);
  }
  return { baseUrl, seeds, dealer };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { baseUrl, ...options } = parseArguments(process.argv.slice(2));
  try {
    console.log(JSON.stringify(await playGame(baseUrl, options)));
  } catch (error) {
    if (!(error instanceof GameError || error instanceof ProblemError)) throw error;
    console.error(`game loop failed: ${error.message}`);
    process.exit(1);
  }
}
