/**
 * A typed client of the Chkobba referee: a thin layer over openapi-fetch and the types generated from
 * openapi.yaml (src/schema.ts). One method per operation of the contract, named by its operationId; each
 * answers the success body, or throws a ProblemError carrying the RFC 9457 problem.
 *
 *   const referee = createRefereeClient("http://127.0.0.1:8080");
 *   const { moves } = await referee.legalCaptures({ rules: "chkobba", table: ["2D", "6S"], hand: ["QH"] });
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };
export type Schemas = components["schemas"];
export type OperationId = keyof operations;

/** The JSON body an operation takes, as generated. */
export type RequestOf<Op extends OperationId> =
  NonNullable<operations[Op]["requestBody"]> extends { content: { "application/json": infer Body } } ? Body : never;
/** The JSON body of an operation's 200 answer, as generated. */
export type ResponseOf<Op extends OperationId> = operations[Op]["responses"] extends {
  200: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type KeysOf<U> = U extends unknown ? keyof U : never;

/**
 * Exactly one of the variants of a union of object types, as the spec's oneOf of closed objects
 * (`additionalProperties: false`) says: each variant forbids, as `?: never`, the fields that only the
 * others have. A plain TypeScript union accepts `{ card, cut }` (the fields of two variants), and cannot
 * be narrowed by `answer.state !== undefined`; this one refuses the first and allows the second.
 */
export type OneOf<Variants, All = Variants> = Variants extends unknown
  ? Simplify<Variants & { [K in Exclude<KeysOf<All>, keyof Variants>]?: never }>
  : never;

// Cards, rules and the round, as generated.
export type Card = Schemas["Card"];
export type Cut = Schemas["Cut"];
export type CaptureKind = Schemas["CaptureKind"];
export type Phase = Schemas["Phase"];
export type Outcome = Schemas["Outcome"];
export type ProfileId = Schemas["ProfileId"];
export type ChkobbaRules = Schemas["ChkobbaRules"];
export type ChkobbaCrpRules = Schemas["ChkobbaCrpRules"];
export type ScopaRules = Schemas["ScopaRules"];
export type ChkobbaOptions = Schemas["ChkobbaOptions"];
export type ChkobbaCrpOptions = Schemas["ChkobbaCrpOptions"];
export type ScopaOptions = Schemas["ScopaOptions"];
/** A profile id, or a profile with its own options (a union tagged by `profile`). */
export type Rules = Schemas["Rules"];
/** A string, or a whole number from -(2^63) to 2^63 - 1 (larger ones as strings: the same deck). */
export type Seed = Schemas["Seed"];
export type RoundState = Schemas["RoundState"];
export type SeatView = Schemas["SeatView"];
/** What a move did (named RoundEvent, not Event, so as not to hide the DOM's Event where it is imported). */
export type RoundEvent = Schemas["RoundEvent"];
export type ScoreLine = Schemas["ScoreLine"];
export type CardMoves = Schemas["CardMoves"];
export type CaptureOption = Schemas["CaptureOption"];
export type Ruleset = Schemas["Ruleset"];
export type Health = Schemas["Health"];
export type Hint = Schemas["Hint"];
export type Problem = Schemas["Problem"];
/** The keys that verify receipts (`getJwks`); `verifyReceipt` is in `@chkobba-referee/client/receipts`. */
export type Jwks = Schemas["Jwks"];
/** Every problem code of the contract (docs/api.md, "Problem codes"). */
export type ProblemCode = Problem["code"];

// Moves and score sides: a oneOf in the spec, exactly one variant here.
export type PlayMove = Schemas["PlayMove"];
export type CutMove = Schemas["CutMove"];
/** A move: a card with the table cards it takes, or in phase cut, a cut. Never both. */
export type Move = OneOf<PlayMove | CutMove>;
/** In a clocked sealed round, once the seat's deadline has passed: the service plays the default move for it. */
export type TimeoutMove = Schemas["TimeoutMove"];
/** What playRound takes (the spec's MoveInput): a move, or in a clocked round a timeout. */
export type MoveInput = OneOf<PlayMove | CutMove | TimeoutMove>;
export type RecordPlayMove = Schemas["RecordPlayMove"];
export type RecordCutMove = Schemas["RecordCutMove"];
/** A move of a round record: a play or a cut, with `at_ms` (and `auto`) in a clocked round. */
export type RecordMove = OneOf<RecordPlayMove | RecordCutMove>;
export type TurnClock = Schemas["ClockInput"];
export type FairDeal = Schemas["FairInput"];
/** A clocked round's deadline, answered beside the token while a seat is to move. */
export type Deadline = Schemas["Clock"];
export type CommitResponse = Schemas["CommitResponse"];
export type CountsInput = Schemas["CountsInput"];
export type SideWithPile = Schemas["SideWithPile"];
export type SideWithCounts = Schemas["SideWithCounts"];
/** A side to score: its pile, or its counts. Never both. */
export type SideInput = OneOf<SideWithPile | SideWithCounts>;

// Requests: the generated ones, with the unions above in place of the generated (inexact) ones.
export type CapturesRequest = Schemas["CapturesRequest"];
export type MoveRequest = Schemas["MoveRequest"];
export type MatchRequest = Schemas["MatchRequest"];
export type ScoreRequest = Simplify<Omit<Schemas["ScoreRequest"], "sides"> & { sides: SideInput[] }>;
export type ReplayRequest = Simplify<Omit<Schemas["ReplayRequest"], "moves"> & { moves: RecordMove[] }>;
export type RoundRecord = Simplify<Omit<Schemas["RoundRecord"], "moves"> & { moves: RecordMove[] }>;
export type MatchReplayRequest = Simplify<Omit<Schemas["MatchReplayRequest"], "rounds"> & { rounds: RoundRecord[] }>;

type SealedOnly = "viewer" | "context" | "clock" | "fair";
type DealCommon = Omit<Schemas["DealRequest"], "deck" | "seed" | "sealed" | SealedOnly>;
/** A deck or a seed, not both (the spec's `not: {required: [deck, seed]}`); neither for a random deck. */
type DeckOrSeed = OneOf<Pick<Schemas["DealRequest"], "deck"> | Pick<Schemas["DealRequest"], "seed">>;
/** Sealed: a deck, a seed, or a committed deal (`fair`), one at most. */
type SealedDeck = OneOf<Pick<Schemas["DealRequest"], "deck"> | Pick<Schemas["DealRequest"], "seed"> | Pick<Schemas["DealRequest"], "fair">>;
/** dealRound without `sealed` (or `sealed: false`): answered with a PlainDeal. viewer, context, clock, fair: sealed only. */
export type PlainDealRequest = Simplify<DealCommon & { sealed?: false } & { [K in SealedOnly]?: never } & DeckOrSeed>;
/** dealRound with `sealed: true`: answered with a SealedDeal, all views or the `viewer`'s alone. */
export type SealedDealRequest = Simplify<
  DealCommon & { sealed: true } & Pick<Schemas["DealRequest"], "viewer" | "context" | "clock"> & SealedDeck
>;
export type DealRequest = PlainDealRequest | SealedDealRequest;

/** A play on a round carried as its `state` (PlainPlayRequest) or as a `state_token` (SealedPlayRequest). */
export type PlayRequest = OneOf<
  | Simplify<Omit<Schemas["PlainPlayRequest"], "move"> & { move: MoveInput }>
  | Simplify<Omit<Schemas["SealedPlayRequest"], "move"> & { move: MoveInput }>
>;
export type PlainPlayRequest = Extract<PlayRequest, { state: RoundState }>;
export type SealedPlayRequest = Extract<PlayRequest, { state_token: string }>;
export type ViewRequest = OneOf<Schemas["PlainViewRequest"] | Schemas["SealedViewRequest"]>;
export type PlainViewRequest = Extract<ViewRequest, { state: RoundState }>;
export type SealedViewRequest = Extract<ViewRequest, { state_token: string }>;
export type HintsRequest = OneOf<Schemas["PlainHintsRequest"] | Schemas["SealedHintsRequest"]>;
export type PlainHintsRequest = Extract<HintsRequest, { state: RoundState }>;
export type SealedHintsRequest = Extract<HintsRequest, { state_token: string }>;

// Answers. A method whose request says which variant comes back answers that variant, as generated
// (a SealedDeal has no `deck` at all); otherwise the union, which `"state" in answer` or
// `answer.state !== undefined` narrows.
export type PlainDeal = Schemas["PlainDeal"];
export type SealedDeal = Schemas["SealedDeal"];
export type DealResponse = OneOf<PlainDeal | SealedDeal>;
export type PlainPlayResponse = Schemas["PlainPlayResponse"];
export type SealedPlayResponse = Schemas["SealedPlayResponse"];
export type PlayResponse = OneOf<PlainPlayResponse | SealedPlayResponse>;
export type CapturesResponse = Schemas["CapturesResponse"];
export type MoveResponse = Schemas["MoveResponse"];
export type ScoreResponse = Schemas["ScoreResponse"];
export type MatchResponse = Schemas["MatchResponse"];
export type ReplayResponse = Schemas["ReplayResponse"];
export type ReviewRequest = Simplify<Omit<Schemas["ReviewRequest"], "moves"> & { moves: RecordMove[] }>;
export type ReviewResponse = Schemas["ReviewResponse"];
export type MatchReplayResponse = Schemas["MatchReplayResponse"];
export type ViewResponse = Schemas["ViewResponse"];
export type HintsResponse = Schemas["HintsResponse"];
export type RulesetsResponse = Schemas["RulesetsResponse"];

/**
 * getOpenapiJson's answer: the OpenAPI document. The spec requires openapi, info and paths of an
 * object it does not describe further; these are their shapes in every OpenAPI 3.1 document.
 */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  [field: string]: unknown;
}

