"""openapi-generator's Python client (clients/openapi-generator/python.yaml) plays a sealed four-player
chkobba round with a rules object against the service under gunicorn: the deal from a seed, the cut and
every move the top hint of suggestMoves, to the end, then the round's record replayed. Only the generated
models and API classes are used, so a union they cannot tell apart, a list of lists of cards they cannot
load, or a seed they cannot send fails here.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

PACKAGE = "chkobba_og"
pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def og(generated_clients: dict[str, Any]) -> Iterator[ModuleType]:
    out = str(generated_clients["python"].out)
    sys.path.insert(0, out)
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(out)
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_a_sealed_four_player_round_with_a_rules_object_played_and_replayed(og: ModuleType, referee_url: str) -> None:
    with og.ApiClient(og.Configuration(host=referee_url)) as api:
        rounds = og.RoundsApi(api)
        rules = og.Rules(og.ChkobbaRules(profile=og.ChkobbaProfile.CHKOBBA, options=og.ChkobbaOptions(target=11)))
        seed = og.Seed("python-openapi-generator")
        body = og.DealRequest(rules=rules, players=4, dealer=0, seed=seed, sealed=True)
        dealt = rounds.deal_round(body).actual_instance
        assert isinstance(dealt, og.SealedDeal), dealt
        assert len(dealt.views) == 4 and all(view.phase == og.Phase.CUT for view in dealt.views)

        token, played, moves = dealt.state_token, None, []
        for _ in range(60):  # a four-player round has 36 plays and its cut
            hints = rounds.suggest_moves(og.HintsRequest(og.SealedHintsRequest(state_token=token, limit=1)))
            move = hints.moves[0].move
            moves.append(type(move.actual_instance).__name__)
            answer = rounds.play_round(og.PlayRequest(og.SealedPlayRequest(state_token=token, move=move)))
            played = answer.actual_instance
            assert isinstance(played, og.SealedPlayResponse), played
            token = played.state_token
            if played.breakdown is not None:
                break
        assert played is not None and played.breakdown is not None and played.record is not None
        assert moves[0] == "CutMove" and moves[1:] == ["PlayMove"] * 36
        final = played.views[0]
        assert final.phase == og.Phase.OVER and len(final.piles) == 2  # two sides of two
        assert all(isinstance(card, og.Card) for pile in final.piles for card in pile)

        replay = rounds.replay_round(played.record)
        assert replay.valid and replay.complete and replay.first_illegal is None
        assert [line.to_dict() for line in replay.breakdown] == [line.to_dict() for line in played.breakdown]


def test_a_problem_is_the_generated_problem_with_its_code(og: ModuleType, referee_url: str) -> None:
    with og.ApiClient(og.Configuration(host=referee_url)) as api:
        body = og.CapturesRequest(
            rules=og.Rules(og.ProfileId.SCOPA), table=[og.Card.SEVEN_OF_DIAMONDS], hand=[og.Card.SEVEN_OF_DIAMONDS]
        )
        with pytest.raises(og.ApiException) as raised:
            og.AdjudicationApi(api).legal_captures(body)
        problem = og.Problem.from_json(raised.value.body)
        assert raised.value.status == 422 and problem.code == og.ProblemCode("duplicate-card")
