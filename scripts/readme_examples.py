"""Rewrites the README's examples with the service's real answers: `make readme`.

The examples sit between the markers below: the API's examples, and the chkobba deal through its cut
of "Integrating a game". tests/contract/test_readme.py checks that every JSON output shown there is
still what the service answers.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from service.app import create_app
from service.rules import deal_round, seeded_deck

README = Path(__file__).resolve().parents[1] / "README.md"
BEGIN, END = "<!-- api-examples:begin -->", "<!-- api-examples:end -->"
CUT_BEGIN, CUT_END = "<!-- cut-example:begin -->", "<!-- cut-example:end -->"
# A sealed round's token differs on every call (its nonce, its issue time, the key): the README shows
# its length, which depends only on the state, and the next call of the example sends it as $TOKEN.
TOKEN = "$TOKEN"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _client() -> Any:
    return create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()


def _abridged(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer as the README shows it: a state token by its length."""
    for volatile in ("state_token", "round_id"):  # they differ on every call: shown by their length
        if volatile in answer:
            answer = {**answer, volatile: f"<{len(answer[volatile])} characters>"}
    return answer


def _prose(text: str) -> str:
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


def render_cut() -> str:
    """A sealed chkobba deal, in phase cut, then the cut, as a game server makes them."""
    client = _client()
    deal_body = {"rules": "chkobba", "players": 2, "dealer": 0, "seed": "chkobba", "sealed": True}
    dealt = client.post("/v1/rounds", json=deal_body).get_json()
    cutter = dealt["views"][0]["turn"]
    drawn = dealt["views"][cutter]["cut_card"]
    cut_body = {"state_token": dealt["state_token"], "move": {"cut": "table", "seat": cutter}}
    played = client.post("/v1/rounds/play", json=cut_body).get_json()
    shown_cut = _compact({**cut_body, "state_token": TOKEN}).replace(TOKEN, "'\"$TOKEN\"'")
    deal_text = (
        f"**dealRound**, sealed: phase `cut`, every hand empty, and `turn` is the cutter, seat {cutter}, the "
        "dealer's right (seat `(dealer + 1) % players`). Only the cutter's view has `cut_card`, the top "
        f'card it drew (`{drawn}`, the first card of the seed `"chkobba"` in [the test '
        "vectors](docs/seeded-shuffle.md#test-vectors))."
    )
    cut_text = (
        f"**playRound**, with `TOKEN` the deal's `state_token`: seat {cutter} puts `{drawn}` on the table "
        '(`"keep"` would make it the first card of its hand). The hands are dealt, and the round is in '
        f"phase `{played['views'][0]['phase']}`, seat {played['views'][0]['turn']} to lead."
    )
    return (
        f"{_prose(deal_text)}\n\n"
        f"```sh\ncurl -s localhost:8080/v1/rounds -H 'content-type: application/json' \\\n"
        f"  -d '{_compact(deal_body)}'\n```\n\n```json\n{_compact(_abridged(dealt))}\n```\n\n"
        f"{_prose(cut_text)}\n\n"
        f"```sh\ncurl -s localhost:8080/v1/rounds/play -H 'content-type: application/json' \\\n"
        f"  -d '{shown_cut}'\n```\n\n```json\n{_compact(_abridged(played))}\n```\n"
    )


