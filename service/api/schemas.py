"""Request schemas (loaded with marshmallow) and response schemas (for the contract).

Requests are loaded into rule values here; the rules core then checks what only the rules can
check (duplicates across lists, the invariants of a state). Responses are built by the views as
plain dicts, for speed, and documented by the schemas below; the contract tests check every
response against ``openapi.yaml``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, missing, validate

from service.rules import (
    AUTO_TIMEOUT,
    CATEGORIES,
    DECK,
    MAX_ROUNDS,
    PROFILES,
    CaptureKind,
    Cut,
    Outcome,
    Phase,
    RoundState,
    RulesError,
    SumPolicy,
)
from service.rules import validate as validate_state
from service.rules.captures import HAND_SIZE
from service.rules.clock import DEFAULT_GRACE_SECONDS, MAX_AT_MS, MAX_GRACE_SECONDS, MAX_TURN_SECONDS, MIN_TURN_SECONDS
from service.rules.fair import MAX_SEAT_SEED_CHARS
from service.rules.match import MAX_SCORE
from service.rules.numbers import whole_number
from service.rules.replay import CLAIM_VERDICTS, MAX_MOVES
from service.rules.scoring import MOST_POINTS, TOTALS
from service.rules.sweeps import MAX_SWEEPS
from service.strategy import DEFAULT_LEVEL, LEVELS, REASONS, Shortened

from .codes import CODES
from .fields import (
    BoundedList,
    CardField,
    CardList,
    CodedMessage,
    DeckField,
    MoveField,
    Moves,
    RulesField,
    SeedField,
    coded_error,
)
from .loading import Checked, Loader, Slow
from .render import OPTION_TYPES, SCORED
from .sealed_rounds import MAX_CONTEXT_CHARS
from .sealing import MAX_TOKEN_CHARS

MAX_HAND = HAND_SIZE
MAX_CARDS = len(DECK)
CUTS = [cut.value for cut in Cut]
CAPTURE_KINDS = [kind.value for kind in CaptureKind]
# Every profile's players and sides: the bounds of what the schemas take; the core checks each profile's own.
_PLAYERS = [n for profile in PROFILES.values() for n in profile.players]
_SIDES = [n for profile in PROFILES.values() for n in profile.side_counts()]
MIN_PLAYERS, MAX_PLAYERS = min(_PLAYERS), max(_PLAYERS)
PLAYERS = validate.Range(min=MIN_PLAYERS, max=MAX_PLAYERS)
SIDES = validate.Length(min=min(_SIDES), max=max(_SIDES))
MAX_SIDE = max(_SIDES) - 1
SIDE = validate.Range(min=0, max=MAX_SIDE)
RECEIPT_PATTERN = r"^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$"  # a compact JWS with its payload detached


class StrictInt(fields.Integer):
    """A JSON whole number (``2.0`` included, as JSON Schema counts it): not a boolean, not a string,
    not a fraction."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        number = whole_number(value)
        if number is None:
            raise self.make_error("invalid")
        return number

    quick_type = int  # _deserialize returns a JSON whole number as it is (service/api/loading.py)


