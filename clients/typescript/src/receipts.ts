/**
 * Receipts (docs/referee.md, "Receipts: verdicts anyone can check"): whether the service gave this answer to this
 * request, checked offline with its key set (`GET /.well-known/jwks.json`, `RefereeClient.getJwks()`).
 *
 *   const answer = await referee.decideMatch({ rules: "chkobba", scores: [17, 12], round_points: [5, 1], receipt: true });
 *   await verifyReceipt("decideMatch", request, answer, await referee.getJwks()); // true
 *
 * A receipt is a JWS (RFC 7515) in compact form with a detached payload, `<header>..<signature>`, header
 * `{"alg": "EdDSA", "kid"}`, signed with Ed25519 over the standard signing input of the header and the
 * payload: the RFC 8785 canonical JSON of `{"operation", "request", "answer"}`, the request being the body
 * as sent (`receipt: true` included) and the answer without `receipt`. jose checks the signature (WebCrypto:
 * Node 20+, and browsers with Ed25519), canonicalize writes the JSON.
 */
import canonicalize from "canonicalize";
import { base64url, compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import type { OperationId, RequestOf, ResponseOf, Schemas } from "./client.js";

/** The service's key set, as getJwks answers it. */
export type Jwks = Schemas["Jwks"];
/** One of its keys: an Ed25519 public key (RFC 8037), named by its RFC 7638 thumbprint. */
export type Jwk = Schemas["Jwk"];

/** The operations whose request takes `receipt`: replayRound, scoreRound and decideMatch (the contract says). */
export type ReceiptOperation = {
  [Op in OperationId]: [RequestOf<Op>] extends [never]
    ? never
    : string extends keyof RequestOf<Op> // an empty body (commitDeal's), whose keys are any string and none
      ? never
      : "receipt" extends keyof RequestOf<Op>
        ? Op
        : never;
}[OperationId];

/**
 * Whether `answer.receipt` signs exactly this operation, this request (the body as it was sent: every field,
 * `receipt: true` included) and this answer, with a key of `jwks`. False for anything else: another request or
 * answer, another operation, a key the set lacks, a receipt that carries a payload of its own, no receipt.
 */
export function verifyReceipt<Op extends ReceiptOperation>(
  operation: Op,
  request: RequestOf<Op>,
  answer: ResponseOf<Op>,
  jwks: Jwks | JSONWebKeySet,
): Promise<boolean> {
  return verifyAnyReceipt(operation, request, answer as object, jwks as JSONWebKeySet);
}

// The README's example, as it is there (a test runs both on the same receipts).
export async function verifyAnyReceipt(operation: string, request: unknown, answer: object, jwks: JSONWebKeySet): Promise<boolean> {
  const { receipt, ...signed } = answer as { receipt?: unknown };
  const [header, detached, signature, ...more] = typeof receipt === "string" ? receipt.split(".") : [];
  if (!header || detached !== "" || !signature || more.length > 0) return false; // <header>..<signature>
  const payload = canonicalize({ operation, request, answer: signed });
  try {
    await compactVerify(`${header}.${base64url.encode(payload!)}.${signature}`, createLocalJWKSet(jwks), { algorithms: ["EdDSA"] });
    return true;
  } catch {
    return false;
  }
}
