/**
 * Type-level tests of src/client.ts: that its types are exactly the contract's, tagged unions where the
 * spec has a oneOf. Nothing here runs; `npm test` type-checks it first (`tsc -p tsconfig.json`), and tsc
 * fails when a line under `@ts-expect-error` compiles (the type lets through what the contract refuses)
 * or when a `check<...>()` is not `true` (a type is not the one named).
 */
import type {
  Cut,
  DealRequest,
  DealResponse,
  Move,
  OpenApiDocument,
  PlainDeal,
  PlainPlayResponse,
  PlayMove,
  PlayRequest,
  PlayResponse,
  PROBLEM_CODES,
  ProblemCode,
  ProblemError,
  RefereeClient,
  ReplayRequest,
  RoundState,
  Rules,
  Schemas,
  ScoreRequest,
  SealedDeal,
  SealedPlayResponse,
  ViewRequest,
  HintsRequest,
  Jwks,
} from "../src/client.js";
import { verifyReceipt, type ReceiptOperation } from "../src/receipts.js";

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** True when every A is a B. */
type Extends<A, B> = [A] extends [B] ? true : false;
function check<T extends true>(): T | void {}

declare const client: RefereeClient;
declare const state: RoundState;
declare const token: string;
declare const sealedOrNot: boolean;
const base = { rules: "scopa", players: 2, dealer: 0 } as const;

export async function deals(): Promise<void> {
  const plain = await client.dealRound({ ...base, seed: "s" });
  check<Equal<typeof plain, PlainDeal>>();
  check<Equal<typeof plain.deck, Schemas["Card"][]>>();
  // @ts-expect-error: a PlainDeal has no state_token
  void plain.state_token;

  const sealed = await client.dealRound({ ...base, sealed: true, viewer: 1 });
  check<Equal<typeof sealed, SealedDeal>>();
  // @ts-expect-error: a SealedDeal has no deck
  void sealed.deck;
  // @ts-expect-error: nor a state
  void sealed.state;

  const either = await client.dealRound({ ...base, sealed: sealedOrNot });
  check<Equal<typeof either, DealResponse>>();
  if (either.state !== undefined) {
    check<Equal<typeof either.deck, Schemas["Card"][]>>();
  } else {
    check<Equal<typeof either.views, Schemas["SeatView"][]>>();
  }

  // @ts-expect-error: a deck or a seed, not both
  await client.dealRound({ ...base, deck: [], seed: 1 });
  // @ts-expect-error: viewer goes with sealed: true
  await client.dealRound({ ...base, viewer: 1 });
  // @ts-expect-error: not with sealed: false either
  await client.dealRound({ ...base, sealed: false, viewer: 1 });
  const fair = { commit_token: "t", seeds: ["a", "b"] };
  const committed = await client.dealRound({ ...base, sealed: true, context: "table-1", clock: { turn_seconds: 20 }, fair });
  check<Equal<typeof committed.round_id, string>>();
  check<Equal<typeof committed.clock, { seat: number; deadline: string } | undefined>>();
  // @ts-expect-error: a committed deal is dealt from its seeds: no seed
  await client.dealRound({ ...base, sealed: true, seed: 1, fair });
  // @ts-expect-error: a clock, a context and a committed deal go with sealed: true
  await client.dealRound({ ...base, clock: { turn_seconds: 20 } });
  const timedOut = await client.playRound({ state_token: committed.state_token, move: { timeout: true, seat: 1 } });
  check<Equal<typeof timedOut.event.auto, "timeout" | undefined>>();
  // @ts-expect-error: a timeout names only the seat
  await client.playRound({ state_token: committed.state_token, move: { timeout: true, seat: 1, card: "7D" } });
  // @ts-expect-error: a bigint seed cannot be sent as JSON: a string (or a number within 2^53)
  await client.dealRound({ ...base, seed: 1n });
  // @ts-expect-error: a cut is keep or table
  await client.dealRound({ ...base, cut: "shuffle" });
}