class Bool(fields.Boolean):
    """A JSON boolean: not 0 or 1 (which equal False and True in Python), not "true"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value

    quick_type = bool  # _deserialize returns a JSON boolean as it is (service/api/loading.py)


def Cards(*, max_items: int = MAX_CARDS, min_items: int = 0, **kwargs: Any) -> CardList:  # noqa: N802 - a field
    return CardList(min_items=min_items, max_items=max_items, **kwargs)


def Seat(**kwargs: Any) -> StrictInt:  # noqa: N802
    return StrictInt(validate=validate.Range(min=0, max=MAX_PLAYERS - 1), **kwargs)


def Count(most: int, **kwargs: Any) -> StrictInt:  # noqa: N802
    return StrictInt(validate=validate.Range(min=0, max=most), **kwargs)


def Point(**kwargs: Any) -> StrictInt:  # noqa: N802 - a category's points in a round: 0 or 1
    return Count(1, **kwargs)


def ReceiptAsked() -> Bool:  # noqa: N802 - a field
    """``receipt`` in the request of an operation that offers receipts (service/api/receipts.py)."""
    return Bool(
        load_default=False,
        metadata={
            "description": "Add `receipt` to the answer: a signature, which anyone can check offline with "
            "`/.well-known/jwks.json`, over this operation, this request as sent (`receipt` included) and the "
            'answer (docs/referee.md, "Receipts: verdicts anyone can check"). A problem carries none.'
        },
    )


def Receipt() -> fields.String:  # noqa: N802 - a field
    """``receipt`` in the answer of an operation that offers receipts."""
    return fields.String(
        validate=validate.Regexp(RECEIPT_PATTERN),
        metadata={
            "description": "With `receipt: true` only. A JWS (RFC 7515) in compact form with a detached payload, "
            '`<header>..<signature>`: the header is `{"alg": "EdDSA", "kid"}`, `kid` names a key of '
            "`/.well-known/jwks.json` (its RFC 7638 thumbprint), and the Ed25519 signature covers the standard "
            "signing input of the header and the payload, the RFC 8785 canonical JSON of "
            '`{"operation": <this operationId>, "request": <the request body as sent>, "answer": <this answer '
            "without receipt>}`."
        },
    )


Variants = dict[str, tuple[str, tuple[str, ...]]]


class OneOfFields(Checked):
    """A schema that takes exactly one of the fields named in ``variants``.

    The contract names each variant, ``{field: (component name, the fields that only it takes)}``,
    and documents the schema as a ``oneOf`` of them, so that generated clients get a type for each.
    """

    variants: ClassVar[Variants] = {}
    checks: ClassVar[tuple[str, ...]] = ("exactly_one",)

    def exactly_one(self, data: dict[str, Any]) -> None:
        exclusive = tuple(self.variants)
        given = [name for name in exclusive if data.get(name) is not None]
        if len(given) != 1:
            where = given[1] if given else exclusive[0]  # the field a client has to fix
            raise ValidationError(f"give exactly one of {', '.join(exclusive)}", where)


# ---- requests ------------------------------------------------------------------------------------


class CapturesRequest(Checked):
    rules = RulesField(required=True)
    table = Cards(required=True, max_items=MAX_CARDS - 1, metadata={"description": "Table cards, in table order."})
    hand = Cards(required=True, min_items=1, max_items=MAX_HAND)
    last_play = Bool(load_default=False, metadata={"description": "The last play of the round never sweeps."})


class PlayInput(Checked):
    card = CardField(required=True)
    capture = Cards(
        max_items=MAX_CARDS - 1,
        allow_none=True,
        metadata={"description": "Table cards taken, as a set; omit only when at most one option exists."},
    )


class MoveRequest(Checked):
    rules = RulesField(required=True)
    table = Cards(required=True, max_items=MAX_CARDS - 1)
    hand = Cards(required=True, min_items=1, max_items=MAX_HAND)
    play = fields.Nested(PlayInput, required=True)
    last_play = Bool(load_default=False)


SEVENS_COUNT = (
    "Needed only where the profile scores the sevens (chkobba, the most sixes breaking a tie: getRuleset's "
    "`categories`); elsewhere it may be left out, and is checked when given. Give both or neither."
)


class CountsInput(Checked):
    cards = Count(TOTALS["cards"], required=True)
    diamonds = Count(TOTALS["diamonds"], required=True)
    sevens = Count(TOTALS["sevens"], metadata={"description": SEVENS_COUNT})
    sixes = Count(TOTALS["sixes"], metadata={"description": SEVENS_COUNT})
    seven_of_diamonds = Bool(required=True)

    checks = ("sevens_with_sixes",)
    contract = {
        "description": "A side's counts. `sevens` and `sixes` go together: give both or neither.",
        "dependentRequired": {"sevens": ["sixes"], "sixes": ["sevens"]},
    }

    def sevens_with_sixes(self, data: dict[str, Any]) -> None:
        if ("sevens" in data) != ("sixes" in data):
            raise ValidationError(
                "give sevens and sixes together, or neither", "sixes" if "sevens" in data else "sevens"
            )


class SideInput(OneOfFields):
    variants = {"captured": ("SideWithPile", ()), "counts": ("SideWithCounts", ())}
    captured = Cards(metadata={"description": "The side's pile: every card it captured."})
    counts = fields.Nested(CountsInput)
    sweeps = Count(MAX_SWEEPS, required=True)


class ScoreLine(Checked):
    side = Count(MAX_SIDE, required=True)
    cards = Point(required=True)
    diamonds = Point(required=True)
    sevens = Point(required=True)
    seven_of_diamonds = Point(required=True)
    sweeps = Count(MAX_SWEEPS, required=True)
    primiera = Point(required=True)
    total = Count(MOST_POINTS, required=True)


class ScoreRequest(Checked):
    rules = RulesField(required=True)
    sides = BoundedList(fields.Nested(SideInput), required=True, validate=SIDES)
    last_capturer = StrictInt(validate=SIDE, allow_none=True)
    claimed = BoundedList(fields.Nested(ScoreLine), validate=SIDES)
    receipt = ReceiptAsked()


class DecisionClaim(Checked):
    outcome = fields.String(required=True, validate=validate.OneOf([o.value for o in Outcome]))
    winner = StrictInt(required=True, allow_none=True, validate=SIDE)


class MatchRequest(Checked):
    rules = RulesField(required=True)
    scores = BoundedList(Count(MAX_SCORE), required=True, validate=SIDES)
    round_points = BoundedList(Count(MOST_POINTS), required=True, validate=SIDES)
    claimed = fields.Nested(DecisionClaim)
    receipt = ReceiptAsked()


VIEWER = {"description": "Sealed answers only: give this seat's view alone, for a client that plays that seat."}


class ClockInput(Checked):
    turn_seconds = StrictInt(
        required=True,
        validate=validate.Range(min=MIN_TURN_SECONDS, max=MAX_TURN_SECONDS),
        metadata={"description": "Seconds each seat has for its move, from the move before it (the deal, first)."},
    )
    grace_seconds = StrictInt(
        load_default=DEFAULT_GRACE_SECONDS,
        validate=validate.Range(min=0, max=MAX_GRACE_SECONDS),
        metadata={
            "description": "Seconds after the deadline in which the seat's move is still taken (a network's lag); "
            f"{DEFAULT_GRACE_SECONDS} by default."
        },
    )


class FairInput(Checked):
    commit_token = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_TOKEN_CHARS),
        metadata={"description": "commitDeal's `commit_token`, whose commitment the players were shown."},
    )
    seeds = BoundedList(
        fields.String(validate=validate.Length(min=1, max=MAX_SEAT_SEED_CHARS)),
        required=True,
        validate=validate.Length(min=MIN_PLAYERS, max=MAX_PLAYERS),
        metadata={
            "description": f"One seed per seat, seat 0 first, each 1 to {MAX_SEAT_SEED_CHARS} characters: as many as "
            "`players` (else `wrong-seed-count`). Collect them so that no seat sees another's before it gives its "
            "own (docs/fair-deals.md)."
        },
    )


CONTEXT = (
    f"A string of at most {MAX_CONTEXT_CHARS} characters (a table's id, say) that the token is bound to: every "
    "later call with the token must send the same `context`, else it is refused as `tampered-state`."
)


class DealRequest(Checked):
    rules = RulesField(required=True)
    players = StrictInt(required=True, validate=PLAYERS)
    dealer = Seat(required=True)
    deck = DeckField(metadata={"description": "The deck after shuffling and cutting, top first. Not with `seed`."})
    seed = SeedField()
    cut = fields.String(validate=validate.OneOf(CUTS), metadata={"description": "chkobba only."})
    sealed = Bool(
        load_default=False,
        metadata={"description": "Answer with an opaque state_token and one view per seat instead of the state."},
    )
    viewer = Seat(metadata={"description": f"{VIEWER['description']} With `sealed: true` only."})
    context = fields.String(
        validate=validate.Length(min=1, max=MAX_CONTEXT_CHARS),
        metadata={"description": f"With `sealed: true` only. {CONTEXT}"},
    )
    clock = fields.Nested(
        ClockInput,
        metadata={
            "description": "With `sealed: true` only: a turn clock, carried in the token. Every answer then gives "
            "the `deadline` of the seat to move; after it, playRound takes `{timeout: true, seat}`, which plays the "
            "default move for that seat, and refuses any other move once the grace is over (`turn-expired`); every "
            'move of the record carries `at_ms` (docs/integrator.md, "A turn clock").'
        },
    )
    fair = fields.Nested(
        FairInput,
        metadata={
            "description": "With `sealed: true` only, and neither `deck` nor `seed`: a committed deal. The deck is "
            "the seeded shuffle of the seed text HMAC-SHA256(server seed of `commit_token`, the RFC 8785 JSON of "
            "{commitment, seeds}), in lowercase hex; the answer that ends the round reveals the server seed in "
            "`record.fair` (docs/fair-deals.md)."
        },
    )

    checks = ("deck_or_seed",)
    contract = {
        "description": "A deal. At most one of `deck`, `seed` and `fair` (`deck` with `seed`, `fair` with `deck`, and "
        "`fair` with `seed` are each refused); `viewer`, `context`, `clock` and `fair` each need `sealed` to be "
        "`true`. Checked by the service: most client generators drop these rules, written below as `not` and "
        "`dependentSchemas`.",
        "allOf": [{"not": {"required": pair}} for pair in (["deck", "seed"], ["fair", "deck"], ["fair", "seed"])],
        "dependentSchemas": {
            name: {"properties": {"sealed": {"const": True}}, "required": ["sealed"]}
            for name in ("viewer", "context", "clock", "fair")
        },
    }

    def deck_or_seed(self, data: dict[str, Any]) -> None:
        if data.get("deck") is not None and data.get("seed") is not None:
            raise ValidationError("give a deck or a seed, not both", "seed")
        for name in ("viewer", "context", "clock", "fair"):
            if name in data and not data["sealed"]:
                raise ValidationError(f"{name} goes with sealed: true", name)
        if "fair" in data:
            for given in ("deck", "seed"):
                if data.get(given) is not None:
                    raise ValidationError(f"a committed deal (fair) is dealt from its seeds: give no {given}", given)


class MoveInput(OneOfFields):
    variants = {"card": ("PlayMove", ("capture",)), "cut": ("CutMove", ()), "timeout": ("TimeoutMove", ())}
    variant_required: ClassVar[dict[str, tuple[str, ...]]] = {"TimeoutMove": ("seat",)}
    card = CardField()
    capture = Cards(max_items=MAX_CARDS - 1, allow_none=True)
    cut = fields.String(validate=validate.OneOf(CUTS))
    timeout = Bool(
        validate=validate.Equal(True),
        metadata={
            "description": "`true`, with `seat`, the seat to move, in a clocked sealed round once its deadline has "
            "passed: the service plays the default move for it (the top club-level hint), marked `auto: timeout`. "
            "Before the deadline: `clock-running`."
        },
    )
    seat = Seat(metadata={"description": "When given, must be the seat whose turn it is; the timeout move needs it."})


class RecordMoveInput(OneOfFields):
    """A move of a round record (documented only: the core parses records, service/api/fields.py
    ``Moves``): a play or a cut, with its time in a clocked round. A record shows what was played,
    on timeout or not: no timeout move."""

    variants = {"card": ("RecordPlayMove", ("capture",)), "cut": ("RecordCutMove", ())}
    card = CardField()
    capture = Cards(max_items=MAX_CARDS - 1, allow_none=True)
    cut = fields.String(validate=validate.OneOf(CUTS))
    seat = Seat(metadata={"description": "When given, must be the seat whose turn it is."})
    at_ms = StrictInt(
        validate=validate.Range(min=0, max=MAX_AT_MS),
        metadata={
            "description": "When the move was made, in milliseconds since the deal: on every move of a clocked round."
        },
    )
    auto = fields.String(
        validate=validate.OneOf([AUTO_TIMEOUT]),
        metadata={
            "description": "`timeout`: the service played it for the seat whose time had run out (the default move)."
        },
    )


class RoundStateSchema(Checked):
    rules = RulesField(required=True)
    players = StrictInt(required=True, validate=PLAYERS)
    dealer = Seat(required=True)
    phase = fields.String(required=True, validate=validate.OneOf([p.value for p in Phase]))
    turn = Seat(required=True, allow_none=True)
    # Hand sizes are docs/rules.md §9 matters: the core answers them as bad-state, naming the hand.
    hands = BoundedList(Cards(), required=True, validate=validate.Length(min=MIN_PLAYERS, max=MAX_PLAYERS))
    table = Cards(required=True)
    stock = Cards(required=True)
    piles = BoundedList(Cards(), required=True, validate=SIDES)
    sweeps = BoundedList(Count(MAX_SWEEPS), required=True, validate=SIDES)
    last_capturer = StrictInt(required=True, allow_none=True, validate=SIDE)


class StateField(fields.Nested):
    """A plain round state in a request: its form loaded by ``RoundStateSchema`` (its cards parsed
    there), then built and checked by the rules core (``validate``), once, here: the view takes the
    ``RoundState`` as it is. A state the rules refuse is an error of this field, at the path the core
    names (``state.sweeps.0``), with the core's code."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(RoundStateSchema, **kwargs)

    def _deserialize(  # type: ignore[override]  # a RoundState, not the dict the schema loads
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> RoundState:
        try:
            return _checked_state(super()._deserialize(value, attr, data, **kwargs))
        except RulesError as exc:
            raise coded_error(exc) from None

    def quick_load(self, value: Any) -> Any:
        """``_deserialize`` for a state that loads and that the rules accept; ``missing`` otherwise,
        for ``_deserialize`` to say what is wrong (service/api/loading.py)."""
        if type(value) is not dict:
            return missing
        try:
            return _checked_state(_STATE_LOADER.quick(value))
        except (Slow, ValidationError, RulesError):
            return missing


def _checked_state(loaded: dict[str, Any]) -> RoundState:
    state = RoundState(
        loaded["rules"],
        loaded["players"],
        loaded["dealer"],
        Phase(loaded["phase"]),
        loaded["turn"],
        tuple(loaded["hands"]),
        loaded["table"],
        loaded["stock"],
        tuple(loaded["piles"]),
        tuple(loaded["sweeps"]),
        loaded["last_capturer"],
    )
    validate_state(state)
    return state


_STATE_LOADER = Loader(RoundStateSchema())


TOKEN = {"description": "A sealed round state, as dealRound or playRound gave it with sealed: true."}


def TokenContext() -> fields.String:  # noqa: N802 - a field
    """``context`` beside a ``state_token``: the one the round was dealt with."""
    return fields.String(
        validate=validate.Length(min=1, max=MAX_CONTEXT_CHARS),
        metadata={
            "description": "With `state_token`: the `context` the round was dealt with, if any (else `tampered-state`)."
        },
    )


class WithToken(OneOfFields):
    """A request that takes a plain ``state`` or a ``state_token``, and the token's ``context``."""

    def context_with_token(self, data: dict[str, Any]) -> None:
        if "context" in data and "state_token" not in data:
            raise ValidationError("context goes with state_token", "context")


class PlayRequest(WithToken):
    variants = {"state": ("PlainPlayRequest", ()), "state_token": ("SealedPlayRequest", ("viewer", "context"))}
    state = StateField()
    state_token = fields.String(validate=validate.Length(min=1, max=MAX_TOKEN_CHARS), metadata=TOKEN)
    move = MoveField(required=True)
    viewer = Seat(metadata=VIEWER)
    context = TokenContext()

    checks = ("exactly_one", "viewer_with_token", "context_with_token")

    def viewer_with_token(self, data: dict[str, Any]) -> None:
        if "viewer" in data and "state_token" not in data:
            raise ValidationError("viewer goes with state_token", "viewer")


class ViewRequest(WithToken):
    variants = {"state": ("PlainViewRequest", ()), "state_token": ("SealedViewRequest", ("context",))}
    state = StateField()
    state_token = fields.String(validate=validate.Length(min=1, max=MAX_TOKEN_CHARS), metadata=TOKEN)
    seat = Seat(metadata={"description": "The seat whose view is asked for; leave it out for a spectator's view."})
    context = TokenContext()

    checks = ("exactly_one", "context_with_token")


# RFC 3339's date-time (JSON Schema's "date-time" format): a date, "T", a time, a zone.
RFC_3339 = re.compile(
    r"^\d{4}-(0[1-9]|1[0-2])-\d{2}T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$",
    re.IGNORECASE,
)


def rfc3339_date_time(text: str) -> None:
    """Refuse what is not an RFC 3339 date-time of a day that exists (a leap second allowed)."""
    if not RFC_3339.match(text):
        raise ValidationError("Not an RFC 3339 date-time.")
    try:
        datetime.date.fromisoformat(text[:10])
    except ValueError:
        raise ValidationError("Not an RFC 3339 date-time: no such day.") from None


class RecordClock(Checked):
    turn_seconds = StrictInt(required=True, validate=validate.Range(min=MIN_TURN_SECONDS, max=MAX_TURN_SECONDS))
    grace_seconds = StrictInt(load_default=DEFAULT_GRACE_SECONDS, validate=validate.Range(min=0, max=MAX_GRACE_SECONDS))
    dealt_at = fields.String(
        validate=[validate.Length(max=40), rfc3339_date_time],
        metadata={"format": "date-time", "description": "When the round was dealt, by the service's clock (UTC)."},
    )


HEX_64 = r"^[0-9a-f]{64}$"


class RecordFair(Checked):
    commitment = fields.String(
        required=True,
        validate=validate.Regexp(HEX_64),
        metadata={"description": "SHA-256 of the server seed, lowercase hex: commitDeal's `commitment`."},
    )
    seeds = BoundedList(
        fields.String(validate=validate.Length(min=1, max=MAX_SEAT_SEED_CHARS)),
        required=True,
        validate=validate.Length(min=MIN_PLAYERS, max=MAX_PLAYERS),
        metadata={"description": "The seats' seeds, seat 0 first."},
    )
    server_seed = fields.String(
        required=True, validate=validate.Regexp(HEX_64), metadata={"description": "The server seed, lowercase hex."}
    )


class RoundRecord(Checked):
    """A round of a match record: a replayRound body whose rules and players may be left out."""

    rules = RulesField(metadata={"description": "The match's rules, if given: a round never changes them."})
    players = StrictInt(
        validate=PLAYERS,
        metadata={"description": "The match's players, if given: a round never changes them."},
    )
    dealer = Seat(
        metadata={
            "description": "Who dealt this round; checked against the rotation (docs/rules.md §2.4), and the round "
            "replayed as dealt. Left out: the seat the rotation names."
        }
    )
    deck = DeckField(required=True)
    cut = fields.String(validate=validate.OneOf(CUTS))
    moves = Moves(required=True, max_items=MAX_MOVES)
    claimed = BoundedList(fields.Nested(ScoreLine), validate=SIDES)
    clock = fields.Nested(
        RecordClock,
        metadata={
            "description": "A clocked round's clock, as its record gives it: every move then has `at_ms`, each is "
            "judged against its deadline, and a move marked `auto` must be the default move (docs/rules.md §10.25)."
        },
    )
    fair = fields.Nested(
        RecordFair,
        metadata={
            "description": "A committed deal, server seed revealed: the answer adds `fair_deal`, whether the seed is "
            "the one committed to and the deck the one it and the seeds give (docs/rules.md §10.26)."
        },
    )


class RecordRequest(RoundRecord):
    rules = RulesField(required=True)
    players = StrictInt(required=True, validate=PLAYERS)
    dealer = Seat(required=True)


class ReplayRequest(RecordRequest):
    receipt = ReceiptAsked()


class ReviewRequest(RecordRequest):
    """A replayRound body but for ``receipt``: a review is an opinion of the strategy's, not a verdict
    of the rules, and the service signs verdicts only."""


class MatchClaim(DecisionClaim):
    scores = BoundedList(
        Count(MAX_SCORE), validate=SIDES, metadata={"description": "The final scores, per side (optional)."}
    )


class MatchReplayRequest(Checked):
    rules = RulesField(required=True)
    players = StrictInt(required=True, validate=PLAYERS)
    dealer = Seat(required=True, metadata={"description": "The first dealer: who deals round 0."})
    rounds = BoundedList(
        fields.Nested(RoundRecord),
        required=True,
        validate=validate.Length(min=1, max=MAX_ROUNDS),
        metadata={
            "description": f"The rounds in order, void deals included: at most {MAX_ROUNDS} (docs/rules.md §10.23)."
        },
    )
    claimed = fields.Nested(MatchClaim, metadata={"description": "The claimed final result of the match."})
    receipt = ReceiptAsked()


# ---- responses (documentation; the views build them as plain dicts) ------------------------------


class CaptureOptionOut(Schema):
    capture = fields.List(CardField(), required=True)
    sweep = fields.Boolean(required=True)


HUGE_CAPTURES = (
    "Can be long on a bare table (legalCaptures, applyMove): a card worth 10 on the largest (36 cards, none "
    "worth 10) has 1,698 options, about 83 KB of JSON. A round's table is bounded (docs/rules.md §10.20), and "
    'a card has at most 56 options there, about 3 KB (docs/performance.md, "What each operation costs at worst").'
)
ROUND_CAPTURES = (
    "A round's table is bounded (docs/rules.md §10.20): a card has at most 56 options there, about 3 KB of JSON "
    '(docs/performance.md, "What each operation costs at worst").'
)


class CardMovesOut(Schema):
    card = CardField(required=True)
    value = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(CAPTURE_KINDS))
    options = fields.List(
        fields.Nested(CaptureOptionOut),
        required=True,
        metadata={"description": f"Every legal capture. {HUGE_CAPTURES}"},
    )


