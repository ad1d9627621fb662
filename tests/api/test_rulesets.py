"""listRulesets and getRuleset (openapi.yaml; docs/rules.md §1, §2, §7, §8)."""

from __future__ import annotations

import re

import pytest

from ..support import ok, problem

FACE = {
    "chkobba": {"J": 9, "Q": 8, "K": 10},
    "chkobba-crp": {"J": 8, "Q": 9, "K": 10},
    "scopa": {"J": 8, "Q": 9, "K": 10},
}


def by_code(items: list[dict], key: str = "code") -> dict[str, dict]:
    return {item[key]: item for item in items}


def test_list_rulesets_names_every_profile_in_order(client):
    body = ok(client.get("/v1/rulesets"))
    assert [r["id"] for r in body["rulesets"]] == ["chkobba", "chkobba-crp", "scopa"]


@pytest.mark.parametrize("profile", ["chkobba", "chkobba-crp", "scopa"])
def test_values_per_profile(client, profile):
    ruleset = by_code(ok(client.get("/v1/rulesets"))["rulesets"], "id")[profile]
    expected = {"A": 1, **{str(n): n for n in range(2, 8)}, **FACE[profile]}
    assert ruleset["values"] == expected
    figures = by_code(ruleset["figures"], "rank")
    for rank in ("J", "Q", "K"):
        assert figures[rank]["value"] == FACE[profile][rank]


def test_figures_map_by_value_within_the_profile(client):
    """docs/rules.md §1: in chkobba the cavallo is J (9) and the fante Q (8); elsewhere the other way round."""
    rulesets = by_code(ok(client.get("/v1/rulesets"))["rulesets"], "id")
    chkobba = by_code(rulesets["chkobba"]["figures"], "rank")
    assert chkobba["J"]["names"]["it"] == "cavallo" and chkobba["Q"]["names"]["it"] == "fante"
    assert chkobba["J"]["names"]["translit"] == "kawwal" and chkobba["Q"]["names"]["translit"] == "mujira"
    for profile in ("chkobba-crp", "scopa"):
        figures = by_code(rulesets[profile]["figures"], "rank")
        assert figures["J"]["names"]["it"] == "fante" and figures["Q"]["names"]["it"] == "cavallo"


def test_players_targets_and_rituals(client):
    rulesets = by_code(ok(client.get("/v1/rulesets"))["rulesets"], "id")
    assert rulesets["chkobba"]["players"] == [2, 4]
    assert rulesets["chkobba-crp"]["players"] == [2, 3, 4]
    assert rulesets["scopa"]["players"] == [2]
    assert rulesets["chkobba"]["default_target"] == 21
    assert rulesets["chkobba"]["named_targets"] == [11, 21, 31]
    assert rulesets["chkobba-crp"]["default_target"] == 11
    assert rulesets["chkobba-crp"]["named_targets"] == [11, 16, 21]
    assert rulesets["scopa"]["default_target"] is None
    assert [r["cut_ritual"] for r in rulesets.values()] == [True, False, False]
    assert rulesets["scopa"]["redeal"] is None
    assert rulesets["chkobba"]["sum_policy"] == "any"
    assert rulesets["scopa"]["sum_policy"] == "most_cards"


def test_options_with_types_and_defaults(client):
    rulesets = by_code(ok(client.get("/v1/rulesets"))["rulesets"], "id")

    def options(profile):
        return {o["name"]: (o["type"], o["default"]) for o in rulesets[profile]["options"]}

    assert options("chkobba") == {"target": ("integer", 21)}
    assert options("chkobba-crp") == {
        "target": ("integer", 11),
        "face_sums": ("boolean", False),
        "ties_to_last_capturer": ("boolean", False),
        "primiera": ("boolean", False),
    }
    assert options("scopa") == {"target": ("integer", None)}
    for ruleset in rulesets.values():
        for option in ruleset["options"]:
            assert isinstance(option["description"], str) and option["description"]


