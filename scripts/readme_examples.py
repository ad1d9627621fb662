"""Writes the examples of the README and of docs/ with the service's real answers: `make readme`.

An example is a curl command in a ```sh block followed by the answer it shows, in a ```json block (the
answer as JSON: compact, or indented as `python3 -m json.tool` prints it when the command pipes into
it) or in a ```text block (what the `python3 -c` the command pipes into prints). A string shown as
`<N characters>` is a value that differs from call to call (a state token, a round id, a receipt):
the example shows its length, which does not. tests/contract/test_readme.py checks that every example
of every page still shows what the service answers; this script writes them again:

* between the markers of docs/api.md, an example of every operation, written here whole;
* between the markers of docs/integrator.md, the chkobba deal through its cut, two calls in sequence,
  the second sending the first's token as $TOKEN;
* everywhere else, the answer of each example, under its command as the page has it.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.api.examples import played_record
from service.app import create_app
from service.rules import deal_round, seeded_deck

ROOT = Path(__file__).resolve().parents[1]
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
API_PAGE, CUT_PAGE = ROOT / "docs" / "api.md", ROOT / "docs" / "integrator.md"
BEGIN, END = "<!-- api-examples:begin -->", "<!-- api-examples:end -->"
CUT_BEGIN, CUT_END = "<!-- cut-example:begin -->", "<!-- cut-example:end -->"
CUT_EXAMPLE = re.compile(re.escape(CUT_BEGIN) + r"\n(.*?)" + re.escape(CUT_END), re.DOTALL)
EXAMPLE = re.compile(r"```sh\n(curl [^`]*?)\n```\n\n```(json|text)\n([^`]*?)\n```")
# A sealed round's token differs on every call (its salt, its issue time, the key): the pages show
# its length, which depends only on the state, and the next call of the example sends it as $TOKEN.
TOKEN = "$TOKEN"
LENGTH = re.compile(r"<(\d+) characters>")


@dataclass(frozen=True)
class Example:
    """One curl command of a page and the answer the page shows for it."""

    command: str
    kind: str  # json or text
    shown: str
    start: int  # where the shown answer lies in the page's text
    end: int

    @property
    def words(self) -> list[str]:
        return shlex.split(self.command.split(" | ")[0].replace("\\\n", " "))

    @property
    def path(self) -> str:
        return next(w for w in self.words if w.startswith("localhost:")).removeprefix("localhost:8080")

    @property
    def body(self) -> str | None:
        words = self.words
        return words[words.index("-d") + 1] if "-d" in words else None

    @property
    def pipe(self) -> str | None:
        """The command the answer is piped into, if any (`python3 ...`)."""
        return self.command.split(" | ", 1)[1] if " | " in self.command else None


def examples(text: str) -> Iterator[Example]:
    """The examples of a page, those of its sequence (the cut) left out."""
    hidden = CUT_EXAMPLE.sub(lambda m: " " * len(m.group(0)), text)
    for match in EXAMPLE.finditer(hidden):
        yield Example(match.group(1), match.group(2), match.group(3), match.start(3), match.end(3))


def service_client() -> Any:
    return create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()


def call(test_client: Any, path: str, body: str | None) -> Any:
    if body is None:
        return test_client.get(path)
    return test_client.post(path, data=body, content_type="application/json")


def masked(answer: Any, shown: Any) -> Any:
    """``answer``, with each string that ``shown`` gives as ``<N characters>`` given so too."""
    if isinstance(shown, str) and isinstance(answer, str) and LENGTH.fullmatch(shown):
        return f"<{len(answer)} characters>"
    if isinstance(shown, dict) and isinstance(answer, dict):
        return {key: masked(value, shown.get(key)) for key, value in answer.items()}
    if isinstance(shown, list) and isinstance(answer, list):
        return [masked(value, shown[i] if i < len(shown) else None) for i, value in enumerate(answer)]
    return answer


def printed(example: Example, raw: str) -> str:
    """What the example's pipe prints for the raw answer (the `python3` of the page is this one)."""
    pipe = example.pipe
    assert pipe is not None and pipe.startswith("python3 "), example.command
    words = shlex.split(pipe)
    done = subprocess.run([sys.executable, *words[1:]], input=raw, capture_output=True, text=True, check=True)
    return done.stdout.removesuffix("\n")


def answer_as_shown(example: Example, response: Any) -> str:
    """The service's answer to the example, written as the page writes it."""
    if example.kind == "text":
        return printed(example, response.get_data(as_text=True))
    data = masked(response.get_json(), json.loads(example.shown))
    return json.dumps(data, ensure_ascii=False, indent=4) if example.pipe else _compact(data)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _abridged(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer as the pages show it: a state token and a round id by their length."""
    for volatile in ("state_token", "round_id"):  # they differ on every call: shown by their length
        if volatile in answer:
            answer = {**answer, volatile: f"<{len(answer[volatile])} characters>"}
    return answer


def _prose(text: str) -> str:
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


def render_cut() -> str:
    """A sealed chkobba deal, in phase cut, then the cut, as a game server makes them."""
    client = service_client()
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
        "vectors](seeded-shuffle.md#test-vectors))."
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
    client = service_client()
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
    reviewed = played_record("chkobba", 2, 0, "review-1", "keep", 4)
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
        ("suggestMoves", "Seat 1's first move of that round, as the expert ranks it (`level`: `beginner`, "
         "`club` by default, or `expert`): no card takes, so it lays the one that gives least away. Hints and "
         "levels are in the strategy page.",
         "/v1/hints", {"state": state["state"], "seat": 1, "level": "expert", "limit": 3}, True),
        ("reviewRound", "The first four moves of a chkobba round, each a random legal move, judged as the "
         "strategy page's review says: what was best, the points given up, the judgment; each seat's loss and "
         "accuracy.", "/v1/rounds/review", {"rules": "chkobba", "players": 2, "dealer": 0, **reviewed}, False),
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


def rewritten(text: str) -> str:
    """The page with the answer of each of its examples (but the sequence's) as the service gives it."""
    test_client = service_client()
    for example in reversed(list(examples(text))):
        shown = answer_as_shown(example, call(test_client, example.path, example.body))
        text = text[: example.start] + shown + text[example.end :]
    return text


def main() -> None:
    api = API_PAGE.read_text(encoding="utf-8")
    API_PAGE.write_text(_between(api, BEGIN, END, render()), encoding="utf-8")
    cut = CUT_PAGE.read_text(encoding="utf-8")
    CUT_PAGE.write_text(_between(cut, CUT_BEGIN, CUT_END, render_cut()), encoding="utf-8")
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        page.write_text(rewritten(text), encoding="utf-8")


if __name__ == "__main__":
    main()