class CapturesResponse(Schema):
    moves = fields.List(fields.Nested(CardMovesOut), required=True)


class MoveResponse(Schema):
    card = CardField(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(CAPTURE_KINDS))
    captured = fields.List(CardField(), required=True, metadata={"description": "The played card and the cards taken."})
    taken = fields.List(CardField(), required=True)
    sweep = fields.Boolean(required=True)
    table = fields.List(CardField(), required=True)
    hand = fields.List(CardField(), required=True)


class ScoreDiscrepancy(Schema):
    side = fields.Integer(required=True)
    category = fields.String(required=True, validate=validate.OneOf([*CATEGORIES, "total"]))
    claimed = fields.Integer(required=True)
    expected = fields.Integer(required=True)


class ScoreResponse(Schema):
    breakdown = fields.List(fields.Nested(ScoreLine), required=True)
    valid = fields.Boolean(metadata={"description": "Present with a claim: whether it equals the breakdown."})
    discrepancies = fields.List(fields.Nested(ScoreDiscrepancy))
    receipt = Receipt()


class DecisionDiscrepancyOut(Schema):
    field = fields.String(required=True, validate=validate.OneOf(["outcome", "winner"]))
    claimed = fields.Raw(required=True, allow_none=True, metadata={"type": ["string", "integer"]})
    expected = fields.Raw(required=True, allow_none=True, metadata={"type": ["string", "integer"]})


