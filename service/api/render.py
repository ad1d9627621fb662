"""Rule values as the JSON the contract documents. Plain dicts: the hot path stays cheap."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.rules import AUTO_TIMEOUT, CATEGORIES, Captures, MoveVerdict, Profile, RecordMoves, SideScore
from service.rules.replay import verdicts_to_json

OPTION_TYPES = {bool: "boolean", int: "integer"}  # an option's type, as getRuleset names it
ALWAYS, OPTION, NEVER = SCORED = ("always", "option", "never")  # whether a profile scores a category


def captures_json(captures: Captures) -> dict[str, Any]:
    sweep_option = captures.sweep_option
    return {
        "card": captures.card.code,
        "value": captures.value,
        "kind": captures.kind._value_,  # _value_: .value is a Python-level property
        "options": [
            {"capture": [c.code for c in option], "sweep": i == sweep_option}
            for i, option in enumerate(captures.options)
        ],
    }


def breakdown_json(scores: Sequence[SideScore] | None) -> list[dict[str, int]] | None:
    return None if scores is None else [s.to_json() for s in scores]


def verdicts_json(verdicts: Sequence[MoveVerdict], moves: RecordMoves | None = None) -> list[dict[str, Any]]:
    """Every verdict of a replay; an illegal one (a replay stops at it: the last) also says what the
    seat could have done. A move of the record (``moves``) with a time keeps it: ``at_ms``, and
    ``auto`` for one played on timeout."""
    out = verdicts_to_json(verdicts)
    if verdicts and not verdicts[-1].legal:
        out[-1] = _refused_json(verdicts[-1])
    stamps = None if moves is None else moves.stamps
    if stamps is not None:
        for data, stamp in zip(out, stamps, strict=False):
            if stamp is not None:
                if stamp.at_ms is not None:
                    data["at_ms"] = stamp.at_ms
                if stamp.auto:
                    data["auto"] = AUTO_TIMEOUT
    return out


def _refused_json(verdict: MoveVerdict) -> dict[str, Any]:
    data = verdict.to_json()
    if verdict.options and all(isinstance(o, Captures) for o in verdict.options):
        data["legal"] = [captures_json(o) for o in verdict.options]
    else:
        data["legal_cuts"] = [getattr(o, "value", str(o)) for o in verdict.options]
    return data


# The page of the rules (docs/rules.md, served at /rules), and each profile's sheet there (§0.4 to §0.6), by
# the anchor the page gives its heading (tests/api/test_rulesets.py checks that the page has each one).
RULES_PAGE = "/rules"
PROFILE_SHEETS = {
    "chkobba": "04-profile-sheet-chkobba",
    "chkobba-crp": "05-profile-sheet-chkobba-crp",
    "scopa": "06-profile-sheet-scopa",
}


def ruleset_json(profile: Profile) -> dict[str, Any]:
    scored = profile.scored
    return {
        "id": profile.id,
        "title": profile.title,
        "sources": list(profile.sources),
        "rules_url": f"{RULES_PAGE}#{PROFILE_SHEETS[profile.id]}",
        "players": list(profile.players),
        "sides": list(profile.side_counts()),
        "values": {rank.value: value for rank, value in profile.values.items()},
        "figures": [
            {"rank": rank.value, "value": profile.values[rank], "names": dict(names)}
            for rank, names in profile.figure_names.items()
        ],
        "sum_policy": profile.sum_policy.value,
        "face_sums": profile.face_sums_default,
        "cut_ritual": profile.cut_ritual,
        "redeal": None
        if profile.redeal is None
        else {
            "count": profile.redeal.count,
            "ranks": None if profile.redeal.ranks is None else sorted(r.value for r in profile.redeal.ranks),
        },
        "default_target": profile.default_target,
        "named_targets": list(profile.named_targets),
        "options": [
            {
                "name": spec.name,
                "type": OPTION_TYPES[spec.type],
                "default": spec.default,
                "description": spec.description,
                "suggested": list(spec.suggested),
            }
            for spec in profile.options.values()
        ],
        "categories": [
            {
                "code": code,
                "scored": ALWAYS if code in scored else OPTION if code in profile.options else NEVER,
                "names": dict(profile.category_names.get(code, {})),
            }
            for code in CATEGORIES
        ],
        "notes": list(profile.notes),
    }
