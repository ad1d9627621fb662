"""Every problem code the service answers with, and nothing else: the refusals at the HTTP level
(service/ops/problems.py), then the API's own. The contract's ProblemCode enum and the README's
table of codes are made from this one table, in its order."""

from __future__ import annotations

from service.ops.problems import HTTP_LEVEL_CODES, Code

CODES: dict[str, Code] = {
    **HTTP_LEVEL_CODES,
    # The body is not one unambiguous JSON text (service/api/encoding.py).
    "malformed-json": Code(
        400, "Send one JSON text in UTF-8: no NaN, no lone surrogate, at most 254 levels deep. A client bug."
    ),
    "duplicate-key": Code(400, "An object names a key twice. Send each key once."),
    # The request breaks the contract (the schema) or the rules.
    "validation-error": Code(422, "The body breaks the contract: `errors` names each field. A client bug."),
    "invalid-card": Code(422, "Not a card code. Cards are rank then suit, as 7D or QH."),
    "duplicate-card": Code(
        422,
        "A card is given twice, in one list or in two. Show the player their own "
        "table again; the state the client holds is wrong.",
    ),
    "unknown-profile": Code(422, "Not a profile id: see listRulesets. (getRuleset answers it with 404.)"),
    "invalid-option": Code(422, "The profile has no such option, or not with that value: see getRuleset."),
    "invalid-input": Code(
        422,
        "A value the rules do not allow here (a move of the wrong kind, a seed out of range); `errors` names it. "
        "A client bug.",
    ),
    "no-such-seat": Code(
        422,
        "A seat (a dealer, a viewer, a move's seat) beyond the players at the table: seats run from 0 to players - 1.",
    ),
    "not-in-profile": Code(
        422, "The profile does not take this: that many players (getRuleset's `players`), or a cut (`cut_ritual`)."
    ),
    "bad-state": Code(
        422,
        "The round state breaks the rules: no legal round reaches it. Do not patch states by "
        "hand: send the one the service last answered, or use state tokens.",
    ),
    "inconsistent-counts": Code(422, "The piles or counts cannot come from one round. Check the record you score."),
    "invalid-scores": Code(422, "The match scores cannot be reached. Check the running scores."),
    "match-over": Code(422, "The match was over before this round: start a new match."),
    "inconsistent-record": Code(
        422,
        "The rounds of a match record do not fit together: a round under other rules or players than the "
        "match's, or a round after one that stops before its end. Check the record you replay; `errors` names "
        "the round.",
    ),
    "illegal-move": Code(
        422,
        "Not a legal move. Show the player what the played card may take (`options`, its legal captures; empty: "
        "it can only be laid) and let them choose again. A plain round's problem also has `legal`, what each "
        "card may do; a sealed round's never does (it would show the hand): for the whole hand, call "
        "legalCaptures with the player's view.",
    ),
    "ambiguous-capture": Code(
        422, "The card has several captures: ask the player which (`options`) and send it as `capture`."
    ),
    "card-not-held": Code(422, "The card is not in the hand of the seat to move. Refresh the player's view."),
    "not-your-turn": Code(422, "Another seat is to move. Wait for your turn; refresh the view."),
    "wrong-phase": Code(
        422, "The round does not take this kind of move now (a cut in play, a play before the cut, any move once over)."
    ),
    "clock-running": Code(
        422,
        "The seat's time has not run out: a timeout move is played only after its deadline. Wait for the `deadline` "
        "the last answer gave. (Replaying a record, this is no 422 but a move's verdict in the 200 answer: a move "
        "marked auto before its deadline.)",
    ),
    "turn-expired": Code(
        422,
        'The seat\'s deadline and grace are past: send `{"timeout": true, "seat"}`, which plays the default move '
        "for it. (Replaying a record, this is no 422 but a move's verdict in the 200 answer: a move made after its "
        "deadline and grace.)",
    ),
    "not-the-default-move": Code(
        422,
        "In a record: a move marked as played on timeout that is not the default move there. The record was edited.",
    ),
    "bad-time": Code(
        422,
        "In a record: a move of a clocked round without at_ms, or made before the move before it. Check the record.",
    ),
    "wrong-seed-count": Code(422, "A committed deal takes one seed per seat: fair.seeds must have `players` seeds."),
    "clock-outlasts-token": Code(
        422,
        "A turn clock whose turn and grace, with a minute to send the timeout move, outlast the state token that "
        "carries them: the round could not end. Shorten clock.turn_seconds (the detail gives the longest).",
    ),
    "tampered-state": Code(
        422,
        "The state token (or commitDeal's commit_token) was altered, forged, or sealed with a key this "
        "deployment no longer holds. Deal a new round (after a new commitment), or replay the record.",
    ),
    "expired-state": Code(422, "The state token is older than its lifetime. Deal a new round, or replay the record."),
}