class MatchResponse(Schema):
    scores = fields.List(fields.Integer(), required=True)
    outcome = fields.String(required=True, validate=validate.OneOf([o.value for o in Outcome]))
    winner = fields.Integer(required=True, allow_none=True)
    target = fields.Integer(required=True, allow_none=True)
    valid = fields.Boolean()
    discrepancies = fields.List(fields.Nested(DecisionDiscrepancyOut))
    receipt = Receipt()


class SpectatorViewOut(Schema):
    rules = RulesField(required=True)
    players = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    phase = fields.String(required=True, validate=validate.OneOf([p.value for p in Phase]))
    turn = fields.Integer(required=True, allow_none=True)
    hand_sizes = fields.List(fields.Integer(), required=True, metadata={"description": "Cards in each seat's hand."})
    table = fields.List(CardField(), required=True)
    stock_size = fields.Integer(required=True, metadata={"description": "Cards left in the stock (not which)."})
    piles = fields.List(fields.List(CardField()), required=True, metadata={"description": "Captured in the open."})
    sweeps = fields.List(fields.Integer(), required=True)
    last_capturer = fields.Integer(required=True, allow_none=True)


class SeatViewOut(SpectatorViewOut):
    seat = fields.Integer(required=True)
    side = fields.Integer(required=True)
    hand = fields.List(CardField(), required=True, metadata={"description": "This seat's hand, and no other."})
    cut_card = CardField(metadata={"description": "Phase cut, the cutter's view only: the card drawn."})


