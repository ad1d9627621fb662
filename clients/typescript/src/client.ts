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

export type Card = Schemas["Card"];
export type Rules = Schemas["Rules"];
export type Seed = Schemas["Seed"];
export type Problem = Schemas["Problem"];
/** Every problem code of the contract (README, "Problem codes"). */
export type ProblemCode = Problem["code"];
export type Health = Schemas["Health"];
export type RoundState = Schemas["RoundState"];
export type SeatView = Schemas["SeatView"];
export type ScoreLine = Schemas["ScoreLine"];
export type CardMoves = Schemas["CardMoves"];
export type CaptureOption = Schemas["CaptureOption"];
export type Ruleset = Schemas["Ruleset"];

/** The JSON body an operation takes. */
export type RequestOf<Op extends OperationId> =
  NonNullable<operations[Op]["requestBody"]> extends { content: { "application/json": infer Body } } ? Body : never;
/** The JSON body of an operation's 200 answer. */
export type ResponseOf<Op extends OperationId> = operations[Op]["responses"] extends {
  200: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

// The spec says "exactly one of" with oneOf lists that the generated types cannot express; these are
// stricter than the generated ones, and assignable to them.
/** A move: a card (with the table cards it takes, when there is a choice), or in phase cut, a cut. */
export type Move = Schemas["MoveInput"] &
  ({ card: Card; cut?: never } | { cut: NonNullable<Schemas["MoveInput"]["cut"]>; card?: never; capture?: never });
/** A round is carried either as its state, or sealed as a state_token. */
export type RoundRef = { state: RoundState; state_token?: never } | { state_token: string; state?: never };
export type PlayRequest = Omit<RequestOf<"playRound">, "state" | "state_token" | "move"> & RoundRef & { move: Move };
export type ViewRequest = Omit<RequestOf<"viewRound">, "state" | "state_token"> & RoundRef;
export type HintsRequest = Omit<RequestOf<"suggestMoves">, "state" | "state_token"> & RoundRef;

/** dealRound's answer: the state and the deck, or with `sealed: true` a state_token and the views. */
export type PlainDeal = Required<Pick<ResponseOf<"dealRound">, "state" | "deck">>;
export type SealedDeal = Required<Pick<ResponseOf<"dealRound">, "state_token" | "views">>;
type PlayAnswer = Omit<ResponseOf<"playRound">, "state" | "state_token" | "views">;
/** playRound's answer: the next state, or for a state_token the next token and the views. */
export type PlainPlay = PlayAnswer & Required<Pick<ResponseOf<"playRound">, "state">>;
export type SealedPlay = PlayAnswer & Required<Pick<ResponseOf<"playRound">, "state_token" | "views">>;

/**
 * Every problem code of the contract, at run time (for a message table, say): tsc fails here when the
 * spec's Problem.code enum gains or loses a code, until this list follows.
 */
export const PROBLEM_CODES = [
  "malformed-request",
  "forbidden",
  "not-found",
  "method-not-allowed",
  "not-acceptable",
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
  "invalid-scores",
  "match-over",
  "illegal-move",
  "ambiguous-capture",
  "card-not-held",
  "not-your-turn",
  "wrong-phase",
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

  async listRulesets(): Promise<ResponseOf<"listRulesets">> {
    return unwrap(await this.raw.GET("/v1/rulesets"));
  }

  /** One profile; an unknown one throws a ProblemError with status 404, code `unknown-profile`. */
  async getRuleset(profile: string): Promise<ResponseOf<"getRuleset">> {
    return unwrap(await this.raw.GET("/v1/rulesets/{profile}", { params: { path: { profile } } }));
  }

  // adjudication

  async legalCaptures(body: RequestOf<"legalCaptures">): Promise<ResponseOf<"legalCaptures">> {
    return unwrap(await this.raw.POST("/v1/captures", { body }));
  }

  /** One play; an illegal one throws a ProblemError (422 `illegal-move`, `ambiguous-capture`, ...) with `options`. */
  async applyMove(body: RequestOf<"applyMove">): Promise<ResponseOf<"applyMove">> {
    return unwrap(await this.raw.POST("/v1/moves", { body }));
  }

  /** The breakdown; with `claimed`, `valid` and `discrepancies` (a wrong claim is an answer, not an error). */
  async scoreRound(body: RequestOf<"scoreRound">): Promise<ResponseOf<"scoreRound">> {
    return unwrap(await this.raw.POST("/v1/scores", { body }));
  }

  async decideMatch(body: RequestOf<"decideMatch">): Promise<ResponseOf<"decideMatch">> {
    return unwrap(await this.raw.POST("/v1/match-decisions", { body }));
  }

  // rounds

  dealRound(body: RequestOf<"dealRound"> & { sealed: true }): Promise<SealedDeal>;
  dealRound(body: RequestOf<"dealRound"> & { sealed?: false }): Promise<PlainDeal>;
  dealRound(body: RequestOf<"dealRound">): Promise<PlainDeal | SealedDeal>;
  async dealRound(body: RequestOf<"dealRound">): Promise<PlainDeal | SealedDeal> {
    const answer = unwrap(await this.raw.POST("/v1/rounds", { body }));
    if (body.sealed) {
      if (answer.state_token === undefined || answer.views === undefined) throw shapeError("dealRound", "state_token or views");
      return answer as SealedDeal;
    }
    if (answer.state === undefined || answer.deck === undefined) throw shapeError("dealRound", "state or deck");
    return answer as PlainDeal;
  }

  playRound(body: PlayRequest & { state_token: string }): Promise<SealedPlay>;
  playRound(body: PlayRequest & { state: RoundState }): Promise<PlainPlay>;
  playRound(body: PlayRequest): Promise<PlainPlay | SealedPlay>;
  async playRound(body: PlayRequest): Promise<PlainPlay | SealedPlay> {
    const answer = unwrap(await this.raw.POST("/v1/rounds/play", { body }));
    if (body.state_token !== undefined) {
      if (answer.state_token === undefined || answer.views === undefined) throw shapeError("playRound", "state_token or views");
      return answer as SealedPlay;
    }
    if (answer.state === undefined) throw shapeError("playRound", "state");
    return answer as PlainPlay;
  }

  /** A verdict on every move of a record: an illegal move is an answer (`valid: false`), not an error. */
  async replayRound(body: RequestOf<"replayRound">): Promise<ResponseOf<"replayRound">> {
    return unwrap(await this.raw.POST("/v1/rounds/replay", { body }));
  }

  /** What one seat may know of a round, plain or sealed. */
  async viewRound(body: ViewRequest): Promise<ResponseOf<"viewRound">> {
    return unwrap(await this.raw.POST("/v1/rounds/view", { body }));
  }

  /** Every legal move of the seat to move, best first, with a score and reasons (README, "Move hints"). */
  async suggestMoves(body: HintsRequest): Promise<ResponseOf<"suggestMoves">> {
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

  /** The contract itself, as YAML text. */
  async getOpenapi(): Promise<string> {
    return unwrap(await this.raw.GET("/openapi.yaml", { parseAs: "text" }));
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
