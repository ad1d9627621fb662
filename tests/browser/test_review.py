"""The review of each move on the referee's console (service/web/static/review.js), in Chromium: once
a round record is checked, "Review every move" shows each move's judgment, what was best, and the
points each seat gave up, as reviewRound answers them (drawing what the API says is the page's job)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from ..support import DESKTOP, PHONE


def ready(page: Page) -> Page:
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page


@pytest.mark.parametrize(
    ("lang", "button", "viewport"), [("en", "Review every move", DESKTOP), ("ar", "حلّل كل حركة", PHONE)]
)
def test_a_whole_round_shows_each_moves_judgment_the_best_move_and_the_points_lost_per_seat(
    open_page, screenshots, service, lang: str, button: str, viewport: dict[str, int]
) -> None:
    page = ready(open_page(f"/referee?lang={lang}", viewport=viewport))
    expect(page.locator("#move-review")).to_be_hidden()  # nothing checked yet
    page.locator('[data-example="complete"]').click()
    record = json.loads(page.locator("#record").input_value())
    page.locator("#check").click()
    expect(page.locator("#verdict")).to_have_class("verdict ok")
    page.get_by_role("button", name=button).click()
    rows = page.locator("table.review-moves tbody tr")
    expect(rows).to_have_count(len(record["moves"]), timeout=20_000)

    status, review = service.call("POST", "/v1/rounds/review", {"rules": "chkobba", "players": 2, **record})
    assert status == 200, review
    for move in review["moves"]:
        row = page.locator(f"#review-{move['index']}")
        expect(row).to_have_attribute("data-judgment", move["judgment"])
        expect(row.locator("td.loss")).to_have_text(f"{move['loss']:.2f}")
        best = row.locator("td").last
        if move["best"] == move["played"]:
            expect(best.locator(".muted")).to_have_count(1)  # "the move played"
        else:
            expect(best.locator('[role="img"]').first).to_have_attribute("aria-label", re.compile(".+"))
    for seat in review["seats"]:
        line = page.locator(f'table.review-seats tr[data-seat="{seat["seat"]}"]')
        expect(line.locator("td.loss")).to_have_text(f"{seat['loss']:.2f}")
        accuracy = "–" if seat["accuracy"] is None else f"{seat['accuracy']:.1f} %"
        expect(line.locator("td.accuracy")).to_have_text(accuracy)
    screenshots(page, f"referee-move-review-{lang}")


def test_checking_another_record_clears_the_review(open_page) -> None:
    page = ready(open_page("/referee?lang=en", viewport=DESKTOP))
    page.locator('[data-example="complete"]').click()
    page.locator("#check").click()
    page.get_by_role("button", name="Review every move").click()
    expect(page.locator("table.review-moves")).to_be_visible(timeout=20_000)
    page.locator('[data-example="match"]').click()  # a match record: the review of a round does not apply
    expect(page.locator("#move-review")).to_be_hidden()


def test_a_record_with_an_illegal_move_is_reviewed_up_to_it_and_says_why_it_stops(open_page, service) -> None:
    page = ready(open_page("/referee?lang=en", viewport=DESKTOP))
    page.locator('[data-example="complete"]').click()
    record = json.loads(page.locator("#record").input_value())
    played = [m for m in record["moves"] if "card" in m]
    again = next(i for i, m in enumerate(record["moves"]) if m is played[1])  # the second card played...
    record["moves"][again] = {"card": played[0]["card"]}  # ...replaced by the first, which is no longer held
    page.locator("#record").fill(json.dumps(record))
    page.locator("#check").click()
    page.get_by_role("button", name="Review every move").click()
    status, review = service.call("POST", "/v1/rounds/review", {"rules": "chkobba", "players": 2, **record})
    assert status == 200 and review["first_illegal"] == again and review["first_illegal_code"] == "card-not-held"
    expect(page.locator("table.review-moves tbody tr")).to_have_count(again, timeout=20_000)
    expect(page.locator("#move-review p.note")).to_have_text(
        f"The review stops at move {again + 1}, the first illegal one (card-not-held)."
    )