/**
 * Every problem code of the contract, at run time (for a message table, say): tsc fails here when the
 * spec's Problem.code enum gains or loses a code, until this list follows.
 */
export const PROBLEM_CODES = [
  "malformed-request",
  "forbidden",
  "not-found",
  "method-not-allowed",
  "request-timeout",
  "body-too-large",
  "uri-too-long",
  "unsupported-media-type",
  "expectation-failed",
  "headers-too-large",
  "not-implemented",
  "http-error",
  "malformed-json",
  "duplicate-key",
  "validation-error",
  "invalid-card",
  "duplicate-card",
  "unknown-profile",
  "invalid-option",
  "invalid-input",
  "no-such-seat",
  "not-in-profile",
  "bad-state",
  "inconsistent-counts",
  "inconsistent-record",
  "invalid-scores",
  "match-over",
  "illegal-move",
  "ambiguous-capture",
  "card-not-held",
  "not-your-turn",
  "wrong-phase",
  "clock-running",
  "turn-expired",
  "not-the-default-move",
  "bad-time",
  "wrong-seed-count",
  "clock-outlasts-token",
  "tampered-state",
  "expired-state",
] as const satisfies readonly ProblemCode[];

type UnlistedCodes = Exclude<ProblemCode, (typeof PROBLEM_CODES)[number]>;
const everyCodeIsListed: [UnlistedCodes] extends [never] ? true : { "PROBLEM_CODES lacks": UnlistedCodes } = true;
void everyCodeIsListed;