export async function plays(move: Move): Promise<void> {
  const plain = await client.playRound({ state, move });
  check<Equal<typeof plain, PlainPlayResponse>>();
  // @ts-expect-error: a plain answer has no views
  void plain.views;

  const sealed = await client.playRound({ state_token: token, move: { cut: "keep" }, viewer: 0 });
  check<Equal<typeof sealed, SealedPlayResponse>>();
  // @ts-expect-error: a sealed answer has no state
  void sealed.state;

  const either = await client.playRound(sealedOrNot ? { state_token: token, move } : { state, move });
  check<Equal<typeof either, PlayResponse>>();

  // @ts-expect-error: a state or a state_token, not both
  await client.playRound({ state, state_token: token, move });
  // @ts-expect-error: viewer goes with a state_token
  await client.playRound({ state, move, viewer: 0 });
  // @ts-expect-error: a move is a card or a cut, not both
  await client.playRound({ state, move: { card: "7D", cut: "keep" } });
  // @ts-expect-error: nor neither
  await client.playRound({ state, move: {} });
  // @ts-expect-error: a cut takes no capture
  await client.playRound({ state, move: { cut: "keep", capture: [] } });
}

export function moves(move: Move): void {
  check<Extends<PlayMove, Move>>();
  check<Extends<Move, Schemas["MoveInput"]>>();
  if (move.cut !== undefined) {
    check<Equal<typeof move.cut, Cut>>();
    check<Equal<typeof move.card, undefined>>();
  } else {
    check<Equal<typeof move.card, Schemas["Card"]>>();
  }
}

export async function otherRequests(move: Move): Promise<void> {
  // @ts-expect-error: a state or a state_token, not both
  await client.viewRound({ state, state_token: token, seat: 0 });
  // @ts-expect-error: one of them
  await client.suggestMoves({ limit: 3 });
  // @ts-expect-error: a side is a pile or counts, not both
  await client.scoreRound({ rules: "chkobba", sides: [{ captured: [], counts: { cards: 0, diamonds: 0, sevens: 0, sixes: 0, seven_of_diamonds: false }, sweeps: 0 }] });
  // @ts-expect-error: a replayed move is a card or a cut
  await client.replayRound({ ...base, deck: [], moves: [move, { card: "7D", cut: "keep" }] });
  // @ts-expect-error: chkobba has no face_sums option (chkobba-crp has)
  const wrong: Rules = { profile: "chkobba", options: { face_sums: true } };
  const right: Rules = { profile: "chkobba-crp", options: { face_sums: true } };
  // @ts-expect-error: not a profile
  const unknown: Rules = "belote";
  void [wrong, right, unknown];
}

export async function answers(error: ProblemError): Promise<void> {
  check<Equal<typeof error.code, ProblemCode>>();
  check<Equal<(typeof PROBLEM_CODES)[number], ProblemCode>>();
  const fallback: ProblemCode = "http-error";
  // @ts-expect-error: unknown statuses are http-error, not http-<status>
  const perStatus: ProblemCode = "http-502";
  void [fallback, perStatus];
  const document = await client.getOpenapiJson();
  check<Equal<typeof document, OpenApiDocument>>();
  check<Equal<typeof document.openapi, string>>();
}

// What the client sends is a body the spec accepts, and what the spec answers is one of its answers.
check<Extends<DealRequest, Schemas["DealRequest"]>>();
check<Extends<PlayRequest, Schemas["PlayRequest"]>>();
check<Extends<ViewRequest, Schemas["ViewRequest"]>>();
check<Extends<HintsRequest, Schemas["HintsRequest"]>>();
check<Extends<ScoreRequest, Schemas["ScoreRequest"]>>();
check<Extends<ReplayRequest, Schemas["ReplayRequest"]>>();
check<Extends<Schemas["DealResponse"], DealResponse>>();
check<Extends<Schemas["PlayResponse"], PlayResponse>>();

// Receipts: the operations whose request takes `receipt`, and nothing else, are verified by verifyReceipt.
check<Equal<ReceiptOperation, "replayRound" | "replayMatch" | "scoreRound" | "decideMatch">>();
export async function receipts(jwks: Jwks, request: ScoreRequest): Promise<void> {
  const answer = await client.scoreRound({ ...request, receipt: true });
  check<Equal<typeof answer.receipt, string | undefined>>();
  const verdict = await verifyReceipt("scoreRound", { ...request, receipt: true }, answer, jwks);
  check<Equal<typeof verdict, boolean>>();
  // @ts-expect-error: legalCaptures signs nothing
  await verifyReceipt("legalCaptures", { rules: "chkobba", table: [], hand: ["7D"] }, { moves: [] }, jwks);
  // @ts-expect-error: nor does its request take receipt
  await client.legalCaptures({ rules: "chkobba", table: [], hand: ["7D"], receipt: true });
  // @ts-expect-error: a decideMatch answer is not a scoreRound's
  await verifyReceipt("scoreRound", request, await client.decideMatch({ rules: "chkobba", scores: [0, 0], round_points: [1, 2] }), jwks);
}
