/**
 * Committed deals (docs/fair-deals.md), so that a client checks a deal without trusting the service: the
 * commitment is SHA-256 of the server seed; the deck is the seeded shuffle of the seed text, the lowercase
 * hex of HMAC-SHA256(key = server seed, message = the RFC 8785 canonical JSON of {commitment, seeds}).
 *
 * Node only (node:crypto), as the seeded shuffle.
 */
import { createHash, createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import type { Card } from "./client.js";
import { seededDeck } from "./shuffle.js";

/** The lowercase hex of SHA-256 of the server seed, given in lowercase hex. */
export function commitmentOf(serverSeedHex: string): string {
  return createHash("sha256").update(Buffer.from(serverSeedHex, "hex")).digest("hex");
}

/** The canonical JSON that the HMAC signs: `{"commitment":...,"seeds":[...]}` (RFC 8785). */
export function seedsMessage(commitment: string, seeds: readonly string[]): string {
  return canonicalize({ commitment, seeds })!;
}

/** The seed text of a committed deal: the seeded shuffle's seed. */
export function fairSeedText(serverSeedHex: string, commitment: string, seeds: readonly string[]): string {
  return createHmac("sha256", Buffer.from(serverSeedHex, "hex")).update(seedsMessage(commitment, seeds), "utf8").digest("hex");
}

/** The deck a committed deal deals, index 0 on top. */
export function fairDeck(serverSeedHex: string, commitment: string, seeds: readonly string[]): Card[] {
  return seededDeck(fairSeedText(serverSeedHex, commitment, seeds));
}

/** A round record's committed deal, as the answer that ends a sealed round gives it. */
export interface FairRecord {
  players: number;
  deck: readonly Card[];
  fair: { commitment: string; seeds: readonly string[]; server_seed: string };
}

/** Whether the record's server seed is the one committed to, and its deck the one the seeds give; else why not. */
export function verifyFairDeal(record: FairRecord): { verified: boolean; reason?: string } {
  const { commitment, seeds, server_seed: serverSeed } = record.fair;
  if (!/^[0-9a-f]{64}$/.test(serverSeed)) return { verified: false, reason: "server_seed is not 32 bytes in lowercase hex" };
  if (commitmentOf(serverSeed) !== commitment) return { verified: false, reason: "SHA-256 of server_seed is not the commitment" };
  if (seeds.length !== record.players) return { verified: false, reason: `${seeds.length} seeds for ${record.players} seats` };
  const expected = fairDeck(serverSeed, commitment, seeds);
  if (record.deck.length !== expected.length) {
    return { verified: false, reason: `the record's deck has ${record.deck.length} cards, not ${expected.length}` };
  }
  const differs = expected.findIndex((card, i) => record.deck[i] !== card);
  if (differs >= 0) return { verified: false, reason: `card ${differs} of the deck is not the one the seeds give` };
  return { verified: true };
}