const KNOWN_CODES: ReadonlySet<string> = new Set(PROBLEM_CODES);

/** Whether a string is a problem code of this contract. */
export function isProblemCode(code: unknown): code is ProblemCode {
  return typeof code === "string" && KNOWN_CODES.has(code);
}

export const PROBLEM_MEDIA_TYPE = "application/problem+json";

/**
 * A non-success answer. `problem` is the RFC 9457 body, with its stable `code` (`illegal-move`,
 * `unknown-profile`, ...: a ProblemCode). `isProblemJson` is false when the answer was not an
 * application/problem+json body with a code of this contract (something between the client and the
 * service answered, or a newer service sent a code this client does not know): then `code` is
 * `http-error`, `status` is the answer's, and `problem.detail` holds the start of the body as it came.
 */
export class ProblemError extends Error {
  override readonly name = "ProblemError";

  constructor(
    readonly status: number,
    readonly problem: Problem,
    readonly response: Response,
    readonly isProblemJson: boolean,
  ) {
    super(`${status} ${problem.code}: ${problem.detail}`);
  }

  get code(): ProblemCode {
    return this.problem.code;
  }

  /** Validation messages per field path (`table.2`, `play.capture`), or {}. */
  get errors(): Record<string, string[]> {
    return this.problem.errors ?? {};
  }

