/**
 * The portable seeded shuffle of docs/seeded-shuffle.md, so that a client
 * deals the same deck from a seed as the service does.
 *
 * Canonical order (suits D H S C, each A 2 3 4 5 6 7 J Q K), then Fisher-Yates for i from 39 down to 1:
 * n = i + 1; draw x, an unsigned 64-bit integer, again while x >= 2^64 - (2^64 mod n); j = x mod n; swap
 * i and j. Draw k (k = 0, 1, ... over the whole shuffle, rejected draws included) is the first 8 bytes,
 * big-endian, of SHA-256 of the UTF-8 text "<seed>:<k>". Index 0 of the result is the top card.
 *
 * Node only (node:crypto); the arithmetic is BigInt throughout, never a 53-bit number.
 */
import { createHash } from "node:crypto";
import type { Card } from "./client.js";

const SUITS = ["D", "H", "S", "C"] as const;
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"] as const;

/** The 40 cards in canonical order: AD 2D ... KD AH ... KC. */
export const CANONICAL_DECK: readonly Card[] = SUITS.flatMap((suit) => RANKS.map((rank) => `${rank}${suit}` as Card));

const SPAN = 1n << 64n;

/** The whole-number seeds the service takes: the signed 64-bit range, -(2^63) to 2^63 - 1. */
export const MIN_INTEGER_SEED = -(1n << 63n);
export const MAX_INTEGER_SEED = (1n << 63n) - 1n;

/**
 * The text a seed is hashed as: a string as it is; a whole number in decimal (`42` and `"42"` deal alike).
 * A number must be a safe integer (JSON numbers beyond 2^53 lose digits: pass a bigint or a string); a
 * bigint must lie from -(2^63) to 2^63 - 1, as the service requires. Beyond that, pass the seed as a string
 * of its digits, which gives the same deck (`"18446744073709551615"`); this throws a RangeError saying so.
 */
export function seedText(seed: string | number | bigint): string {
  if (typeof seed === "string") return seed;
  if (typeof seed === "number") {
    if (!Number.isInteger(seed)) throw new RangeError(`a numeric seed must be a whole number, not ${seed}`);
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(
        `a numeric seed must be a safe integer (beyond 2^53 a number has lost its digits), not ${seed}: ` +
          "pass the seed as a string of its digits (or a bigint), which gives the same deck",
      );
    }
    return BigInt(seed).toString(10);
  }
  if (seed < MIN_INTEGER_SEED || seed > MAX_INTEGER_SEED) {
    throw new RangeError(
      `a whole-number seed must lie from -(2^63) to 2^63 - 1, as the service requires, not ${seed}: ` +
        `pass it as the string "${seed}", which gives the same deck`,
    );
  }
  return seed.toString(10);
}

/** Draw k of a seed's stream: the first 8 bytes, big-endian, of SHA-256("<seed>:<k>"). */
export function draw(text: string, k: number): bigint {
  return createHash("sha256").update(`${text}:${k}`, "utf8").digest().readBigUInt64BE(0);
}

/** The endless stream of draws of a seed, k = 0, 1, 2, ... */
export function* draws(seed: string | number | bigint): Generator<bigint, never> {
  const text = seedText(seed);
  for (let k = 0; ; k++) yield draw(text, k);
}

/** Fisher-Yates from the canonical order with the given draws (each an unsigned 64-bit bigint). */
export function shuffleWithDraws(source: Iterator<bigint>): Card[] {
  const next = (): bigint => {
    const step = source.next();
    if (step.done) throw new Error("the draws ran out");
    return step.value;
  };
  const deck = [...CANONICAL_DECK];
  for (let i = deck.length - 1; i >= 1; i--) {
    const n = BigInt(i + 1);
    const limit = SPAN - (SPAN % n);
    let x = next();
    while (x >= limit) x = next();
    const j = Number(x % n);
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}

/** The deck the seeded shuffle gives, index 0 on top: what dealRound deals from `{"seed": seed}`. */
export function seededDeck(seed: string | number | bigint): Card[] {
  return shuffleWithDraws(draws(seed));
}