SEALED = "With sealed: true, instead of state."
RECORD = (
    "A sealed round's record, once the round has ended (phase over, or redeal for a void deal) and only then: "
    "the deck as dealt, the cut given with the deal, and every move with its seat and the cards it took, as "
    "replayRound (and a round of replayMatch) takes it."
)


SEALED_ONLY = ("views", "record", "round_id", "seq", "clock", "record_receipt")


class ClockOut(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat to move, whose deadline this is."})
    deadline = fields.String(
        required=True,
        metadata={
            "format": "date-time",
            "description": "When its time runs out: RFC 3339, UTC, with milliseconds (the service's clock). Its move "
            "is still taken for `grace_seconds` after it; from it on, `{timeout: true, seat}` plays the default move.",
            "example": "2026-12-02T07:40:05.123Z",
        },
    )


ROUND_ID = {
    "description": "Sealed: the round's id, drawn at the deal, the same for every token of the round (opaque). With "
    "`seq`, what a game server compares to refuse a stale token (docs/integrator.md)."
}
SEQ = {"description": "Sealed: the moves made so far, the cut included: 0 after the deal, one more after each move."}
RECORD_RECEIPT = {
    "description": "With `record` only: a detached compact JWS, as a receipt, whose payload is the RFC 8785 canonical "
    'JSON of `{"operation": "playRound", "record": <record>}`, signed with a key of `/.well-known/jwks.json`: the '
    "record as the service made it, so that any edit shows (docs/referee.md)."
}


def _sealed_fields() -> dict[str, fields.Field]:  # type: ignore[type-arg]
    """What every sealed answer carries beside its token (SEALED_ONLY)."""
    return {
        "round_id": fields.String(required=True, metadata=ROUND_ID),
        "seq": fields.Integer(required=True, metadata=SEQ),
        "clock": fields.Nested(
            ClockOut, metadata={"description": "A clocked round's, while a seat is to move: that seat's deadline."}
        ),
        "record_receipt": fields.String(validate=validate.Regexp(RECEIPT_PATTERN), metadata=RECORD_RECEIPT),
    }


class DealResponse(Schema.from_dict(_sealed_fields())):  # type: ignore[misc]
    variants: ClassVar[Variants] = {
        "state": ("PlainDeal", ("deck",)),
        "state_token": ("SealedDeal", SEALED_ONLY),
    }
    state = fields.Nested(RoundStateSchema, required=True, metadata={"description": "Without sealed."})
    deck = fields.List(
        CardField(),
        required=True,
        metadata={"description": "The deck dealt, top first; never with sealed, as it reveals every card."},
    )
    state_token = fields.String(required=True, metadata={"description": SEALED})
    views = fields.List(
        fields.Nested(SeatViewOut), required=True, metadata={"description": "With sealed: one view per seat."}
    )
    record = fields.Nested(ReplayRequest, metadata={"description": RECORD})


class ViewResponse(Schema):
    variants: ClassVar[Variants] = {"view": ("SeatViewAnswer", ()), "spectator": ("SpectatorViewAnswer", ())}
    view = fields.Nested(SeatViewOut, metadata={"description": "With a seat: that seat's view."})
    spectator = fields.Nested(
        SpectatorViewOut, metadata={"description": "Without a seat: what everyone at the table sees, no hand at all."}
    )
    clock = fields.Nested(
        ClockOut,
        metadata={
            "description": "With a clocked round's token, while a seat is to move: that seat's deadline, as the "
            "answer of the last move gave it (so a player who comes back learns it)."
        },
    )


class RoundEventOut(Schema):
    seat = fields.Integer(required=True)
    card = CardField()
    cut = fields.String(validate=validate.OneOf(CUTS))
    kind = fields.String(validate=validate.OneOf(CAPTURE_KINDS))
    captured = fields.List(CardField())
    sweep = fields.Boolean()
    dealt = fields.Boolean(
        required=True,
        metadata={"description": "Each seat received 3 cards: the cut dealt the hands, or every hand was empty."},
    )
    collected = fields.List(
        CardField(), required=True, metadata={"description": "End of round: the rest of the table."}
    )
    redeal = fields.Boolean(required=True)
    at_ms = fields.Integer(metadata={"description": "A clocked round's: when the move was made, ms since the deal."})
    auto = fields.String(
        validate=validate.OneOf([AUTO_TIMEOUT]),
        metadata={"description": "`timeout`: the default move, played for the seat whose time ran out."},
    )


class PlayResponse(Schema.from_dict(_sealed_fields())):  # type: ignore[misc]
    variants: ClassVar[Variants] = {
        "state": ("PlainPlayResponse", ()),
        "state_token": ("SealedPlayResponse", SEALED_ONLY),
    }
    state = fields.Nested(
        RoundStateSchema, required=True, metadata={"description": "When the request gave a plain state."}
    )
    state_token = fields.String(required=True, metadata={"description": "When the request gave a state_token."})
    views = fields.List(
        fields.Nested(SeatViewOut), required=True, metadata={"description": "With a state_token: one per seat."}
    )
    record = fields.Nested(ReplayRequest, metadata={"description": RECORD})
    event = fields.Nested(RoundEventOut, required=True)
    breakdown = fields.List(fields.Nested(ScoreLine), allow_none=True, required=True)
    next_dealer = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Once over: who deals next (the dealer's right). After a redeal: the same dealer."},
    )


class MoveVerdictOut(Schema):
    index = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    card = CardField()
    cut = fields.String(validate=validate.OneOf(CUTS))
    verdict = fields.String(required=True, validate=validate.OneOf(["legal", "illegal"]))
    code = fields.String(
        validate=validate.OneOf(list(CODES)), metadata={"description": "When illegal: the problem code of the refusal."}
    )
    reason = fields.String()
    captured = fields.List(CardField(), required=True)
    sweep = fields.Boolean(required=True)
    legal = fields.List(
        fields.Nested(CardMovesOut),
        metadata={"description": f"When illegal: what the seat could play, every capture option. {ROUND_CAPTURES}"},
    )
    legal_cuts = fields.List(
        fields.String(validate=validate.OneOf(CUTS)),
        metadata={"description": "When illegal in phase cut: keep, table."},
    )
    at_ms = fields.Integer(metadata={"description": "The record's, when the move gives it."})
    auto = fields.String(validate=validate.OneOf([AUTO_TIMEOUT]), metadata={"description": "The record's, if any."})


def claim_verdict(name: str, meaning: str, discrepancy: type[Schema]) -> type[Schema]:
    """The schema of a verdict on a claim (docs/rules.md §10.14), a round's or a match's: ``meaning``
    says what right, wrong and cannot-be-judged mean for it, and ``discrepancy`` is the schema of what
    a wrong claim gets wrong."""
    return Schema.from_dict(
        {
            "verdict": fields.String(
                required=True, validate=validate.OneOf(CLAIM_VERDICTS), metadata={"description": meaning}
            ),
            "valid": fields.Boolean(
                required=True,
                allow_none=True,
                metadata={"description": "verdict is right; null when it cannot be judged."},
            ),
            "reason": fields.String(metadata={"description": "Why the claim cannot be judged."}),
            "discrepancies": fields.List(fields.Nested(discrepancy), required=True),
        },
        name=name,
    )


ClaimVerdict = claim_verdict(
    "ClaimVerdict",
    "right: the claim equals the breakdown; wrong: it differs (see discrepancies); cannot-be-judged: the record "
    "stops before the end of the round, or the deal is void, so there is no breakdown to compare with (see reason).",
    ScoreDiscrepancy,
)


class ReplayResponse(Schema):
    valid = fields.Boolean(required=True, metadata={"description": "Every move of the record is legal."})
    complete = fields.Boolean(required=True, metadata={"description": "The record reaches the end of the round."})
    first_illegal = fields.Integer(required=True, allow_none=True)
    moves = fields.List(fields.Nested(MoveVerdictOut), required=True)
    state = fields.Nested(RoundStateSchema, required=True)
    breakdown = fields.List(fields.Nested(ScoreLine), required=True, allow_none=True)
    next_dealer = fields.Integer(required=True, allow_none=True, metadata={"description": "As in playRound."})
    claim = fields.Nested(ClaimVerdict)
    fair_deal = fields.String(
        validate=validate.OneOf(["verified", "mismatch"]),
        metadata={
            "description": "With the record's `fair`: `verified` when SHA-256 of the server seed is the commitment and "
            "the deck is the one the server seed and the seeds give; else `mismatch` (see `fair_deal_reason`)."
        },
    )
    fair_deal_reason = fields.String(metadata={"description": "Why the committed deal does not check."})
    receipt = Receipt()


class DealerCheckOut(Schema):
    expected = fields.Integer(
        required=True,
        metadata={
            "description": "Who should deal: the first dealer, then the dealer's right after a round, the same "
            "dealer after a void deal (docs/rules.md §2.4, §3.4)."
        },
    )
    given = fields.Integer(required=True, metadata={"description": "Who dealt: the round's `dealer`, else expected."})
    valid = fields.Boolean(required=True)


class RoundDecisionOut(Schema):
    outcome = fields.String(required=True, validate=validate.OneOf([o.value for o in Outcome]))
    winner = fields.Integer(required=True, allow_none=True)


class MatchRoundOut(Schema):
    index = fields.Integer(required=True)
    dealer = fields.Nested(DealerCheckOut, required=True)
    void = fields.Boolean(
        required=True,
        metadata={
            "description": "The deal is void (docs/rules.md §3.4): it scores nothing, and its dealer deals again."
        },
    )
    valid = fields.Boolean(required=True, metadata={"description": "Every move is legal and the right seat dealt."})
    complete = fields.Boolean(
        required=True, metadata={"description": "The record reaches the end of the round, or of its void deal."}
    )
    first_illegal = fields.Integer(required=True, allow_none=True)
    moves = fields.List(fields.Nested(MoveVerdictOut), required=True, metadata={"description": "As in replayRound."})
    breakdown = fields.List(fields.Nested(ScoreLine), required=True, allow_none=True)
    claim = fields.Nested(ClaimVerdict, metadata={"description": "With the round's `claimed`: as in replayRound."})
    fair_deal = fields.String(
        validate=validate.OneOf(["verified", "mismatch"]),
        metadata={
            "description": "With the record's `fair`: `verified` when SHA-256 of the server seed is the commitment and "
            "the deck is the one the server seed and the seeds give; else `mismatch` (see `fair_deal_reason`)."
        },
    )
    fair_deal_reason = fields.String(metadata={"description": "Why the committed deal does not check."})
    scores = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The match scores after the round: unchanged unless it is complete (not void)."},
    )
    decision = fields.Nested(
        RoundDecisionOut,
        required=True,
        allow_none=True,
        metadata={"description": "decideMatch's after the round; null unless the round has a breakdown."},
    )