  /** Builds the error from an answer whose body was already read (`body`: parsed JSON, or the text). */
  static fromBody(response: Response, body: unknown): ProblemError {
    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (mediaType === PROBLEM_MEDIA_TYPE && isProblem(body)) {
      return new ProblemError(response.status, body, response, true);
    }
    const detail = typeof body === "string" ? body.slice(0, 500) : JSON.stringify(body ?? null).slice(0, 500);
    const problem: Problem = {
      type: "about:blank",
      title: response.statusText || "Unexpected answer",
      status: response.status,
      detail,
      code: "http-error",
    };
    return new ProblemError(response.status, problem, response, false);
  }

  /** Reads an unread non-success Response (from plain fetch, say) into a ProblemError. */
  static async fromResponse(response: Response): Promise<ProblemError> {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return ProblemError.fromBody(response, body);
  }
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    typeof b.type === "string" &&
    typeof b.title === "string" &&
    typeof b.status === "number" &&
    typeof b.detail === "string" &&
    isProblemCode(b.code)
  );
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function unwrap<T>({ data, error, response }: Answer<T>): T {
  if (!response.ok) throw ProblemError.fromBody(response, error);
  return data as T;
}

function isOpenApiDocument(body: unknown): body is OpenApiDocument {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.openapi === "string" && typeof b.info === "object" && b.info !== null && typeof b.paths === "object" && b.paths !== null;
}

function shapeError(operation: OperationId, fields: string): Error {
  return new Error(`${operation}: the answer lacks ${fields}, which the contract promises`);
}

export class RefereeClient {
  /** The underlying openapi-fetch client, typed by the spec's paths, for anything the methods do not cover. */
  readonly raw: Client<paths>;

