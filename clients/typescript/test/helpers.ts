/**
 * What the tests share: the running service, the typed client, the spec's operations, and assertions on
 * problem responses.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { parse } from "yaml";
import {
  createRefereeClient,
  PROBLEM_MEDIA_TYPE,
  ProblemError,
  type Card,
  type Move,
  type OperationId,
  type PlainDeal,
  type RefereeClient,
  type RoundState,
  type ScoreLine,
  type SealedDeal,
  type SeatView,
} from "../src/client.js";
import { REPO_ROOT, startService, type RunningService } from "../scripts/service.js";

export { REPO_ROOT };

export interface Referee {
  /** Starts the service once (or checks SERVICE_URL); await it in a suite's `before` hook. */
  ready(): Promise<void>;
  /** Base URL and client: usable once ready() has resolved. */
  readonly url: string;
  readonly client: RefereeClient;
}

/**
 * The service for this test file: SERVICE_URL when set (`npm test` starts one service for every file),
 * else one started for this file alone on the first ready(), and stopped once the file's tests are done.
 *
 * Each suite that calls the service starts with `before(() => referee.ready())`: node 20 runs top-level
 * hooks as soon as they are declared, so they cannot be relied on to finish before one another.
 */
export function useReferee(): Referee {
  let starting: Promise<RunningService> | undefined;
  let service: RunningService | undefined;
  let client: RefereeClient | undefined;
  after(async () => {
    await (await starting?.catch(() => undefined))?.stop();
  });
  return {
    async ready() {
      starting ??= startService();
      service = await starting;
      client ??= createRefereeClient(service.url);
    },
    get url() {
      assert.ok(service, "await referee.ready() in a before hook first");
      return service.url;
    },
    get client() {
      assert.ok(client, "await referee.ready() in a before hook first");
      return client;
    },
  };
}

// The contract

export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  /** The response codes the spec declares ("200", "422", "default", ...). */
  responses: string[];
  hasBody: boolean;
}

export const SPEC_TEXT = readFileSync(join(REPO_ROOT, "openapi.yaml"), "utf8");
export const SPEC = parse(SPEC_TEXT) as {
  paths: Record<string, Record<string, { operationId?: string; tags?: string[]; responses?: object; requestBody?: object }>>;
};
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of openapi.yaml, in the spec's order. */
export function specOperations(): SpecOperation[] {
  const found: SpecOperation[] = [];
  for (const [path, item] of Object.entries(SPEC.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      assert.ok(op.operationId, `${method.toUpperCase()} ${path} has no operationId`);
      found.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        tag: op.tags?.[0] ?? "untagged",
        responses: Object.keys(op.responses ?? {}),
        hasBody: op.requestBody !== undefined,
      });
    }
  }
  return found;
}

/** A URL path of the operation, with its path parameters filled in with an example. */
export function examplePath(op: SpecOperation): string {
  return op.path.replace(/\{[^}]+\}/g, "chkobba");
}

// Problems

/** Asserts that a call rejects with an application/problem+json problem of this status and code. */
export async function expectProblem(call: Promise<unknown>, status: number, code: string): Promise<ProblemError> {
  let thrown: unknown;
  try {
    await call;
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof ProblemError, `expected a ProblemError ${status} ${code}, got ${String(thrown)}`);
  checkProblem(thrown, status, code);
  return thrown;
}

/** Reads a raw answer as a problem, and asserts its status, code and media type. */
export async function expectProblemResponse(response: Response, status: number, code: string): Promise<ProblemError> {
  assert.equal(response.ok, false, `expected ${status} ${code}, got ${response.status}`);
  const problem = await ProblemError.fromResponse(response);
  checkProblem(problem, status, code);
  return problem;
}

function checkProblem(error: ProblemError, status: number, code: string): void {
  const media = error.response.headers.get("content-type") ?? "";
  assert.equal(media.split(";")[0], PROBLEM_MEDIA_TYPE, `content-type of ${status} ${code}`);
  assert.ok(error.isProblemJson, `a well-formed RFC 9457 body for ${status} ${code}: ${error.message}`);
  assert.deepEqual([error.status, error.problem.status, error.code], [status, status, code], error.message);
  assert.ok(error.problem.type.endsWith(`/${code}`), `type ${error.problem.type} names the code ${code}`);
  assert.ok(error.problem.title.length > 0 && error.problem.detail.length > 0);
  assert.ok(error.response.headers.get("x-request-id"), "every answer carries X-Request-ID");
}