class MoveAtOut(Schema):
    round = fields.Integer(required=True)
    move = fields.Integer(required=True)


class MatchDiscrepancyOut(Schema):
    field = fields.String(
        required=True,
        validate=validate.Regexp(rf"^(outcome|winner|scores\.[0-{MAX_SIDE}])$"),
        metadata={"description": "outcome, winner, or scores.<side>."},
    )
    claimed = fields.Raw(required=True, allow_none=True, metadata={"type": ["string", "integer"]})
    expected = fields.Raw(required=True, allow_none=True, metadata={"type": ["string", "integer"]})


MatchClaimVerdict = claim_verdict(
    "MatchClaimVerdict",
    "right: the claim is the match's result; wrong: it differs (see discrepancies); cannot-be-judged: the record "
    "has an illegal move or stops before the match is decided (see reason).",
    MatchDiscrepancyOut,
)


class MatchReplayResponse(Schema):
    valid = fields.Boolean(
        required=True,
        metadata={
            "description": "Every move judged is legal and every round was dealt by the seat the rotation names."
        },
    )
    complete = fields.Boolean(
        required=True, metadata={"description": "The record reaches the end of the match: it is won, or drawn."}
    )
    rounds = fields.List(
        fields.Nested(MatchRoundOut),
        required=True,
        metadata={"description": "The rounds judged, in order: every one, or up to the first illegal move."},
    )
    first_illegal = fields.Nested(
        MoveAtOut,
        required=True,
        allow_none=True,
        metadata={"description": "The first illegal move: its round and its index in the round, both from 0."},
    )
    scores = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "After the last complete round; all 0 when none is complete."},
    )
    outcome = fields.String(
        required=True,
        validate=validate.OneOf([o.value for o in Outcome]),
        metadata={"description": "decideMatch's after the last complete round; continue when none is complete."},
    )
    winner = fields.Integer(required=True, allow_none=True)
    claim = fields.Nested(MatchClaimVerdict, metadata={"description": "With `claimed`: the verdict on it."})
    receipt = Receipt()