  constructor(baseUrl: string, options: Omit<ClientOptions, "baseUrl"> = {}) {
    this.raw = createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, "") });
  }

  // rules

  async listRulesets(): Promise<RulesetsResponse> {
    return unwrap(await this.raw.GET("/v1/rulesets"));
  }

  /** One profile; an unknown one throws a ProblemError with status 404, code `unknown-profile`. */
  async getRuleset(profile: string): Promise<Ruleset> {
    return unwrap(await this.raw.GET("/v1/rulesets/{profile}", { params: { path: { profile } } }));
  }

  // adjudication

  async legalCaptures(body: CapturesRequest): Promise<CapturesResponse> {
    return unwrap(await this.raw.POST("/v1/captures", { body }));
  }

  /** One play; an illegal one throws a ProblemError (422 `illegal-move`, `ambiguous-capture`, ...) with `options`. */
  async applyMove(body: MoveRequest): Promise<MoveResponse> {
    return unwrap(await this.raw.POST("/v1/moves", { body }));
  }

  /**
   * The breakdown; with `claimed`, `valid` and `discrepancies` (a wrong claim is an answer, not an error). With
   * `receipt: true`, a `receipt` (as for replayRound and decideMatch): see `verifyReceipt`.
   */
  async scoreRound(body: ScoreRequest): Promise<ScoreResponse> {
    return unwrap(await this.raw.POST("/v1/scores", { body }));
  }

  async decideMatch(body: MatchRequest): Promise<MatchResponse> {
    return unwrap(await this.raw.POST("/v1/match-decisions", { body }));
  }

  // rounds

  /**
   * Deals a round. With `sealed: true` the answer is a SealedDeal (a state_token and the views), else a
   * PlainDeal (the state and the deck); a `sealed` known only at run time answers the union.
   */
  dealRound(body: SealedDealRequest): Promise<SealedDeal>;
  dealRound(body: PlainDealRequest): Promise<PlainDeal>;
  dealRound(body: DealRequest): Promise<DealResponse>;
  async dealRound(body: DealRequest): Promise<DealResponse> {
    const answer = unwrap(await this.raw.POST("/v1/rounds", { body }));
    if (body.sealed) {
      if (!("state_token" in answer && "views" in answer)) throw shapeError("dealRound", "state_token or views");
      return answer;
    }
    if (!("state" in answer && "deck" in answer)) throw shapeError("dealRound", "state or deck");
    return answer;
  }

  /**
   * One move. A round carried as its `state` answers a PlainPlayResponse (the next state); one carried as
   * a `state_token` answers a SealedPlayResponse (the next token and the views).
   */
  playRound(body: SealedPlayRequest): Promise<SealedPlayResponse>;
  playRound(body: PlainPlayRequest): Promise<PlainPlayResponse>;
  playRound(body: PlayRequest): Promise<PlayResponse>;
  async playRound(body: PlayRequest): Promise<PlayResponse> {
    const answer = unwrap(await this.raw.POST("/v1/rounds/play", { body }));
    if (body.state_token !== undefined) {
      if (!("state_token" in answer && "views" in answer)) throw shapeError("playRound", "state_token or views");
      return answer;
    }
    if (!("state" in answer)) throw shapeError("playRound", "state");
    return answer;
  }

  /**
   * A commitment to a secret server seed, before any card is chosen: show `commitment` to the players, then
   * deal with `fair: { commit_token, seeds }` (docs/fair-deals.md; `fairDeck` in `@chkobba-referee/client/fair`).
   */
  async commitDeal(): Promise<CommitResponse> {
    return unwrap(await this.raw.POST("/v1/deals/commitments", { body: {} }));
  }

  /** A verdict on every move of a record: an illegal move is an answer (`valid: false`), not an error. */
  async replayRound(body: ReplayRequest): Promise<ReplayResponse> {
    return unwrap(await this.raw.POST("/v1/rounds/replay", { body }));
  }

  /**
   * Each move of a record judged against the best move its mover could know of (docs/strategy.md,
   * "Review"): `loss` in round points, a judgment, and each seat's accuracy. The one operation that may
   * cost more than 50 ms.
   */
  async reviewRound(body: ReviewRequest): Promise<ReviewResponse> {
    return unwrap(await this.raw.POST("/v1/rounds/review", { body }));
  }

  /** A whole match record judged round by round: verdicts, the dealer rotation, scores and decision. */
  async replayMatch(body: MatchReplayRequest): Promise<MatchReplayResponse> {
    return unwrap(await this.raw.POST("/v1/matches/replay", { body }));
  }

  /** What one seat may know of a round, plain or sealed. */
  async viewRound(body: ViewRequest): Promise<ViewResponse> {
    return unwrap(await this.raw.POST("/v1/rounds/view", { body }));
  }

  /** Every legal move of the seat to move, best first, with a score and reasons (docs/strategy.md, "Move hints"). */
  async suggestMoves(body: HintsRequest): Promise<HintsResponse> {
    return unwrap(await this.raw.POST("/v1/hints", { body }));
  }

  // operations

  async getHealth(): Promise<Health> {
    return unwrap(await this.raw.GET("/healthz"));
  }

  /** Ready or not: a 503 is an answer here (`ready: false`), not an error. */
  async getReadiness(): Promise<Health & { ready: boolean }> {
    const { data, error, response } = await this.raw.GET("/readyz");
    if (response.status === 503) return { ...(error as Health), ready: false };
    return { ...unwrap({ data, error, response }), ready: true };
  }

  /** The Prometheus text exposition. */
  async getMetrics(): Promise<string> {
    return unwrap(await this.raw.GET("/metrics", { parseAs: "text" }));
  }

  /**
   * The keys that verify receipts (a JWK Set of Ed25519 keys, the one that signs now first): keep them, and
   * check a receipt offline with `verifyReceipt` (`@chkobba-referee/client/receipts`).
   */
  async getJwks(): Promise<Jwks> {
    return unwrap(await this.raw.GET("/.well-known/jwks.json"));
  }

  /** The contract itself, as YAML text. */
  async getOpenapi(): Promise<string> {
    return unwrap(await this.raw.GET("/openapi.yaml", { parseAs: "text" }));
  }

  /** The contract itself, as JSON: the same document as getOpenapi, parsed. */
  async getOpenapiJson(): Promise<OpenApiDocument> {
    const answer: unknown = unwrap(await this.raw.GET("/openapi.json"));
    if (!isOpenApiDocument(answer)) throw shapeError("getOpenapiJson", "openapi, info or paths");
    return answer;
  }
}

/**
 * A compile-time check: every operation of the generated schema has a method. After `npm run generate`
 * adds an operation, tsc fails here until RefereeClient has a method named by its operationId.
 */
type MissingOperations = Exclude<OperationId, keyof RefereeClient>;
const everyOperationHasAMethod: [MissingOperations] extends [never]
  ? true
  : { "RefereeClient lacks a method for": MissingOperations } = true;

void everyOperationHasAMethod;

export function createRefereeClient(baseUrl: string, options?: Omit<ClientOptions, "baseUrl">): RefereeClient {
  return new RefereeClient(baseUrl, options);
}