def render() -> str:
    client = _client()
    out = []
    rulesets = client.get("/v1/rulesets").get_json()["rulesets"]
    out.append(
        "**listRulesets** (`GET /v1/rulesets`), abridged here to each profile's card values and default target:\n\n"
        "```sh\ncurl -s localhost:8080/v1/rulesets | python3 -c 'import json, sys\n"
        'for r in json.load(sys.stdin)["rulesets"]: print(r["id"], r["values"], r["default_target"])\'\n```\n\n'
        "```text\n" + "".join(f"{r['id']} {r['values']} {r['default_target']}\n" for r in rulesets) + "```\n"
    )
    out.append(
        "**getRuleset** (`GET /v1/rulesets/{profile}`): one profile, complete.\n\n"
        "```sh\ncurl -s localhost:8080/v1/rulesets/scopa\n```\n\n```json\n"
        + _compact(client.get("/v1/rulesets/scopa").get_json())
        + "\n```\n"
    )
    state = client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "seed": "readme"}).get_json()
    leader_hand = state["state"]["hands"][1]
    first = client.post(
        "/v1/captures", json={"rules": "scopa", "table": state["state"]["table"], "hand": leader_hand}
    ).get_json()["moves"][0]
    move: dict[str, Any] = {"card": first["card"]}
    if len(first["options"]) > 1:
        move["capture"] = first["options"][0]["capture"]
    deck = [c.code for c in seeded_deck("readme")]
    # A match record: a void deal (three aces on the table, docs/rules.md §3.4), then a round dealt by seat 0
    # where seat 1 should have dealt again, which stops after its first two moves.
    void = [c.code for c in seeded_deck("void-36")]
    second, _ = deal_round("chkobba", 2, 0, seed="readme", cut="keep")
    first_two = [{"card": second.hands[1][0].code}, {"card": second.hands[0][0].code}]
    calls: list[tuple[str, str, str, dict[str, Any], bool]] = [
        ("legalCaptures", "Each hand card's legal captures, in hand order.", "/v1/captures",
         {"rules": "chkobba", "table": ["2D", "6S", "AC"], "hand": ["QH", "7C", "KS"]}, True),
        ("applyMove", "One play; the capture is a set of table cards.", "/v1/moves",
         {"rules": "chkobba", "table": ["7S", "7D", "AC"], "hand": ["7C", "2H"],
          "play": {"card": "7C", "capture": ["7D"]}}, True),
        ("applyMove (illegal)", "A sum while a single 7 lies on the table: a 422 problem with the legal options.",
         "/v1/moves", {"rules": "chkobba", "table": ["7S", "4C", "3D"], "hand": ["7H"],
                       "play": {"card": "7H", "capture": ["4C", "3D"]}}, True),
        ("scoreRound", "The worked example of docs/rules.md §7.5, from counts, with a wrong claim.", "/v1/scores",
         {"rules": "chkobba", "sides": [
             {"counts": {"cards": 22, "diamonds": 6, "sevens": 2, "sixes": 3, "seven_of_diamonds": True}, "sweeps": 1},
             {"counts": {"cards": 18, "diamonds": 4, "sevens": 2, "sixes": 1, "seven_of_diamonds": False},
              "sweeps": 0}],
          "claimed": [
             {"side": 0, "cards": 1, "diamonds": 1, "sevens": 0, "seven_of_diamonds": 1, "sweeps": 1, "primiera": 0,
              "total": 4},
             {"side": 1, "cards": 0, "diamonds": 0, "sevens": 1, "seven_of_diamonds": 0, "sweeps": 0, "primiera": 0,
              "total": 1}]}, True),
        ("decideMatch", "17 + 5 reaches the target of 21.", "/v1/match-decisions",
         {"rules": "chkobba", "scores": [17, 12], "round_points": [5, 1]}, True),
        ("dealRound", "A scopa deal from the portable seeded shuffle.", "/v1/rounds",
         {"rules": "scopa", "players": 2, "dealer": 0, "seed": "readme"}, False),
        ("playRound", "The first move of that round (seat 1, the dealer's right, leads).", "/v1/rounds/play",
         {"state": state["state"], "move": move}, False),
        ("replayRound", "A record whose first move is made by the wrong seat: a verdict, not an error.",
         "/v1/rounds/replay", {"rules": "scopa", "players": 2, "dealer": 0, "deck": deck,
                               "moves": [{"card": state["state"]["hands"][0][0], "seat": 0}]}, False),
        ("replayMatch", "A match record: a void deal (three aces on the table), which the same seat deals again, "
         "then a round dealt by seat 0 instead, which stops after two moves; the claimed result cannot be judged.",
         "/v1/matches/replay", {"rules": "chkobba", "players": 2, "dealer": 1, "rounds": [
             {"deck": void, "cut": "keep", "moves": []},
             {"dealer": 0, "deck": deck, "cut": "keep", "moves": first_two}],
          "claimed": {"outcome": "won", "winner": 0}}, False),
        ("viewRound", "What seat 0 may know of that round: its own hand, never seat 1's or the stock.",
         "/v1/rounds/view", {"state": state["state"], "seat": 0}, True),
    ]  # fmt: skip
    for title, text, path, body, pretty in calls:
        data = client.post(path, json=body).get_json()
        pipe = " | python3 -m json.tool --no-ensure-ascii" if pretty else ""
        shown = json.dumps(data, ensure_ascii=False, indent=4) if pretty else _compact(data)
        out.append(
            f"**{title}** (`POST {path}`): {text}\n\n```sh\ncurl -s localhost:8080{path} "
            f"-H 'content-type: application/json' \\\n  -d '{_compact(body)}'{pipe}\n```\n\n```json\n{shown}\n```\n"
        )
    return "\n".join(out)


def _between(text: str, begin: str, end: str, content: str) -> str:
    start, stop = text.index(begin) + len(begin), text.index(end)
    return text[:start] + "\n" + content + "\n" + text[stop:]


def main() -> None:
    text = README.read_text(encoding="utf-8")
    text = _between(text, BEGIN, END, render())
    README.write_text(_between(text, CUT_BEGIN, CUT_END, render_cut()), encoding="utf-8")


if __name__ == "__main__":
    main()
