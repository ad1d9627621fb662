"""A Python client generated from openapi.yaml, as a game developer would generate it, plays a round.

openapi-python-client (clients/python/config.yml) writes the client into a temporary folder; any
warning of the generator fails the test (it drops what it cannot type). The round is then played
with the generated models alone, against the service in-process (httpx's WSGI transport): a sealed
two-player chkobba deal, its cut, every move the top hint of suggestMoves, then the record replayed,
the piles scored and the match decided, each answer checked against the others.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from service.app import create_app

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "chkobba_referee_client"
SEED = "python-client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated package, imported from a temporary folder."""
    out = tmp_path_factory.mktemp("client")
    bin_dir = Path(sys.executable).parent  # the generator formats its output with this venv's ruff
    run = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--config",
            str(ROOT / "clients" / "python" / "config.yml"),
            "--meta",
            "none",
            "--output-path",
            str(out / PACKAGE),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        timeout=300,
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "warning" not in said.lower() and "unable to" not in said.lower(), said
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def client(generated: ModuleType) -> Any:
    app = create_app({"TESTING": True, "ACCESS_LOG": ""})
    return generated.Client(
        base_url="http://referee.test",
        httpx_args={"transport": httpx.WSGITransport(app=app)},
        raise_on_unexpected_status=True,
    )


def _module(name: str) -> Any:
    """A module of the generated package (imported by name: it exists only once generated)."""
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_a_sealed_chkobba_round_played_to_the_end_with_the_generated_models(generated: ModuleType, client: Any) -> None:
    m = _module("models")
    deal_round, play_round = _module("api.rounds.deal_round"), _module("api.rounds.play_round")
    suggest_moves, replay_round = _module("api.rounds.suggest_moves"), _module("api.rounds.replay_round")
    score_round, decide_match = _module("api.adjudication.score_round"), _module("api.adjudication.decide_match")

    rules = m.ProfileId.CHKOBBA
    dealt = deal_round.sync(client=client, body=m.DealRequest(rules=rules, players=2, dealer=0, seed=SEED, sealed=True))
    assert isinstance(dealt, m.SealedDeal), dealt
    assert all(view.phase == m.Phase.CUT and view.hand == [] for view in dealt.views)
    cutter = dealt.views[0].turn
    assert cutter == 1  # the dealer's right

    token = dealt.state_token
    moves: list[Any] = []
    played = None
    for _ in range(60):  # a round has 37 moves with its cut
        hints = suggest_moves.sync(client=client, body=m.SealedHintsRequest(state_token=token, limit=1))
        assert isinstance(hints, m.HintsResponse), hints
        move = hints.moves[0].move
        assert isinstance(move, m.CutMove | m.PlayMove)
        played = play_round.sync(client=client, body=m.SealedPlayRequest(state_token=token, move=move))
        assert isinstance(played, m.SealedPlayResponse), played
        moves.append(move)
        token = played.state_token
        if played.breakdown is not None:
            break
    assert played is not None and played.breakdown is not None
    assert isinstance(moves[0], m.CutMove) and all(isinstance(mv, m.PlayMove) for mv in moves[1:])
    final_view = played.views[0]
    assert final_view.phase == m.Phase.OVER and final_view.stock_size == 0

    # The game server kept the seed: the plain deal of the same seed gives the deck to replay from.
    deck = deal_round.sync(client=client, body=m.DealRequest(rules=rules, players=2, dealer=0, seed=SEED)).deck
    replay = replay_round.sync(
        client=client, body=m.ReplayRequest(rules=rules, players=2, dealer=0, deck=deck, moves=moves)
    )
    assert isinstance(replay, m.ReplayResponse), replay
    assert replay.valid and replay.complete and replay.first_illegal is None
    assert [line.to_dict() for line in replay.breakdown] == [line.to_dict() for line in played.breakdown]

    sides = [
        m.SideWithPile(captured=pile, sweeps=sweeps)
        for pile, sweeps in zip(final_view.piles, final_view.sweeps, strict=True)
    ]
    scored = score_round.sync(
        client=client, body=m.ScoreRequest(rules=rules, sides=sides, last_capturer=final_view.last_capturer)
    )
    assert isinstance(scored, m.ScoreResponse), scored
    assert [line.to_dict() for line in scored.breakdown] == [line.to_dict() for line in played.breakdown]

    points = [line.total for line in played.breakdown]
    decision = decide_match.sync(client=client, body=m.MatchRequest(rules=rules, scores=[0, 0], round_points=points))
    assert isinstance(decision, m.MatchResponse), decision
    assert decision.scores == points and decision.target == 21
    assert decision.outcome == (m.Outcome.WON if max(points) >= 21 else m.Outcome.CONTINUE)


def test_a_problem_comes_back_as_the_generated_problem_with_its_code(generated: ModuleType, client: Any) -> None:
    m = _module("models")
    legal_captures = _module("api.adjudication.legal_captures")
    body = m.CapturesRequest(rules=m.ProfileId.SCOPA, table=[m.Card.SEVEN_OF_DIAMONDS], hand=[m.Card.SEVEN_OF_DIAMONDS])
    problem = legal_captures.sync(client=client, body=body)
    assert isinstance(problem, m.Problem) and problem.status == 422
    assert problem.code == m.ProblemCode.DUPLICATE_CARD


def test_the_contract_itself_as_yaml_and_as_json(generated: ModuleType, client: Any) -> None:
    get_openapi, get_openapi_json = _module("api.operations.get_openapi"), _module("api.operations.get_openapi_json")
    # No schema for the YAML (its parsed form is the JSON's): the client answers the bytes as they came.
    as_yaml = get_openapi.sync_detailed(client=client)
    assert as_yaml.status_code == 200 and as_yaml.content == (ROOT / "openapi.yaml").read_bytes()
    as_json = get_openapi_json.sync(client=client)
    assert as_json.to_dict()["info"]["title"] == "Chkobba referee"


def test_the_documented_example_prints_what_the_page_shows(
    generated: ModuleType, client: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = (ROOT / "docs" / "clients" / "python.md").read_text(encoding="utf-8")
    section = page.split("## One stateless call\n", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    assert 'Client(base_url="http://127.0.0.1:8080")' in code
    monkeypatch.setattr(generated, "Client", lambda base_url: client)  # the service in-process
    exec(compile(code, "docs/clients/python.md", "exec"), {})  # noqa: S102 - the page's own example
    assert capsys.readouterr().out == shown