class OptionOut(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(list(OPTION_TYPES.values())))
    default = fields.Raw(required=True, allow_none=True, metadata={"type": list(OPTION_TYPES.values())})
    description = fields.String(required=True)
    suggested = fields.List(fields.Raw(metadata={"type": list(OPTION_TYPES.values())}), required=True)


class FigureOut(Schema):
    rank = fields.String(required=True)
    value = fields.Integer(required=True)
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class CategoryOut(Schema):
    code = fields.String(required=True, validate=validate.OneOf(list(CATEGORIES)))
    scored = fields.String(required=True, validate=validate.OneOf(SCORED))
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class RedealOut(Schema):
    count = fields.Integer(required=True)
    ranks = fields.List(fields.String(), required=True, allow_none=True)


class RulesetOut(Schema):
    id = fields.String(required=True, validate=validate.OneOf(list(PROFILES)))
    title = fields.String(required=True)
    sources = fields.List(fields.String(), required=True)
    rules_url = fields.String(
        required=True,
        metadata={
            "format": "uri-reference",
            "description": "The profile's sheet in the rules this service applies (docs/rules.md §0.4 to §0.6): "
            "a path of this service, to the /rules page.",
            "example": "/rules#04-profile-sheet-chkobba",
        },
    )
    players = fields.List(fields.Integer(), required=True)
    sides = fields.List(fields.Integer(), required=True)
    values = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    figures = fields.List(fields.Nested(FigureOut), required=True)
    sum_policy = fields.String(required=True, validate=validate.OneOf([policy.value for policy in SumPolicy]))
    face_sums = fields.Boolean(required=True, metadata={"description": "J, Q, K capture sums (by default)."})
    cut_ritual = fields.Boolean(required=True)
    redeal = fields.Nested(RedealOut, required=True, allow_none=True)
    default_target = fields.Integer(required=True, allow_none=True)
    named_targets = fields.List(fields.Integer(), required=True)
    options = fields.List(fields.Nested(OptionOut), required=True)
    categories = fields.List(fields.Nested(CategoryOut), required=True)
    notes = fields.List(fields.String(), required=True)


class RulesetsResponse(Schema):
    rulesets = fields.List(fields.Nested(RulesetOut), required=True)


class ProblemOut(Schema):
    type = fields.String(
        required=True,
        metadata={
            "format": "uri-reference",
            "description": "`/problems/<code>`: the path of the page this service serves for the code (what it means, "
            "what a client should do), relative to the service's own URL (RFC 9457 §3.1.1). Act on `code`.",
            "example": "/problems/illegal-move",
        },
    )
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(
        required=True,
        validate=validate.OneOf(list(CODES)),
        metadata={"description": 'Stable machine code of the problem (docs/api.md, "Problem codes").'},
    )
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "Validation messages per field path (dot-separated)."},
    )
    options = fields.List(
        fields.Nested(CaptureOptionOut),
        metadata={
            "description": "illegal-move and ambiguous-capture only: the played card's captures (empty when it can "
            f"only be laid). {HUGE_CAPTURES}"
        },
    )
    legal = fields.List(
        fields.Nested(CardMovesOut),
        metadata={"description": f"Moves: what each hand card may do, every option. {HUGE_CAPTURES}"},
    )


