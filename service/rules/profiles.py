"""Rule profiles as data (docs/rules.md §1-§8), and ``Rules``: a profile with its options resolved.

Rule code asks the profile; it never tests which profile it is.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from .cards import DECK, Card, Rank
from .errors import InvalidOption, UnknownProfile
from .numbers import whole_number


class SumPolicy(enum.Enum):
    ANY = "any"  # any set of two or more cards adding up to the value
    MOST_CARDS = "most_cards"  # only the sets with the most cards (scopa, source 002)


CATEGORIES: Final = ("cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps", "primiera")


# A house may agree on any target (docs/rules.md §8); the service takes up to this one, already a match
# of a hundred rounds or more.
MAX_TARGET: Final = 1000


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    type: type
    default: Any
    description: str
    suggested: tuple[Any, ...] = ()
    maximum: int | None = None  # for a whole number, which is at least 1


@dataclass(frozen=True, slots=True)
class RedealRule:
    """The initial table must be dealt again when it holds ``count`` or more cards of one rank
    (restricted to ``ranks`` when given)."""

    count: int
    ranks: frozenset[Rank] | None = None

    def applies(self, table: tuple[Card, ...]) -> bool:
        ranks = [card.rank for card in table]
        if self.ranks is not None:
            ranks = [rank for rank in ranks if rank in self.ranks]
        # The most cards of one rank, counted in C (every deal asks, with four cards or five).
        return bool(ranks) and max(map(ranks.count, ranks)) >= self.count


@dataclass(frozen=True, slots=True)
class Profile:
    id: str
    title: str
    sources: tuple[str, ...]
    values: Mapping[Rank, int]
    players: tuple[int, ...]
    sum_policy: SumPolicy
    face_sums_default: bool  # whether J, Q, K may capture sums when the option is not given
    cut_ritual: bool
    redeal: RedealRule | None
    scored: frozenset[str]  # categories this profile scores (primiera: only when the option is on)
    sevens_tiebreak_by_sixes: bool
    default_target: int | None
    named_targets: tuple[int, ...]
    options: Mapping[str, OptionSpec]
    category_names: Mapping[str, Mapping[str, str]]
    figure_names: Mapping[Rank, Mapping[str, str]]
    notes: tuple[str, ...] = ()
    # A plain dict (typed read-only): a mapping proxy would slow the lookup on every capture.
    card_values: Mapping[Card, int] = field(init=False)
    _side_counts: tuple[int, ...] = field(init=False)
    _seat_sides: Mapping[int, tuple[int, ...]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card_values", {c: self.values[c.rank] for c in DECK})
        object.__setattr__(self, "_side_counts", tuple(sorted({self.sides(n) for n in self.players})))
        seat_sides = {n: tuple(self.side_of(n, seat) for seat in range(n)) for n in self.players}
        object.__setattr__(self, "_seat_sides", seat_sides)

    def sides(self, players: int) -> int:
        return 2 if players == 4 else players

    def side_of(self, players: int, seat: int) -> int:
        """The side a seat plays for: with four players, partners sit opposite (0 and 2, 1 and 3)."""
        return seat % self.sides(players)

    def seat_sides(self, players: int) -> tuple[int, ...]:
        """``side_of`` for every seat, in seat order (worked out once per player count)."""
        found = self._seat_sides.get(players)
        return found if found is not None else tuple(self.side_of(players, seat) for seat in range(players))

    def side_counts(self) -> tuple[int, ...]:
        return self._side_counts


def _values(jack: int, queen: int) -> Mapping[Rank, int]:
    base = {r: i + 1 for i, r in enumerate(list(Rank)[:7])}
    return MappingProxyType({**base, Rank.JACK: jack, Rank.QUEEN: queen, Rank.KING: 10})


def _target_option(default: int | None, suggested: tuple[int, ...], what: str) -> OptionSpec:
    return OptionSpec("target", int, default, what, suggested, maximum=MAX_TARGET)


def _bool_option(name: str, description: str) -> OptionSpec:
    return OptionSpec(name, bool, False, description)


def _names(**names: str) -> Mapping[str, str]:
    return MappingProxyType(names)


CHKOBBA: Final = Profile(
    id="chkobba",
    title="Tunisian Chkobba (the default profile)",
    sources=("000 (Arabic)", "001 (French)"),
    values=_values(jack=9, queen=8),
    players=(2, 4),
    sum_policy=SumPolicy.ANY,
    face_sums_default=True,
    cut_ritual=True,
    redeal=RedealRule(count=3),
    scored=frozenset({"cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps"}),
    sevens_tiebreak_by_sixes=True,
    default_target=21,
    named_targets=(11, 21, 31),
    options=MappingProxyType(
        {"target": _target_option(21, (11, 21, 31), "Points that end the match (docs/rules.md §8).")}
    ),
    category_names=MappingProxyType(
        {
            "cards": _names(ar="الكارطة", fr="cartes", translit="karta"),
            "diamonds": _names(ar="الديناري", fr="carreaux", translit="dinari"),
            "sevens": _names(ar="البرميلة", fr="bermila", translit="bermila"),
            "seven_of_diamonds": _names(ar="الحيّة", fr="7ayya", translit="7ayya (el-hayya)"),
            "sweeps": _names(ar="شكبة", fr="chkobba", translit="chkobba"),
        }
    ),
    figure_names=MappingProxyType(
        {
            Rank.ACE: _names(ar="اللّص", fr="as", translit="luss"),
            Rank.QUEEN: _names(ar="الموجيرة", fr="dame", it="fante", translit="mujira"),
            Rank.JACK: _names(ar="الكوّال", fr="valet", it="cavallo", translit="kawwal"),
            Rank.KING: _names(ar="الرّي", fr="roi", it="re", translit="ri"),
        }
    ),
    notes=(
        "The cutter (the dealer's right) draws the top card and keeps or tables it (000, 001).",
        "A table of 3 or 4 cards of one value is dealt again (000, 001).",
        "Sevens: most sevens, then most sixes, else nobody (001).",
    ),
)

CHKOBBA_CRP: Final = Profile(
    id="chkobba-crp",
    title="Chkobba as the CardRulesPlus-style summary plays it",
    sources=("004 (Portuguese)",),
    values=_values(jack=8, queen=9),
    players=(2, 3, 4),
    sum_policy=SumPolicy.ANY,
    face_sums_default=False,
    cut_ritual=False,
    redeal=RedealRule(count=3, ranks=frozenset({Rank.KING})),
    scored=frozenset({"cards", "diamonds", "seven_of_diamonds", "sweeps"}),
    sevens_tiebreak_by_sixes=False,
    default_target=11,
    named_targets=(11, 16, 21),
    options=MappingProxyType(
        {
            "target": _target_option(11, (11, 16, 21), "Points that end the match (docs/rules.md §8)."),
            "face_sums": _bool_option("face_sums", "J, Q and K may capture sums, not only by match (004)."),
            "ties_to_last_capturer": _bool_option(
                "ties_to_last_capturer",
                "A tie at the top in cards or diamonds goes to the last capturer, if tied (004).",
            ),
            "primiera": _bool_option("primiera", "Score the Italian primiera point (004, rarely played)."),
        }
    ),
    category_names=MappingProxyType(
        {
            "cards": _names(pt="cartas", it="carte", translit="karta"),
            "diamonds": _names(pt="ouros", it="denari", translit="dinari"),
            "seven_of_diamonds": _names(pt="bermila", translit="bermila"),
            "sweeps": _names(pt="chkobba", translit="chkobba"),
            "primiera": _names(pt="primiera", it="primiera"),
        }
    ),
    figure_names=MappingProxyType(
        {
            Rank.ACE: _names(pt="ás"),
            Rank.JACK: _names(pt="valete", it="fante"),
            Rank.QUEEN: _names(pt="dama", it="cavallo"),
            Rank.KING: _names(pt="rei", it="re"),
        }
    ),
    notes=(
        "Face cards capture only by match unless face_sums is on (004, rule 5).",
        "A table holding 3 or 4 kings is dealt again (004).",
        "Three players each score alone (004).",
    ),
)

SCOPA: Final = Profile(
    id="scopa",
    title="Scopa as source 002 plays it: two players, one round",
    sources=("002 (Arabic)",),
    values=_values(jack=8, queen=9),
    players=(2,),
    sum_policy=SumPolicy.MOST_CARDS,
    face_sums_default=True,
    cut_ritual=False,
    redeal=None,
    scored=frozenset({"cards", "diamonds", "seven_of_diamonds", "sweeps"}),
    sevens_tiebreak_by_sixes=False,
    default_target=None,
    named_targets=(),
    options=MappingProxyType(
        {
            "target": _target_option(
                None, (11,), "Without a target the match is one round; with one, a match to that total."
            )
        }
    ),
    category_names=MappingProxyType(
        {
            "cards": _names(ar="كارتي", it="carte"),
            "diamonds": _names(ar="الدناري", it="denari"),
            "seven_of_diamonds": _names(ar="السبتوبيلو", it="settebello"),
            "sweeps": _names(ar="سكوبا", it="scopa"),
        }
    ),
    figure_names=MappingProxyType(
        {
            Rank.ACE: _names(ar="الآص", it="asso"),
            Rank.JACK: _names(ar="الفانتي", it="fante"),
            Rank.QUEEN: _names(ar="الكافالو", it="cavallo"),
            Rank.KING: _names(ar="الري", it="re"),
        }
    ),
    notes=(
        "A sum must take the most cards possible (002).",
        "No redeal, no primiera, one round per match unless a target is set (002).",
    ),
)

PROFILES: Final[Mapping[str, Profile]] = MappingProxyType({p.id: p for p in (CHKOBBA, CHKOBBA_CRP, SCOPA)})
DEFAULT_PROFILE: Final = CHKOBBA


@dataclass(frozen=True, slots=True)
class Rules:
    """A profile with its options. Build with ``Rules.of`` from a profile id or ``{profile, options}``."""

    profile: Profile
    explicit: tuple[tuple[str, Any], ...] = ()  # the options the caller set, sorted by name
    target: int | None = field(init=False, compare=False)
    face_sums: bool = field(init=False, compare=False)
    ties_to_last_capturer: bool = field(init=False, compare=False)
    primiera: bool = field(init=False, compare=False)
    # The profile's, kept here too: captures_of reads them for every card of every move.
    card_values: Mapping[Card, int] = field(init=False, compare=False, repr=False)
    most_cards: bool = field(init=False, compare=False, repr=False)  # SumPolicy.MOST_CARDS

    def __post_init__(self) -> None:
        object.__setattr__(self, "card_values", self.profile.card_values)
        object.__setattr__(self, "most_cards", self.profile.sum_policy is SumPolicy.MOST_CARDS)
        object.__setattr__(self, "target", self.option("target"))
        object.__setattr__(self, "face_sums", bool(self.option("face_sums", self.profile.face_sums_default)))
        object.__setattr__(self, "ties_to_last_capturer", bool(self.option("ties_to_last_capturer", False)))
        object.__setattr__(self, "primiera", bool(self.option("primiera", False)))

    def option(self, name: str, fallback: Any = None) -> Any:
        for key, value in self.explicit:
            if key == name:
                return value
        spec = self.profile.options.get(name)
        return spec.default if spec is not None else fallback

    def scores(self, category: str) -> bool:
        if category == "primiera":
            return self.primiera
        return category in self.profile.scored

    @classmethod
    def of(cls, spec: RulesLike | None) -> Rules:
        if type(spec) is str:  # the common case first
            plain = PLAIN_RULES.get(spec)  # a profile id: one shared value, built once
            return plain if plain is not None else cls(_profile(spec))
        if spec is None:
            return cls(DEFAULT_PROFILE)
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, Profile):
            return cls(spec)
        if isinstance(spec, str):  # a str subclass
            plain = PLAIN_RULES.get(spec)
            return plain if plain is not None else cls(_profile(spec))
        if isinstance(spec, Mapping):
            unknown = set(spec) - {"profile", "options"}
            if unknown:
                raise InvalidOption(f"rules has unknown fields: {', '.join(sorted(map(str, unknown)))}", field="rules")
            if "profile" not in spec:
                raise UnknownProfile("rules.profile is required in the object form", field="rules.profile")
            profile = _profile(spec["profile"])
            options = spec.get("options", {})
            if not isinstance(options, Mapping):
                raise InvalidOption("rules.options must be an object", field="rules.options")
            return cls(profile, tuple(sorted(_check_option(profile, k, v) for k, v in options.items())))
        raise UnknownProfile("rules must be a profile id or an object {profile, options}", field="rules")

    def to_json(self) -> str | dict[str, Any]:
        if not self.explicit:
            return self.profile.id
        return {"profile": self.profile.id, "options": dict(self.explicit)}


RulesLike = str | Mapping[str, Any] | Rules | Profile
PLAIN_RULES: Final[Mapping[str, Rules]] = MappingProxyType({p.id: Rules(p) for p in PROFILES.values()})


def _profile(name: object) -> Profile:
    profile = PROFILES.get(name) if isinstance(name, str) else None
    if profile is None:
        raise UnknownProfile(
            f"unknown profile {name!r}; known profiles: {', '.join(PROFILES)}", field="rules.profile", profile=name
        )
    return profile


def _check_option(profile: Profile, name: object, value: object) -> tuple[str, Any]:
    spec = profile.options.get(name) if isinstance(name, str) else None
    if spec is None:
        raise InvalidOption(
            f"profile {profile.id} has no option {name!r}; its options: {', '.join(profile.options)}",
            field=f"rules.options.{name}",
        )
    if spec.type is bool:
        if not isinstance(value, bool):
            raise InvalidOption(f"option {spec.name} must be true or false", field=f"rules.options.{name}")
    else:
        number = whole_number(value)
        if number is None or not 1 <= number <= (spec.maximum or number):
            most = f" up to {spec.maximum}" if spec.maximum else ""
            raise InvalidOption(
                f"option {spec.name} must be a positive whole number{most}", field=f"rules.options.{name}"
            )
        value = number
    return spec.name, value