// Playing whole rounds through the client

export interface PlayedRound {
  /** The moves made, in order, as a replay record takes them. */
  moves: Move[];
  breakdown: ScoreLine[];
  nextDealer: number | null;
  /** The last state (plain rounds only). */
  state?: RoundState;
  /** Views after the last move (sealed rounds only). */
  views?: SeatView[];
}

/**
 * Chooses a move from what the seat to move knows (its hand and the table): the first card that can
 * capture, with its first option, else the first card. In phase cut: keep.
 */
async function chooseMove(
  client: RefereeClient,
  known: { rules: RoundState["rules"]; phase: string; hand: Card[]; table: Card[]; lastPlay: boolean },
): Promise<{ move: Move; sweep: boolean }> {
  if (known.phase === "cut") return { move: { cut: "keep" }, sweep: false };
  const { moves } = await client.legalCaptures({
    rules: known.rules,
    table: known.table,
    hand: known.hand,
    last_play: known.lastPlay,
  });
  assert.deepEqual(
    moves.map((m) => m.card),
    known.hand,
    "legalCaptures answers one entry per hand card, in hand order",
  );
  const capturing = moves.find((m) => m.options.length > 0);
  if (capturing) {
    const option = capturing.options[0]!;
    return { move: { card: capturing.card, capture: option.capture }, sweep: option.sweep };
  }
  return { move: { card: known.hand[0]! }, sweep: false };
}

const MAX_MOVES = 64;

/** Plays a plain round (from dealRound without sealed) to phase over, checking each event. */
export async function playPlainRound(client: RefereeClient, deal: PlainDeal): Promise<PlayedRound> {
  let state = deal.state;
  const moves: Move[] = [];
  for (let step = 0; state.phase !== "over"; step++) {
    assert.ok(step < MAX_MOVES, "the round ends");
    assert.ok(state.phase === "play" || state.phase === "cut", `phase ${state.phase}`);
    const seat = state.turn;
    assert.ok(seat !== null);
    const hand = state.hands[seat]!;
    const lastPlay = state.stock.length === 0 && state.hands.reduce((n, h) => n + h.length, 0) === 1;
    const { move, sweep } = await chooseMove(client, { rules: state.rules, phase: state.phase, hand, table: state.table, lastPlay });
    const answer = await client.playRound({ state, move });
    assert.equal(answer.event.seat, seat);
    if (move.card !== undefined) {
      assert.equal(answer.event.card, move.card);
      assert.equal(answer.event.sweep ?? false, sweep, "the event sweeps as legalCaptures said");
      assert.deepEqual(new Set(answer.event.captured ?? []), new Set(move.capture ? [move.card, ...move.capture] : []));
    }
    moves.push(move);
    state = answer.state;
    if (state.phase === "over") {
      assert.ok(answer.breakdown, "an over round carries its breakdown");
      return { moves, breakdown: answer.breakdown, nextDealer: answer.next_dealer, state };
    }
    assert.equal(answer.breakdown, null);
  }
  assert.fail("dealt over");
}

/** Plays a sealed round (dealRound with sealed) to phase over with the views alone. */
export async function playSealedRound(client: RefereeClient, deal: SealedDeal): Promise<PlayedRound> {
  let token = deal.state_token;
  let views = deal.views;
  const moves: Move[] = [];
  for (let step = 0; ; step++) {
    assert.ok(step < MAX_MOVES, "the round ends");
    const seat = views[0]!.turn;
    assert.ok(seat !== null);
    const mine = views.find((v) => v.seat === seat)!;
    for (const view of views) {
      assert.equal(view.hand.length, view.hand_sizes[view.seat], "a view holds its own hand");
      assert.equal(view.turn, seat);
    }
    const lastPlay = mine.stock_size === 0 && mine.hand_sizes.reduce((n, s) => n + s, 0) === 1;
    const { move } = await chooseMove(client, { rules: mine.rules, phase: mine.phase, hand: mine.hand, table: mine.table, lastPlay });
    const answer = await client.playRound({ state_token: token, move });
    assert.notEqual(answer.state_token, token, "every move gives a new token");
    moves.push(move);
    token = answer.state_token;
    views = answer.views;
    if (views[0]!.phase === "over") {
      assert.ok(answer.breakdown);
      return { moves, breakdown: answer.breakdown, nextDealer: answer.next_dealer, views };
    }
  }
}
