"""The referee's console in Chromium: review a record, judge a capture, in English, French and Arabic.

Expected verdicts are worked out by hand from docs/rules.md (the decks are written out card by card);
where the page shows a score or a decision, the test compares it with the API's own answer, since
drawing what the API says is the page's whole job.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ..support import DESKTOP, PHONE, deck_starting, match_record

# Dealer 0, two players, the cutter keeping the drawn card: seat 1 (who plays first) holds 7H 5S KD,
# seat 0 holds 4D 2C 6H, the table 7S 4C 3D AC (docs/rules.md §3: blocks of 3 in playing order, then 4).
# 1. Seat 1: 5S takes 4C + AC (no 5 on the table; 4+1 is the only sum of 5). Legal.
# 2. Seat 0: 4D is laid (no 4, and no two cards of 7S 3D make 4). Legal.
# 3. Seat 1: 7H claims 3D + 4D while a single 7 lies on the table: match first (§4.1). Illegal.
#    What seat 1 could play: 7H must take 7S; KD (10) takes the sum 7S + 3D, its only one.
ILLEGAL_RECORD = {
    "dealer": 0,
    "cut": "keep",
    "deck": deck_starting("7H", "5S", "KD", "4D", "2C", "6H", "7S", "4C", "3D", "AC"),
    "moves": [{"card": "5S", "capture": ["4C", "AC"]}, {"card": "4D"}, {"card": "7H", "capture": ["3D", "4D"]}],
}


def ready(page: Page) -> Page:
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is wider than the screen: {width}"


def test_a_record_with_an_illegal_move_shows_that_move_and_the_legal_options(open_page, screenshots) -> None:
    page = ready(open_page("/referee?lang=en"))
    expect(page.locator("#profile")).to_have_value("chkobba")
    expect(page.locator("#players")).to_have_value("2")
    # Rules and players: the pickers'.
    page.get_by_label("Record of a round or a match (JSON)").fill(json.dumps(ILLEGAL_RECORD))
    page.get_by_role("button", name="Check the record").click()

    expect(page.locator("#verdict .summary")).to_have_text(
        "Move 3 (index 2 in the API) is illegal: a card of the same value had to be taken."
    )
    expect(page.locator(".move")).to_have_count(3)
    expect(page.locator(".move.legal")).to_have_count(2)
    first = page.locator(".move.first-illegal")
    expect(first).to_have_count(1)
    expect(first).to_have_attribute("data-index", "2")
    expect(first).to_have_attribute("aria-current", "step")
    expect(first).to_contain_text("Move 3")
    expect(first).to_contain_text("Seat 1")
    expect(first.locator(".move-play").get_by_role("img", name="7 of hearts")).to_be_visible()
    # What the record claims, drawn beside the played card.
    claimed = first.locator(".claimed").get_by_role("img")
    expect(claimed).to_have_count(2)
    expect(claimed.nth(0)).to_have_accessible_name("3 of diamonds")
    expect(claimed.nth(1)).to_have_accessible_name("4 of diamonds")

    options = first.locator("#legal-options")
    expect(options).to_contain_text("What seat 1 could play instead")
    expect(options.locator(".option-card")).to_have_count(2)
    seven = options.locator('.option-card[data-card="7H"]')
    expect(seven).to_contain_text("must take a card of the same value")
    expect(seven.locator(".option")).to_have_count(1)
    expect(seven.locator(".option")).to_have_attribute("data-capture", "7S")
    expect(seven.locator(".option").get_by_role("img", name="7 of spades")).to_be_visible()
    king = options.locator('.option-card[data-card="KD"]')
    expect(king.get_by_role("img", name="king of diamonds")).to_be_visible()
    expect(king.locator(".option")).to_have_count(1)
    expect(king.locator(".option")).to_have_attribute("data-capture", "7S 3D")

    # The position the illegal move was made in: table 7S 3D 4D, seat 1 to play.
    table = page.locator(".position ul.cards").first
    expect(table.get_by_role("img")).to_have_count(3)
    expect(page.locator(".position")).to_contain_text("Seat 1 to play.")
    expect(page.locator(".score")).to_contain_text("The round is not complete")
    screenshots(page, "referee-review-illegal-en-desktop")


def test_a_claim_on_a_record_that_stops_early_cannot_be_judged_and_is_not_shown_wrong(open_page) -> None:
    """docs/rules.md §10.14: the two legal moves of ILLEGAL_RECORD, with a claimed score, in French."""
    claimed = [
        {
            "side": s,
            "cards": 0,
            "diamonds": 0,
            "sevens": 0,
            "seven_of_diamonds": 0,
            "sweeps": 0,
            "primiera": 0,
            "total": 0,
        }
        for s in (0, 1)
    ]
    record = {**ILLEGAL_RECORD, "moves": ILLEGAL_RECORD["moves"][:2], "claimed": claimed}
    page = ready(open_page("/referee?lang=fr"))
    page.locator("#record").fill(json.dumps(record))
    page.locator("#check").click()
    claim = page.locator("section.claim")
    expect(claim).to_have_class("claim unjudged")
    expect(claim).to_contain_text("L'annonce ne peut pas être jugée")
    expect(claim).not_to_contain_text("faux :")


def test_an_uploaded_record_is_judged_in_arabic_on_a_phone(open_page, screenshots, tmp_path: Path) -> None:
    record = tmp_path / "round.json"
    record.write_text(json.dumps({"rules": "chkobba", "players": 2, **ILLEGAL_RECORD}), encoding="utf-8")
    page = ready(open_page("/referee?lang=ar", viewport=PHONE))
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    page.locator("#record-file").set_input_files(record)
    expect(page.locator("#record")).to_have_value(record.read_text(encoding="utf-8"))
    page.get_by_role("button", name="تحقّق من السجلّ").click()

    first = page.locator(".move.first-illegal")
    expect(first).to_have_attribute("data-index", "2")
    expect(first).to_contain_text("الحركة 3")
    expect(first.locator(".reason")).to_have_text("كان يجب أخذ الورقة ذات القيمة نفسها")
    expect(first.locator(".move-play").get_by_role("img", name="سبعة كوبي")).to_be_visible()
    options = first.locator("#legal-options")
    expect(options.locator('[data-card="7H"] .option').get_by_role("img", name="سبعة سبادي")).to_be_visible()
    # The figures take the profile's own Arabic names: the king is the ri in chkobba.
    expect(options.locator('.option-card[data-card="KD"]').get_by_role("img", name="ري ديناري").first).to_be_visible()
    first.scroll_into_view_if_needed()
    no_sideways_scroll(page)
    screenshots(page, "referee-review-illegal-ar-phone")


@pytest.mark.parametrize(
    ("lang", "viewport", "check", "outcome_won"),
    [
        ("fr", DESKTOP, "Vérifier le relevé", "Le camp 0 gagne le match."),
        ("ar", PHONE, "تحقّق من السجلّ", "الفريق 0 يفوز بالمباراة."),
        ("en", PHONE, "Check the record", "Side 0 wins the match."),
    ],
    ids=["fr-desktop", "ar-phone", "en-phone"],
)
def test_a_complete_round_shows_the_breakdown_with_local_names_and_the_match_decision(
    open_page, screenshots, service, lang: str, viewport: dict[str, int], check: str, outcome_won: str
) -> None:
    page = ready(open_page(f"/referee?lang={lang}", viewport=viewport))
    page.locator('[data-example="complete"]').click()
    record = json.loads(page.locator("#record").input_value())
    page.locator("#score-before-0").fill("17")
    page.locator("#score-before-1").fill("12")
    page.get_by_role("button", name=check).click()
    expect(page.locator("#verdict")).to_have_class("verdict ok")
    expect(page.locator(".move.legal")).to_have_count(len(record["moves"]))

    # The page shows the API's own breakdown, under the profile's local category names.
    status, replay = service.call("POST", "/v1/rounds/replay", {"rules": "chkobba", "players": 2, **record})
    assert status == 200 and replay["complete"], replay
    status, profile = service.call("GET", "/v1/rulesets/chkobba")
    assert status == 200
    key = {"fr": "fr", "ar": "ar", "en": "translit"}[lang]
    table = page.locator("table.breakdown")
    for category in profile["categories"]:
        row = table.locator(f'tr:has(th[data-category="{category["code"]}"])')
        if category["scored"] == "never":
            expect(row).to_have_count(0)
            continue
        expect(row.locator("th .local")).to_have_text(category["names"][key])
        cells = row.locator("td")
        expect(cells).to_have_text([str(line[category["code"]]) for line in replay["breakdown"]])
    expect(table.locator("tr.total td")).to_have_text([str(line["total"]) for line in replay["breakdown"]])

    totals = [line["total"] for line in replay["breakdown"]]
    status, decision = service.call(
        "POST", "/v1/match-decisions", {"rules": "chkobba", "scores": [17, 12], "round_points": totals}
    )
    assert status == 200 and decision["outcome"] == "won" and decision["winner"] == 0, decision
    expect(page.locator("#decision .outcome")).to_have_attribute("data-outcome", "won")
    expect(page.locator("#decision .outcome")).to_have_text(outcome_won)
    expect(page.locator("#decision")).to_contain_text(str(decision["scores"][0]))
    if viewport == PHONE:
        no_sideways_scroll(page)
    name = "desktop" if viewport == DESKTOP else "phone"
    screenshots(page, f"referee-review-complete-{lang}-{name}")


def test_a_record_that_is_not_json_or_breaks_the_contract_is_explained(open_page) -> None:
    page = ready(open_page("/referee?lang=fr"))
    record = page.get_by_label("Relevé d'une manche ou d'un match (JSON)")
    record.fill('{"dealer": 0,')
    page.get_by_role("button", name="Vérifier le relevé").click()
    expect(page.locator("#review-status")).to_contain_text("Le relevé n'est pas du JSON valide")
    expect(page.locator("#review-result")).to_be_empty()

    # No deck: the service answers a 422 problem, which the page shows with the field at fault.
    record.fill(json.dumps({"dealer": 0, "moves": []}))
    page.get_by_role("button", name="Vérifier le relevé").click()
    problem = page.locator("#review-result .problem")
    expect(problem).to_contain_text("Le service a refusé la demande : la demande ne respecte pas le contrat")
    expect(problem.locator("code")).to_contain_text(["deck"])


def pick(page: Page, zone: str, *names: str) -> None:
    page.locator(f'input[name="zone"][value="{zone}"]').check()
    for name in names:
        page.locator("#pack").get_by_role("button", name=name, exact=True).click()


def test_a_capture_built_by_clicking_is_judged_legal_and_sweeps(open_page, screenshots) -> None:
    # docs/rules.md §7.5 worked example (001): table 2D 6S, A plays QH, worth 8 in chkobba: 2+6 = 8, a sweep.
    page = ready(open_page("/referee?lang=en"))
    page.get_by_role("tab", name="Judge a capture").click()
    expect(page.locator("#judge")).to_be_visible()
    expect(page.locator("#review")).to_be_hidden()
    pick(page, "table", "2 of diamonds", "6 of spades")
    pick(page, "hand", "queen of hearts", "jack of clubs")
    expect(page.locator("#pack").get_by_role("button", name="2 of diamonds")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#table-zone-heading")).to_have_text("Table (2)")
    expect(page.locator("#hand-zone-heading")).to_have_text("Hand (2)")

    page.locator("#hand-zone").get_by_role("button", name="queen of hearts").click()
    page.locator("#table-zone").get_by_role("button", name="2 of diamonds").click()
    page.locator("#table-zone").get_by_role("button", name="6 of spades").click()
    expect(page.locator("#hand-zone").get_by_role("button", name="queen of hearts")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#claim-summary")).to_have_text(
        "Card played: queen of hearts. Claimed capture: 2 of diamonds, 6 of spades."
    )
    page.get_by_role("button", name="Judge the capture").click()

    verdict = page.locator("#judge-verdict")
    expect(verdict).to_have_attribute("data-verdict", "legal")
    expect(verdict.locator("h3")).to_have_text("Legal")
    expect(verdict.locator(".badge.sweep")).to_have_text("chkobba")  # the sweep's local name in chkobba
    expect(verdict.locator(".move-line ul.cards").get_by_role("img")).to_have_count(2)
    expect(verdict).to_contain_text("The table is empty.")
    screenshots(page, "referee-judge-legal-en-desktop")


def test_an_illegal_capture_built_with_the_keyboard_shows_the_legal_option_in_arabic(open_page, screenshots) -> None:
    # Table 7S 4C 3D; the player lays 7H and claims 4C + 3D: a single 7 must be taken first (§4.1).
    page = ready(open_page("/referee?lang=ar", viewport=PHONE))
    tab = page.get_by_role("tab", name="الحكم على أخذة")
    page.get_by_role("tab", name="مراجعة سجلّ").focus()
    page.keyboard.press("ArrowLeft")  # right to left: the next tab is on the left
    expect(tab).to_have_attribute("aria-selected", "true")
    expect(tab).to_be_focused()

    def press(locator: Any) -> None:
        locator.focus()
        page.keyboard.press("Enter")

    pack = page.locator("#pack")
    for name in ("سبعة سبادي", "أربعة باستوني", "ثلاثة ديناري"):
        press(pack.get_by_role("button", name=name, exact=True))
    page.locator('input[name="zone"][value="hand"]').focus()
    page.keyboard.press("Space")
    press(pack.get_by_role("button", name="سبعة كوبي", exact=True))
    press(page.locator("#hand-zone").get_by_role("button", name="سبعة كوبي"))
    press(page.locator("#table-zone").get_by_role("button", name="أربعة باستوني"))
    press(page.locator("#table-zone").get_by_role("button", name="ثلاثة ديناري"))
    press(page.get_by_role("button", name="احكم على الأخذة"))

    verdict = page.locator("#judge-verdict")
    expect(verdict).to_have_attribute("data-verdict", "illegal")
    expect(verdict.locator("h3")).to_have_text("غير قانونية")
    expect(verdict.locator(".reason")).to_have_text("كان يجب أخذ الورقة ذات القيمة نفسها")
    expect(verdict.locator(".why")).to_contain_text("فكان على سبعة كوبي أن تأخذ سبعة سبادي وحدها")
    options = verdict.locator("#judge-options .option")
    expect(options).to_have_count(1)
    expect(options).to_have_attribute("data-capture", "7S")
    expect(options.get_by_role("img", name="سبعة سبادي")).to_be_visible()
    no_sideways_scroll(page)
    screenshots(page, "referee-judge-illegal-ar-phone")


def test_the_language_switch_translates_everything_and_mirrors_arabic(open_page, screenshots) -> None:
    page = ready(open_page("/referee?lang=en"))
    page.get_by_label("Record of a round or a match (JSON)").fill(json.dumps(ILLEGAL_RECORD))
    page.get_by_role("button", name="Check the record").click()
    expect(page.locator(".move.first-illegal .reason")).to_have_text("a card of the same value had to be taken")

    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.get_by_role("tab", name="Juger une prise")).to_be_visible()
    expect(page.locator(".move.first-illegal .reason")).to_have_text("il fallait prendre la carte de même valeur")
    seven_of_diamonds = page.locator('#pack [data-card="7D"]')  # in the other tab, hidden
    expect(seven_of_diamonds).to_have_attribute("aria-label", "7 de carreau")
    expect(page.locator("#legal-options")).to_contain_text("Ce que le joueur 1 pouvait jouer")

    page.get_by_role("button", name="العربية").click()
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(seven_of_diamonds).to_have_attribute("aria-label", "سبعة ديناري")
    expect(page.locator(".move.first-illegal .reason")).to_have_text("كان يجب أخذ الورقة ذات القيمة نفسها")
    screenshots(page, "referee-review-illegal-ar-desktop")
    # The address follows the choice, and the choice is remembered.
    assert page.url.endswith("/referee?lang=ar")
    page.goto(page.url.removesuffix("?lang=ar"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("html")).to_have_attribute("lang", "ar")

    # Every string exists in every language, and no element the page translates is left empty.
    missing = page.evaluate(
        """async () => {
            const { STRINGS } = await import("./web/i18n.js");
            const keys = Object.keys(STRINGS.en);
            return Object.fromEntries(
                Object.entries(STRINGS).map(([lang, table]) => [lang, keys.filter((k) => !(k in table))])
            );
        }"""
    )
    assert missing == {"en": [], "fr": [], "ar": []}
    for lang in ("en", "fr", "ar"):
        page.locator(f'#langs button[data-lang="{lang}"]').click()
        empty = page.evaluate("[...document.querySelectorAll('[data-i18n]')].filter(e => !e.textContent.trim()).length")
        assert empty == 0, lang


def test_the_profile_options_change_the_verdict(open_page, screenshots) -> None:
    # chkobba-crp: a face card captures only by match unless face_sums is on (docs/rules.md §4.2, 004).
    page = ready(open_page("/referee?lang=en"))
    page.get_by_label("Profile").select_option("chkobba-crp")
    expect(page.get_by_label("Players").locator("option")).to_have_text(["2", "3", "4"])
    page.get_by_label("Players").select_option("3")
    expect(page.locator("#scores-fields input")).to_have_count(3)  # three players, three sides
    face_sums = page.get_by_label("Face cards may take sums")
    expect(face_sums).not_to_be_checked()
    expect(page.get_by_label("Score the primiera")).to_be_visible()

    page.get_by_role("tab", name="Judge a capture").click()
    pick(page, "table", "6 of spades", "4 of clubs")
    pick(page, "hand", "king of diamonds")
    page.locator("#hand-zone").get_by_role("button", name="king of diamonds").click()
    page.locator("#table-zone").get_by_role("button", name="6 of spades").click()
    page.locator("#table-zone").get_by_role("button", name="4 of clubs").click()
    page.get_by_role("button", name="Judge the capture").click()
    verdict = page.locator("#judge-verdict")
    expect(verdict).to_have_attribute("data-verdict", "illegal")
    expect(verdict).to_contain_text("king of diamonds can take nothing here: it must be laid on the table.")
    expect(verdict.locator(".reason")).to_have_text("a figure takes only a card of its own value here")
    expect(verdict.locator(".why")).to_contain_text("(the option “Face cards may take sums” is off)")

    face_sums.check()
    page.get_by_role("button", name="Judge the capture").click()
    expect(verdict).to_have_attribute("data-verdict", "legal")
    expect(verdict.locator(".badge.sweep")).to_have_text("chkobba")
    screenshots(page, "referee-judge-options-en-desktop")


# ---- the console says what happened (the verdict, its numbering, a new input, a refusal) -------------

# The page's complete example (the portable shuffle of "referee-1") up to move 19, index 18 in the API:
# seat 1 holds 3C 7S 5C, the table is 3S 7H, and the record lays 3C, taking nothing (capture []).
# A 3 lies on the table, so 3C must take it (docs/rules.md §4.1, §4.3): capture is mandatory. The
# API's English reason says so; the console once headed it "not a legal capture for this card".
REFEREE_1 = (
    "3D QH JH 7C QD 7D AC 2D 4H KC 5S 2C AD 3S 4C QC 6D 6S AS KH KD 7H 5C 7S 3C 2H 6H JD 6C 2S "
    "4D KS JC 3H 4S AH 5D JS 5H QS"
).split()
LAID_RECORD = {
    "dealer": 0,
    "cut": "keep",
    "deck": REFEREE_1,
    "moves": [
        {"card": "3D", "capture": ["AC", "2D"]},
        {"card": "7C"},
        {"card": "JH"},
        {"card": "7D", "capture": ["7C"]},
        {"card": "QH"},
        {"card": "QD", "capture": ["QH"]},
        {"card": "2C"},
        {"card": "4C", "capture": ["4H"]},
        {"card": "5S"},
        {"card": "3S"},
        {"card": "AD"},
        {"card": "QC", "capture": ["2C", "5S", "AD"]},
        {"card": "6D"},
        {"card": "KH", "capture": ["KC"]},
        {"card": "6S", "capture": ["6D"]},
        {"card": "7H"},
        {"card": "AS"},
        {"card": "KD", "capture": ["JH", "AS"]},
        {"card": "3C", "capture": []},
    ],
}

# What the console says, in each language: the verdict for LAID_RECORD and for ILLEGAL_RECORD, the
# moves' numbering, the link to the move, and the contract's messages.
SAYS: dict[str, dict[str, str]] = {
    "en": {
        "check": "Check the record",
        "laid_summary": "Move 19 (index 18 in the API) is illegal: capture is mandatory.",
        "laid_what": "Seat 1 laid the 3 of clubs on the table without taking anything.",
        "laid_why": "A card of the same value lies on the table, so the 3 of clubs had to take the 3 of spades",
        "claim_summary": "Move 3 (index 2 in the API) is illegal: a card of the same value had to be taken.",
        "claim_what": "Seat 1 played the 7 of hearts and claimed to take the 3 of diamonds and the 4 of diamonds.",
        "claim_why": "so the 7 of hearts had to take the 7 of spades, and that card alone",
        "move": "Move 19",
        "index": "index 18",
        "numbering": "the API numbers them from 0",
        "position": "The position before move 19 (index 18 in the API)",
        "go": "Go to move 19 (index 18 in the API)",
        "back": "Back to the verdict",
        "not_json": "The record is not valid JSON",
        "refused": "The service refused the request: the request does not follow the contract",
        "missing": "missing: this field is required",
        "not_list": "must be a list",
        "unknown": "unknown: the contract has no such field",
    },
    "fr": {
        "check": "Vérifier le relevé",
        "laid_summary": "Le coup 19 (indice 18 dans l'API) est irrégulier : la prise est obligatoire.",
        "laid_what": "Joueur 1 a posé le 3 de trèfle sur la table sans rien prendre.",
        "laid_why": "Une carte de même valeur est sur la table : il fallait prendre le 3 de pique avec le 3 de trèfle",
        "claim_summary": "Le coup 3 (indice 2 dans l'API) est irrégulier : il fallait prendre la carte de même valeur.",
        "claim_what": "Joueur 1 a joué le 7 de cœur et annoncé prendre le 3 de carreau et le 4 de carreau.",
        "claim_why": "il fallait prendre le 7 de pique avec le 7 de cœur, et cette carte seule",
        "move": "Coup 19",
        "index": "indice 18",
        "numbering": "l'API les numérote à partir de 0",
        "position": "La position avant le coup 19 (indice 18 dans l'API)",
        "go": "Aller au coup 19 (indice 18 dans l'API)",
        "back": "Retour au verdict",
        "not_json": "Le relevé n'est pas du JSON valide",
        "refused": "Le service a refusé la demande : la demande ne respecte pas le contrat",
        "missing": "manquant : ce champ est obligatoire",
        "not_list": "doit être une liste",
        "unknown": "inconnu : le contrat n'a pas ce champ",
    },
    "ar": {
        "check": "تحقّق من السجلّ",
        "laid_summary": "الحركة 19 (الفهرس 18 في الواجهة البرمجية) غير قانونية: الأخذ إلزامي.",
        "laid_what": "وضع اللاعب 1 ثلاثة باستوني على الطاولة دون أن يأخذ شيئًا.",
        "laid_why": "على الطاولة ورقة بالقيمة نفسها، فكان على ثلاثة باستوني أن تأخذ ثلاثة سبادي",
        "claim_summary": "الحركة 3 (الفهرس 2 في الواجهة البرمجية) غير قانونية: كان يجب أخذ الورقة ذات القيمة نفسها.",
        "claim_what": "لعب اللاعب 1 سبعة كوبي وادّعى أخذ ثلاثة ديناري وأربعة ديناري.",
        "claim_why": "فكان على سبعة كوبي أن تأخذ سبعة سبادي وحدها",
        "move": "الحركة 19",
        "index": "الفهرس 18",
        "numbering": "الواجهة البرمجية فترقّمها بدءًا من 0",
        "position": "الوضع قبل الحركة 19 (الفهرس 18 في الواجهة البرمجية)",
        "go": "انتقل إلى الحركة 19 (الفهرس 18 في الواجهة البرمجية)",
        "back": "العودة إلى الحكم",
        "not_json": "السجلّ ليس JSON صالحًا",
        "refused": "رفضت الخدمة الطلب: الطلب لا يتبع العقد",
        "missing": "مفقود: هذا الحقل مطلوب",
        "not_list": "يجب أن يكون قائمة",
        "unknown": "غير معروف: العقد لا يعرف هذا الحقل",
    },
}
LANGS = pytest.mark.parametrize("lang", ["en", "fr", "ar"])


def check(page: Page, lang: str, record: dict[str, Any]) -> None:
    page.locator("#record").fill(json.dumps(record))
    page.get_by_role("button", name=SAYS[lang]["check"]).click()
    expect(page.locator("#verdict")).to_be_visible()


@LANGS
def test_the_verdict_names_the_seat_the_card_what_it_did_and_why_in_the_page_language(
    open_page, screenshots, service, lang: str
) -> None:
    says = SAYS[lang]
    status, replay = service.call("POST", "/v1/rounds/replay", {"rules": "chkobba", "players": 2, **LAID_RECORD})
    assert status == 200 and replay["first_illegal"] == 18, replay
    refused = replay["moves"][18]
    assert refused["code"] == "illegal-move" and refused["reason"].startswith("capture is mandatory"), refused
    assert replay["state"]["table"] == ["3S", "7H"] and replay["state"]["turn"] == 1, replay["state"]

    page = ready(open_page(f"/referee?lang={lang}"))
    check(page, lang, LAID_RECORD)
    verdict = page.locator("#verdict")
    expect(verdict.locator(".summary")).to_have_text(says["laid_summary"])
    expect(verdict.locator(".what")).to_have_text(says["laid_what"])
    expect(verdict.locator(".why")).to_contain_text(says["laid_why"])
    # The reason rests on the rules, linked at their sections: a card of its value (§4.1) must capture (§4.3).
    expect(verdict.locator(".why .cite a")).to_have_text(["§4.1", "§4.3"])
    expect(verdict.locator(".why .cite a").nth(1)).to_have_attribute("href", "rules#43-capture-is-mandatory")
    expect(verdict).not_to_contain_text("not a legal capture")
    # The API's English words are never what the console says; they stay folded away, marked as English.
    english = page.locator("#review-result [lang=en]")
    expect(english).to_have_count(1)
    expect(english).to_have_text(refused["reason"])
    expect(english).to_be_hidden()

    # The numbering: the console's own from 1, always beside the API's index from 0.
    first = page.locator(".move.first-illegal")
    expect(first).to_have_attribute("data-index", str(replay["first_illegal"]))
    expect(first.locator(".move-no")).to_have_text(says["move"])
    expect(first.locator(".move-index")).to_have_text(says["index"])
    expect(page.locator(".moves-section .numbering")).to_contain_text(says["numbering"])
    expect(page.locator(".position h3")).to_have_text(says["position"])
    screenshots(page, f"referee-review-laid-{lang}-desktop")

    # A claimed capture where a card of the same value lies: what was claimed, and that a match comes first.
    check(page, lang, ILLEGAL_RECORD)
    expect(verdict.locator(".summary")).to_have_text(says["claim_summary"])
    expect(verdict.locator(".what")).to_have_text(says["claim_what"])
    expect(verdict.locator(".why")).to_contain_text(says["claim_why"])
    expect(verdict.locator(".why .cite a")).to_have_text(["§4.1"])


@LANGS
def test_a_new_input_clears_the_old_verdict(open_page, lang: str) -> None:
    says = SAYS[lang]
    page = ready(open_page(f"/referee?lang={lang}"))
    result = page.locator("#review-result")
    check(page, lang, ILLEGAL_RECORD)

    # Invalid JSON pasted over a judged record: the old verdict goes as soon as the record changes,
    # and checking it says only that it is not JSON, in the page's language.
    page.locator("#record").fill('{"dealer": 0,')
    expect(result).to_be_empty()
    page.get_by_role("button", name=says["check"]).click()
    expect(page.locator("#review-status")).to_contain_text(says["not_json"])
    expect(page.locator("#review-status")).not_to_contain_text("JSON input")  # the browser's English message
    expect(result).to_be_empty()

    # Invalid JSON checked while a verdict is shown (the record edited by a script, no input event).
    check(page, lang, ILLEGAL_RECORD)
    page.locator("#record").evaluate("(node, text) => { node.value = text; }", "[1, 2")
    page.get_by_role("button", name=says["check"]).click()
    expect(page.locator("#review-status")).to_contain_text(says["not_json"])
    expect(result).to_be_empty()

    # An example loaded, or the scores changed: the verdict was not given for them either.
    check(page, lang, ILLEGAL_RECORD)
    page.locator('[data-example="complete"]').click()
    expect(result).to_be_empty()
    check(page, lang, LAID_RECORD)
    page.locator("#score-before-0").fill("3")
    expect(result).to_be_empty()


@LANGS
def test_on_a_phone_the_verdict_links_to_the_illegal_move(open_page, screenshots, lang: str) -> None:
    says = SAYS[lang]
    page = ready(open_page(f"/referee?lang={lang}", viewport=PHONE))
    check(page, lang, LAID_RECORD)
    heading = page.locator("#verdict-heading")
    expect(heading).to_be_focused()
    move = page.locator(".move.first-illegal")
    expect(move).not_to_be_in_viewport()  # eighteen moves below the verdict

    page.locator("#verdict").get_by_role("link", name=says["go"]).click()
    expect(move).to_be_in_viewport()
    expect(move).to_be_focused()
    expect(move).to_have_attribute("id", "move-18")
    no_sideways_scroll(page)
    screenshots(page, f"referee-review-jump-{lang}-phone")

    move.get_by_role("link", name=says["back"]).click()
    expect(heading).to_be_in_viewport()
    expect(heading).to_be_focused()


@LANGS
def test_a_record_that_breaks_the_contract_names_each_field_once_in_the_page_language(
    open_page, service, lang: str
) -> None:
    says = SAYS[lang]
    record = {"moves": "none yet", "referee": "K. B."}
    status, problem = service.call("POST", "/v1/rounds/replay", {"rules": "chkobba", "players": 2, **record})
    assert status == 422 and problem["code"] == "validation-error", problem
    assert problem["errors"] == {
        "dealer": ["Missing data for required field."],
        "deck": ["Missing data for required field."],
        "moves": ["Not a valid list."],
        "referee": ["Unknown field."],
    }, problem
    assert problem["detail"].startswith("dealer: Missing data for required field."), problem  # the first again

    page = ready(open_page(f"/referee?lang={lang}", viewport=PHONE))
    page.locator("#record").fill(json.dumps(record))
    page.get_by_role("button", name=says["check"]).click()
    block = page.locator("#review-result .problem")
    expect(block).to_contain_text(says["refused"])
    expect(block.locator("code")).to_have_count(4)
    assert sorted(block.locator("code").all_inner_texts()) == sorted(problem["errors"]), "each path, once"
    text = block.inner_text()
    assert "Missing data for required field" not in text and "Unknown field" not in text, text
    assert text.count(says["missing"]) == 2, text  # dealer and deck, once each
    expect(block.locator("li", has=page.locator("code", has_text="moves"))).to_contain_text(says["not_list"])
    expect(block.locator("li", has=page.locator("code", has_text="referee"))).to_contain_text(says["unknown"])
    no_sideways_scroll(page)


# ---- a whole match (replayMatch, docs/rules.md §10.23) ---------------------------------------------------
# Real matches of scopa to 11, played with the rules core from seeded deals (tests/support.py
# match_record): "console-17" takes four rounds (3-1, 6-1, 7-2, 11-3: side 0 wins), "console-9" three
# (5-0, 9-0, 11-2), and its third round has a capture at index 18 (the queen of clubs takes the queen
# of hearts) which, laid instead, is illegal: capture is mandatory (§4.3).

SCOPA_11 = {"profile": "scopa", "options": {"target": 11}}


def scopa_match(prefix: str) -> dict[str, Any]:
    return match_record(SCOPA_11, 2, 0, [f"{prefix}-{i}" for i in range(40)])


def illegal_late_match() -> dict[str, Any]:
    record = scopa_match("console-9")
    moves = record["rounds"][2]["moves"]
    assert moves[18] == {"card": "QC", "capture": ["QH"]}, moves[18]
    moves[18] = {"card": "QC", "capture": []}
    return record


MATCH_SAYS = {
    "en": {
        "check": "Check the record",
        "ok": "Every move is legal, every round was dealt by the right seat, and the match is decided.",
        "won": "Side 0 wins the match.",
        "final": "Final scores: Side 0: 11, Side 1: 3",
        "right": "The claimed result is right.",
        "settebello": "settebello",
        "illegal": "Round 3, move 19 (round 2, move 18 in the API) is illegal: capture is mandatory.",
        "go": "Go to round 3, move 19 (round 2, move 18 in the API)",
        "unjudged_illegal": "The claim cannot be judged: the record stops at an illegal move",
    },
    "fr": {
        "check": "Vérifier le relevé",
        "ok": "Tous les coups sont réguliers, chaque manche a été donnée par le bon joueur, et le match est décidé.",
        "won": "Le camp 0 gagne le match.",
        "final": "Scores finals : Camp 0 : 11, Camp 1 : 3",
        "right": "Le résultat annoncé est exact.",
        "settebello": "settebello",
        "illegal": "Manche 3, coup 19 (manche 2, coup 18 dans l'API) : irrégulier, la prise est obligatoire.",
        "go": "Aller à la manche 3, coup 19 (manche 2, coup 18 dans l'API)",
        "unjudged_illegal": "L'annonce ne peut pas être jugée : le relevé s'arrête sur un coup irrégulier",
    },
    "ar": {
        "check": "تحقّق من السجلّ",
        "ok": "كل الحركات قانونية، وكل جولة وزّعها اللاعب الصحيح، والمباراة محسومة.",
        "won": "الفريق 0 يفوز بالمباراة.",
        "final": "النتيجة النهائية: الفريق 0: 11، الفريق 1: 3",
        "right": "النتيجة المُعلَنة صحيحة.",
        "settebello": "السبتوبيلو",
        "illegal": "الجولة 3، الحركة 19 (الجولة 2، الحركة 18 في الواجهة البرمجية) غير قانونية: الأخذ إلزامي.",
        "go": "انتقل إلى الجولة 3، الحركة 19 (الجولة 2، الحركة 18 في الواجهة البرمجية)",
        "unjudged_illegal": "لا يمكن الحكم على الإعلان: السجلّ يتوقّف عند حركة غير قانونية",
    },
}


def check_match(page: Page, lang: str, record: dict[str, Any]) -> None:
    page.locator("#record").fill(json.dumps(record))
    page.get_by_role("button", name=MATCH_SAYS[lang]["check"]).click()
    expect(page.locator("#verdict")).to_be_visible()


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("fr", DESKTOP), ("ar", PHONE)])
def test_a_match_record_shows_each_round_the_running_scores_the_decisions_and_the_result(
    open_page, screenshots, service, lang: str, viewport: dict[str, int]
) -> None:
    says = MATCH_SAYS[lang]
    record = {**scopa_match("console-17"), "claimed": {"outcome": "won", "winner": 0, "scores": [11, 3]}}
    status, replay = service.call("POST", "/v1/matches/replay", record)
    assert status == 200 and replay["valid"] and replay["complete"], replay
    assert (replay["outcome"], replay["winner"], replay["scores"]) == ("won", 0, [11, 3]), replay
    assert [r["scores"] for r in replay["rounds"]] == [[3, 1], [6, 1], [7, 2], [11, 3]]

    page = ready(open_page(f"/referee?lang={lang}", viewport=viewport))
    check_match(page, lang, record)
    expect(page.locator("#verdict-heading")).to_be_focused()
    expect(page.locator("#verdict")).to_have_class("verdict ok")
    expect(page.locator("#verdict .summary")).to_have_text(says["ok"])
    expect(page.locator("#profile")).to_have_value("scopa")  # the record's own rules, shown in the pickers

    # Each round: its number and index, its dealer check, its moves, its breakdown, the match after it.
    rounds = page.locator("section.match-round")
    expect(rounds).to_have_count(len(replay["rounds"]))
    running = page.locator("table.running")
    for judged in replay["rounds"]:
        i = judged["index"]
        section = page.locator(f"#round-{i}")
        expect(section.locator("h3 .round-index")).to_contain_text(str(i))
        expect(section.locator("h3")).to_contain_text(str(i + 1))
        expect(section.locator(".dealer")).to_have_class("dealer ok")
        expect(section.locator(".dealer")).to_contain_text(str(judged["dealer"]["given"]))
        expect(section.locator(".move")).to_have_count(len(judged["moves"]))
        expect(section.locator(".move.legal")).to_have_count(len(judged["moves"]))
        totals = [line["total"] for line in judged["breakdown"]]
        expect(section.locator("table.breakdown tr.total td")).to_have_text([str(t) for t in totals])
        expect(section.locator('th[data-category="seven_of_diamonds"] .local')).to_have_text(says["settebello"])
        decision = section.locator(".round-decision")
        expect(decision.locator(".round-scores")).to_contain_text(str(judged["scores"][0]))
        expect(decision.locator(".outcome")).to_have_attribute("data-outcome", judged["decision"]["outcome"])
        row = running.locator(f'tr[data-round="{i}"]')
        expect(row.locator("td:not(.row-decision)")).to_have_text(
            [f"{score} (+{points})" for score, points in zip(judged["scores"], totals, strict=True)]
        )
        expect(row.locator("td.row-decision")).to_have_attribute("data-outcome", judged["decision"]["outcome"])
    expect(page.locator("#round-3 .round-decision .outcome")).to_have_text(says["won"])

    # The final result, and the claimed result's verdict.
    result = page.locator("#match-result")
    expect(result.locator(".outcome")).to_have_attribute("data-outcome", "won")
    expect(result.locator(".outcome")).to_have_text(says["won"])
    expect(result.locator(".final-scores")).to_have_text(says["final"])
    claim = page.locator("#match-claim")
    expect(claim).to_have_class("claim match-claim ok")
    expect(claim).to_have_text(re.compile(re.escape(says["right"])))
    if viewport == PHONE:
        no_sideways_scroll(page)
    screenshots(page, f"referee-match-{lang}-{'phone' if viewport == PHONE else 'desktop'}")


@LANGS
def test_on_a_phone_the_match_verdict_links_to_the_first_illegal_move(
    open_page, screenshots, service, lang: str
) -> None:
    says = MATCH_SAYS[lang]
    record = {**illegal_late_match(), "claimed": {"outcome": "won", "winner": 0}}
    status, replay = service.call("POST", "/v1/matches/replay", record)
    assert status == 200 and replay["first_illegal"] == {"round": 2, "move": 18}, replay
    assert replay["rounds"][2]["moves"][18]["code"] == "illegal-move"
    assert replay["claim"]["verdict"] == "cannot-be-judged", replay["claim"]

    page = ready(open_page(f"/referee?lang={lang}", viewport=PHONE))
    check_match(page, lang, record)
    verdict = page.locator("#verdict")
    expect(verdict).to_have_class("verdict bad")
    expect(verdict.locator(".summary")).to_have_text(says["illegal"])
    # Laid while the queen of hearts lay there: a match first (§4.1), and capture is mandatory (§4.3).
    expect(verdict.locator(".why .cite a")).to_have_text(["§4.1", "§4.3"])
    expect(page.locator("section.match-round")).to_have_count(3)  # the judging stops at the illegal move
    expect(page.locator("#round-2 .position")).to_be_visible()
    claim = page.locator("#match-claim")
    expect(claim).to_have_class("claim match-claim unjudged")
    expect(claim).to_contain_text(says["unjudged_illegal"])

    move = page.locator("#round-2-move-18")
    expect(move).to_have_class(re.compile(r"\bfirst-illegal\b"))
    expect(move).not_to_be_in_viewport()
    verdict.get_by_role("link", name=says["go"]).click()
    expect(move).to_be_in_viewport()
    expect(move).to_be_focused()
    no_sideways_scroll(page)
    screenshots(page, f"referee-match-jump-{lang}-phone")

    # Folded away by the reader, the round's moves open again for the link.
    page.locator("#round-2 details.moves-section > summary").click()
    expect(move).to_be_hidden()
    page.locator("#verdict-heading").scroll_into_view_if_needed()
    verdict.get_by_role("link", name=says["go"]).click()
    expect(move).to_be_in_viewport()
    expect(move).to_be_focused()


def test_a_claimed_wrong_match_result_is_wrong_with_its_discrepancies(open_page, service) -> None:
    record = {**scopa_match("console-17"), "claimed": {"outcome": "won", "winner": 1, "scores": [11, 4]}}
    status, replay = service.call("POST", "/v1/matches/replay", record)
    assert status == 200 and replay["claim"] == {
        "verdict": "wrong",
        "valid": False,
        "discrepancies": [
            {"field": "winner", "claimed": 1, "expected": 0},
            {"field": "scores.1", "claimed": 4, "expected": 3},
        ],
    }, replay["claim"]

    page = ready(open_page("/referee?lang=en"))
    check_match(page, "en", record)
    claim = page.locator("#match-claim")
    expect(claim).to_have_class("claim match-claim bad")
    expect(claim).to_contain_text("The claimed result is wrong:")
    expect(claim.locator("li")).to_have_text(
        ["the winner: claimed side 1, should be side 0", "the score of side 1: claimed 4, should be 3"]
    )
    expect(page.locator("#verdict")).to_have_class("verdict ok")  # the record is right; the claim is not


def test_a_match_record_that_stops_early_cannot_judge_the_claim(open_page, service) -> None:
    record = scopa_match("console-17")
    record["rounds"] = record["rounds"][:3]
    record["rounds"][2]["moves"] = record["rounds"][2]["moves"][:7]
    record["claimed"] = {"outcome": "won", "winner": 0}
    status, replay = service.call("POST", "/v1/matches/replay", record)
    assert status == 200 and replay["complete"] is False and replay["outcome"] == "continue", replay
    assert replay["claim"]["verdict"] == "cannot-be-judged" and replay["first_illegal"] is None, replay["claim"]

    page = ready(open_page("/referee?lang=fr"))
    check_match(page, "fr", record)
    expect(page.locator("#verdict .summary")).to_have_text(
        "Tous les coups sont réguliers et chaque manche a été donnée par le bon joueur, "
        "mais le relevé s'arrête avant que le match soit décidé."
    )
    claim = page.locator("#match-claim")
    expect(claim).to_have_class("claim match-claim unjudged")
    expect(claim).to_contain_text(
        "L'annonce ne peut pas être jugée : le relevé s'arrête avant que le match soit décidé."
    )
    expect(claim).not_to_contain_text("faux :")
    expect(page.locator("#round-2 .stops")).to_have_text("Le relevé s'arrête avant la fin de cette manche.")
    expect(page.locator('table.running tr[data-round="2"] td.row-decision')).to_have_text("incomplète")
    expect(page.locator("#match-result .outcome")).to_have_attribute("data-outcome", "continue")
    expect(page.locator("#match-result .final-scores")).to_contain_text("Camp 0 : 6, Camp 1 : 1")


def test_the_example_match_is_one_click_away(open_page, service) -> None:
    page = ready(open_page("/referee?lang=en"))
    expect(page.locator("#scores-fieldset")).to_be_visible()  # a round's record may take the scores before it
    page.locator('[data-example="match"]').click()
    expect(page.locator("#scores-fieldset")).to_be_hidden()  # a match starts at 0: nothing to give
    record = json.loads(page.locator("#record").input_value())
    assert record["rules"] == SCOPA_11 and len(record["rounds"]) == 3
    status, replay = service.call("POST", "/v1/matches/replay", record)
    assert status == 200 and replay["valid"] and replay["claim"]["verdict"] == "right", replay
    page.get_by_role("button", name="Check the record").click()
    expect(page.locator("section.match-round")).to_have_count(3)
    expect(page.locator("#match-claim")).to_have_class("claim match-claim ok")
    expect(page.locator("#match-result .final-scores")).to_have_text("Final scores: Side 0: 11, Side 1: 2")
    page.locator('[data-example="complete"]').click()
    expect(page.locator("#scores-fieldset")).to_be_visible()


def test_a_card_not_held_is_told_as_played_not_as_a_capture_left_unsaid(open_page) -> None:
    """The leader (seat 1) plays 4D, which seat 0 holds: card-not-held, which is about the card, not
    about which cards it takes."""
    record = {**ILLEGAL_RECORD, "moves": [{"card": "4D"}]}
    page = ready(open_page("/referee?lang=en"))
    page.locator("#record").fill(json.dumps(record))
    page.locator("#check").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text("played the 4 of diamonds.")
    expect(verdict).not_to_contain_text("without saying")