class HealthOut(Schema):
    status = fields.String(required=True)


class JwkOut(Schema):
    """An Ed25519 public key as a JWK (RFC 8037)."""

    kty = fields.String(required=True, validate=validate.OneOf(["OKP"]))
    crv = fields.String(required=True, validate=validate.OneOf(["Ed25519"]))
    x = fields.String(required=True, metadata={"description": "The public key, base64url."})
    kid = fields.String(
        required=True,
        metadata={"description": "The key's RFC 7638 thumbprint (SHA-256, base64url): a receipt's header names it."},
    )
    alg = fields.String(required=True, validate=validate.OneOf(["EdDSA"]))
    use = fields.String(required=True, validate=validate.OneOf(["sig"]))


class JwksOut(Schema):
    keys = fields.List(
        fields.Nested(JwkOut),
        required=True,
        metadata={"description": "Every key of CHKOBBA_RECEIPT_KEYS, the one that signs now first."},
    )


# ---- move hints ----------------------------------------------------------------------------------


HINTS_LIMIT = 20  # every legal move of a real round (the most seen in the benchmark's rounds: 10)
MAX_HINTS_LIMIT = 100


class HintsRequest(WithToken):
    variants = {"state": ("PlainHintsRequest", ()), "state_token": ("SealedHintsRequest", ("context",))}
    state = StateField()
    state_token = fields.String(validate=validate.Length(min=1, max=MAX_TOKEN_CHARS), metadata=TOKEN)
    context = TokenContext()
    seat = Seat(metadata={"description": "When given, must be the seat to move."})
    limit = StrictInt(
        load_default=HINTS_LIMIT,
        validate=validate.Range(min=1, max=MAX_HINTS_LIMIT),
        metadata={
            "description": f"The most moves to answer, the best ones (default {HINTS_LIMIT}, at most "
            f"{MAX_HINTS_LIMIT}): real rounds rarely have more than 10 legal moves; the most a state the service "
            "accepts has is 168 (three kings on 12 table cards). `move_count` says how many there are."
        },
    )

    level = fields.String(
        load_default=DEFAULT_LEVEL,
        validate=validate.OneOf(LEVELS),
        metadata={
            "description": 'How the computer plays (docs/strategy.md, "Levels"): `beginner`, a new player who takes '
            "what the table shows and thinks no further; `club` (the default), the hints as they always were; "
            "`expert`, club's terms with the weights that measured ahead of club. Each sees only the seat's "
            "view; the beginner's random choices are drawn from a seed made of that view, so the same request gets "
            "the same answer. Any other value is a `validation-error` naming `level`."
        },
    )

    checks = ("exactly_one", "context_with_token")


class HintOut(Schema):
    move = fields.Nested(
        MoveInput,
        required=True,
        metadata={"description": "A move playRound accepts as it is: in phase play, its card and capture."},
    )
    score = fields.Float(
        required=True,
        metadata={
            "description": "Phase play: the round's final point margin (the seat's side minus the mean of the others) "
            "the strategy expects after this move; exact with two players and an empty stock. Phase cut: a preference."
        },
    )
    reasons = fields.List(
        fields.String(validate=validate.OneOf(list(REASONS))),
        required=True,
        metadata={"description": 'Stable codes of what the strategy weighed (docs/strategy.md, "Move hints").'},
    )


class HintsResponse(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat to move, whose moves these are."})
    moves = fields.List(
        fields.Nested(HintOut),
        required=True,
        metadata={
            "description": "The best `limit` legal moves of that seat (every one when there are no more), best "
            "first; ties in card order, then capture order."
        },
    )
    move_count = fields.Integer(
        required=True, metadata={"description": "How many legal moves the seat has, listed in `moves` or not."}
    )
    shortened_by = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf([reason.value for reason in Shortened]),
        metadata={
            "description": "null when every move was scored by the whole strategy "
            '(docs/strategy.md, "Move hints"). Else a '
            "work budget cut the search short, and every move was scored by the race and the habits alone: "
            "`steps`, a step budget, which depends on the input only (the same input gets the same answer); "
            "`time`, the CPU-time safety net, which depends on the machine's speed and load (the same input may "
            "then get another answer). Real rounds hardly ever reach either (2 calls in the 549,672 of the hint "
            "benchmark, by steps); huge tables reach the step budget."
        },
    )


# ---- committed deals ------------------------------------------------------------------------------


class CommitRequest(Checked):
    """An empty object: the service draws the server seed itself."""

    # No property is allowed, said as a schema rather than as ``false`` (the same in JSON Schema):
    # openapi-generator's Python client warns "Codegen property is null" on an object that has neither
    # properties nor a schema for the others.
    contract = {
        "description": "An empty object: the service draws the server seed itself. Any property is refused "
        "(`validation-error`): `additionalProperties` is the schema that nothing matches.",
        "additionalProperties": {"not": {}},
    }


class CommitResponse(Schema):
    commitment = fields.String(
        required=True,
        validate=validate.Regexp(HEX_64),
        metadata={"description": "SHA-256 of the secret server seed, lowercase hex: show it to every player first."},
    )
    commit_token = fields.String(
        required=True,
        metadata={
            "description": "The server seed, sealed: give it to dealRound's `fair` with the seats' seeds. It opens "
            "only with this deployment's state keys, and lives as long as a state token."
        },
    )


# Every request schema, compiled once: loading is on the hot path of every request.
REQUEST_SCHEMAS = {
    name: cls()
    for name, cls in {
        "captures": CapturesRequest,
        "moves": MoveRequest,
        "scores": ScoreRequest,
        "match": MatchRequest,
        "deal": DealRequest,
        "play": PlayRequest,
        "view": ViewRequest,
        "hints": HintsRequest,
        "replay": ReplayRequest,
        "review": ReviewRequest,
        "match_replay": MatchReplayRequest,
        "commit": CommitRequest,
    }.items()
}

# The schemas that the contract documents as a oneOf of named variants.
WITH_VARIANTS = (
    SideInput,
    MoveInput,
    RecordMoveInput,
    PlayRequest,
    ViewRequest,
    HintsRequest,
    DealResponse,
    PlayResponse,
    ViewResponse,
)

__all__ = ["REQUEST_SCHEMAS", "WITH_VARIANTS", "CodedMessage"]
