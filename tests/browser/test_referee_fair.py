"""The referee's console on fair play (issue 26): a committed deal shown verified or why not, the
moves played on timeout and each move's time, and a record's receipt checked in the browser
(WebCrypto Ed25519, against the service's /.well-known/jwks.json).

The round is played against the service itself, as a game server would: commitDeal, a committed
and clocked dealRound (a turn of 1 s, 30 s of grace), one timeout move once seat's time has run out,
then the top hint of each seat until the end, whose answer holds the record and its receipt.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ..support import Service


def ok(service: Service, path: str, body: Any) -> Any:
    status, answer = service.call("POST", path, body)
    assert status == 200, answer
    return answer


@pytest.fixture(scope="module")
def ended(service: Service) -> dict[str, Any]:
    """The answer that ended a committed, clocked round with one move played on timeout (dealt again
    while the deal comes out void, about one committed deal in a hundred: its server seed is random)."""
    answer: dict[str, Any] = {"record": {"moves": []}}
    while len(answer["record"]["moves"]) < 3:
        commit = ok(service, "/v1/deals/commitments", {})
        deal = {
            "rules": "chkobba",
            "players": 2,
            "dealer": 0,
            "cut": "keep",
            "sealed": True,
            "fair": {"commit_token": commit["commit_token"], "seeds": ["alice's seed", "bob's seed"]},
            "clock": {"turn_seconds": 1, "grace_seconds": 30},
        }
        answer = ok(service, "/v1/rounds", deal)
        moves = 0
        while "record" not in answer:
            token, seat = answer["state_token"], answer["views"][0]["turn"]
            if moves == 2:  # the third move: the seat lets its time run out
                time.sleep(1.2)
                move: dict[str, Any] = {"timeout": True, "seat": seat}
            else:
                hint = ok(service, "/v1/hints", {"state_token": token, "seat": seat, "limit": 1})
                move = {**hint["moves"][0]["move"], "seat": seat}
            answer = ok(service, "/v1/rounds/play", {"state_token": token, "move": move})
            moves += 1
    assert answer["record"]["moves"][2]["auto"] == "timeout" and "record_receipt" in answer
    return {"record": answer["record"], "record_receipt": answer["record_receipt"]}


def ready(page: Page) -> Page:
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page


def check(page: Page, pasted: Any, receipt: str = "") -> None:
    page.locator("#record").fill(json.dumps(pasted))
    page.locator("#receipt").fill(receipt)
    page.locator("#check").click()
    expect(page.locator("#verdict")).to_be_visible()


def test_a_signed_committed_clocked_record_shows_its_deal_its_signature_its_times_and_the_auto_move(
    open_page, screenshots, ended
) -> None:
    record = ended["record"]
    page = ready(open_page("/referee?lang=en"))
    check(page, ended)  # the ending answer pasted whole: its record and receipt are both taken

    expect(page.locator("#verdict .summary")).to_have_text("Every move is legal, and the round is complete.")
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "verified")
    expect(page.locator("#receipt-check .receipt-verdict")).to_contain_text("exactly the one the service signed")
    fair = page.locator("section.fair-deal")
    expect(fair).to_have_attribute("data-fair-deal", "verified")
    expect(fair.locator(".fair-verdict")).to_have_text(
        "The deal is verified: the server seed revealed matches the commitment, and the deck is the one that seed "
        "and the seats' seeds give."
    )
    expect(fair.locator(".fair-unsigned")).to_have_count(0)
    expect(page.locator("#verdict .receipt-fails")).to_have_count(0)
    expect(fair).to_contain_text(record["fair"]["commitment"])
    expect(fair.locator("dd")).to_have_text([record["fair"]["commitment"], "alice's seed", "bob's seed"])
    expect(page.locator("#turn-clock")).to_contain_text(
        "1 s a turn, then 30 s of grace; dealt at " + record["clock"]["dealt_at"]
    )

    moves = page.locator(".move")
    expect(moves).to_have_count(len(record["moves"]))
    expect(page.locator(".badge.auto")).to_have_count(1)
    expect(moves.nth(2).locator(".badge.auto")).to_have_text("played on timeout")
    times = page.locator(".move .move-time")
    expect(times).to_have_count(len(record["moves"]))
    shown = [int(t) for t in times.evaluate_all("nodes => nodes.map(n => n.dataset.atMs)")]
    assert shown == [move["at_ms"] for move in record["moves"]]
    auto_ms = record["moves"][2]["at_ms"]
    assert auto_ms >= record["moves"][1]["at_ms"] + 1000  # after its deadline
    expect(moves.nth(2).locator(".move-time")).to_have_text(f"at {auto_ms // 60000}:{auto_ms % 60000 / 1000:06.3f}")
    screenshots(page, "referee-fair-verified-en-desktop")


def test_an_edited_seed_breaks_the_deal_and_the_signature_in_french(open_page, screenshots, ended) -> None:
    edited = copy.deepcopy(ended)
    edited["record"]["fair"]["seeds"][0] = "a seed chosen later"
    page = ready(open_page("/referee?lang=fr"))
    check(page, edited)
    fair = page.locator("section.fair-deal")
    expect(fair).to_have_attribute("data-fair-deal", "mismatch")
    expect(fair.locator(".fair-verdict")).to_contain_text("La donne ne se vérifie pas")
    expect(fair.locator(".fair-reason")).to_contain_text("Le paquet n'est pas celui que donnent la graine du serveur")
    expect(fair.locator(".service-words")).to_contain_text("the deck is not the one")
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "invalid")
    expect(page.locator("#receipt-check")).to_contain_text("Le reçu n'est pas valide")
    screenshots(page, "referee-fair-edited-fr-desktop")


def test_a_changed_server_seed_is_not_the_one_committed_to(open_page, ended) -> None:
    edited = copy.deepcopy(ended)
    edited["record"]["fair"]["server_seed"] = "00" * 32
    page = ready(open_page("/referee?lang=en"))
    check(page, edited)
    fair = page.locator("section.fair-deal")
    expect(fair).to_have_attribute("data-fair-deal", "mismatch")
    expect(fair.locator(".fair-reason")).to_have_text(
        "The revealed server seed is not the one committed to: its SHA-256 is not the commitment."
    )


def test_an_edited_time_keeps_the_deal_but_fails_the_signature(open_page, ended) -> None:
    edited = copy.deepcopy(ended)
    edited["record"]["moves"][5]["at_ms"] += 1
    page = ready(open_page("/referee?lang=en"))
    check(page, edited["record"], edited["record_receipt"])  # the record, and its receipt in its own field
    expect(page.locator("section.fair-deal")).to_have_attribute("data-fair-deal", "verified")
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "invalid")
    # The same record untouched, with the same receipt in the field: it verifies.
    check(page, ended["record"], ended["record_receipt"])
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "verified")


def test_a_move_auto_played_before_its_deadline_is_illegal_in_arabic(open_page, screenshots, ended) -> None:
    edited = copy.deepcopy(ended)
    moves = edited["record"]["moves"]
    moves[2]["at_ms"] = moves[1]["at_ms"] + 400  # played for the seat 0.4 s into a turn of 1 s
    for later in moves[3:]:
        later["at_ms"] = max(later["at_ms"], moves[2]["at_ms"])
    page = ready(open_page("/referee?lang=ar"))
    check(page, edited)
    expect(page.locator("#verdict")).to_have_class("verdict bad")
    first = page.locator(".move.first-illegal")
    expect(first).to_have_attribute("data-index", "2")
    expect(first.locator(".badge.auto")).to_have_text("لُعبت عند انتهاء الوقت")
    expect(first.locator(".reason")).to_contain_text("قبل أن ينتهي وقته")
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "invalid")
    screenshots(page, "referee-fair-early-timeout-ar-desktop")


def test_a_receipt_of_an_unknown_key_or_no_receipt_at_all(open_page, ended) -> None:
    import base64

    header = base64.urlsafe_b64encode(b'{"alg":"EdDSA","kid":"not-a-key-of-this-service"}').decode().rstrip("=")
    forged = header + ".." + ended["record_receipt"].split(".")[2]
    page = ready(open_page("/referee?lang=en"))
    check(page, ended["record"], forged)
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "unknown-key")
    check(page, ended["record"], "not a receipt")
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "malformed")
    check(page, ended["record"])  # no receipt: said to be not signed, not checked, and no failure
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "none")
    expect(page.locator("#receipt-check")).to_have_class("receipt unjudged")
    expect(page.locator("#receipt-check .receipt-verdict")).to_have_text(
        "Not signed: no receipt was given, so no signature is checked."
    )
    expect(page.locator("#verdict")).to_have_class("verdict ok")
    expect(page.locator("#verdict .receipt-fails")).to_have_count(0)
    expect(page.locator("section.fair-deal")).to_have_attribute("data-fair-deal", "verified")
    # Anyone can make a record whose deal checks out: unsigned, the deal's verdict says what it rests on.
    expect(page.locator("section.fair-deal .fair-unsigned")).to_contain_text("no receipt of the service verifies it")


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_a_receipt_that_fails_is_the_headline_not_a_legal_complete_round(open_page, ended, lang: str) -> None:
    edited = copy.deepcopy(ended)
    edited["record"]["moves"][5]["at_ms"] += 1  # legal still, the deal still derived: only the receipt fails
    page = ready(open_page(f"/referee?lang={lang}"))
    check(page, edited["record"], edited["record_receipt"])
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "invalid")
    verdict = page.locator("#verdict")
    expect(verdict).to_have_class("verdict bad")
    headline = verdict.locator(".summary").first
    expect(headline).to_have_class("summary receipt-fails")
    expected = {
        "en": "The receipt does not verify: this record was edited after the service signed it, or it is not the "
        "service's.",
        "fr": "Le reçu n'est pas valide : ce relevé a été modifié après la signature du service",
        "ar": "الإيصال غير صحيح",
    }[lang]
    expect(headline).to_contain_text(expected)
    fair = page.locator("section.fair-deal")
    expect(fair).to_have_attribute("data-fair-deal", "verified")
    expect(fair.locator(".fair-unsigned")).to_have_count(1)
    # A receipt that is not one fails too; the same record with its own receipt verifies, and says nothing of it.
    check(page, {**edited, "record": ended["record"]}, "not a receipt")
    expect(page.locator("#verdict .receipt-fails")).to_have_count(1)
    check(page, ended["record"], ended["record_receipt"])
    expect(page.locator("#verdict")).to_have_class("verdict ok")
    expect(page.locator("#verdict .receipt-fails")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_a_record_that_gives_a_key_twice_is_refused_not_judged_on_its_last_copy(open_page, ended, lang) -> None:
    """JSON.parse keeps a key's last copy: an edited first `moves` with the original after it would be
    judged (and its receipt verified) on a copy a reader may not see. The console refuses the text."""
    text = json.dumps(ended)
    edited = copy.deepcopy(ended["record"]["moves"])
    edited[0]["card"] = "KS" if edited[0]["card"] != "KS" else "QS"
    twice = text.replace('"moves": ', '"moves": ' + json.dumps(edited) + ', "moves": ', 1)
    assert json.loads(twice) == ended  # what JSON.parse, too, makes of it
    page = ready(open_page(f"/referee?lang={lang}"))
    page.locator("#record").fill(twice)
    page.locator("#check").click()
    expect(page.locator("#review-status")).to_contain_text("duplicate-key")
    expect(page.locator("#review-status")).to_contain_text("moves")
    expect(page.locator("#verdict")).to_be_hidden()
    page.locator("#record").fill(text)  # the same text with the key once is judged
    page.locator("#check").click()
    expect(page.locator("#receipt-check")).to_have_attribute("data-receipt", "verified")


def test_a_committed_round_of_a_match_record_says_that_no_receipt_verifies_it(open_page, ended) -> None:
    """A match record carries no receipt of its rounds: a deal that checks out rests on its commitment."""
    record = ended["record"]
    head = ("rules", "players", "dealer")
    match = {**{k: record[k] for k in head}, "rounds": [{k: v for k, v in record.items() if k not in head}]}
    page = ready(open_page("/referee?lang=en"))
    check(page, match)
    fair = page.locator("section.fair-deal")
    expect(fair).to_have_attribute("data-fair-deal", "verified")
    expect(fair.locator(".fair-unsigned")).to_contain_text("no receipt of the service verifies it")