def test_categories_scored_and_local_names(client):
    """docs/rules.md §7, with the bermila trap: sevens in chkobba, the seven of diamonds in chkobba-crp."""
    rulesets = by_code(ok(client.get("/v1/rulesets"))["rulesets"], "id")
    codes = ["cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps", "primiera"]
    for ruleset in rulesets.values():
        assert [c["code"] for c in ruleset["categories"]] == codes

    def scored(profile):
        return {c["code"]: c["scored"] for c in rulesets[profile]["categories"]}

    assert scored("chkobba") == {
        "cards": "always",
        "diamonds": "always",
        "sevens": "always",
        "seven_of_diamonds": "always",
        "sweeps": "always",
        "primiera": "never",
    }
    assert scored("chkobba-crp")["sevens"] == "never"
    assert scored("chkobba-crp")["primiera"] == "option"
    assert scored("scopa")["sevens"] == "never"
    assert scored("scopa")["primiera"] == "never"

    chkobba = by_code(rulesets["chkobba"]["categories"])
    crp = by_code(rulesets["chkobba-crp"]["categories"])
    scopa = by_code(rulesets["scopa"]["categories"])
    assert chkobba["cards"]["names"]["translit"] == "karta"
    assert chkobba["diamonds"]["names"]["translit"] == "dinari"
    assert chkobba["sevens"]["names"]["translit"] == "bermila"
    assert "bermila" not in chkobba["seven_of_diamonds"]["names"].values()
    assert "7ayya" in chkobba["seven_of_diamonds"]["names"]["translit"]
    assert chkobba["sweeps"]["names"]["translit"] == "chkobba"
    assert crp["seven_of_diamonds"]["names"]["pt"] == "bermila"
    assert crp["diamonds"]["names"]["pt"] == "ouros"
    assert scopa["seven_of_diamonds"]["names"]["it"] == "settebello"
    assert scopa["sweeps"]["names"]["it"] == "scopa"


@pytest.mark.parametrize("profile", ["chkobba", "chkobba-crp", "scopa"])
def test_get_ruleset_is_the_listed_one(client, profile):
    listed = by_code(ok(client.get("/v1/rulesets"))["rulesets"], "id")[profile]
    assert ok(client.get(f"/v1/rulesets/{profile}")) == listed


@pytest.mark.parametrize("profile", ["nope", "CHKOBBA", "scopa-classic", "%20"])
def test_get_unknown_ruleset_is_a_404_problem(client, profile):
    body = problem(client.get(f"/v1/rulesets/{profile}"), 404, "unknown-profile")
    assert "chkobba" in body["detail"]


SHEETS = {
    "chkobba": "04-profile-sheet-chkobba",
    "chkobba-crp": "05-profile-sheet-chkobba-crp",
    "scopa": "06-profile-sheet-scopa",
}


@pytest.mark.parametrize("profile", ["chkobba", "chkobba-crp", "scopa"])
def test_a_ruleset_links_to_its_sheet_on_the_rules_page(client, profile):
    """rules_url is the profile's sheet of docs/rules.md (§0.4 to §0.6) on the page that serves it."""
    ruleset = ok(client.get(f"/v1/rulesets/{profile}"))
    assert ruleset["rules_url"] == f"/rules#{SHEETS[profile]}"
    path, anchor = ruleset["rules_url"].split("#")
    page = client.get(path)
    assert page.status_code == 200 and page.content_type == "text/html; charset=utf-8"
    heading = re.search(rf'<h3 id="{anchor}">(.*?)</h3>', page.get_data(as_text=True))
    assert heading is not None, f"/rules has no heading #{anchor}"
    assert heading.group(1) == f"0.{4 + list(SHEETS).index(profile)} Profile sheet: <code>{profile}</code>"


def test_every_profile_has_a_sheet(client):
    assert [r["rules_url"] for r in ok(client.get("/v1/rulesets"))["rulesets"]] == [
        f"/rules#{a}" for a in SHEETS.values()
    ]


@pytest.mark.parametrize(
    ("path", "title"), [("/rules", "Rules: Chkobba"), ("/docs/seeded-shuffle", "The seeded shuffle")]
)
def test_the_documents_are_served_as_pages(client, path, title):
    page = client.get(path)
    assert page.status_code == 200 and page.content_type == "text/html; charset=utf-8"
    assert f"<title>{title}" in page.get_data(as_text=True)
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["Cache-Control"] == "no-cache"
