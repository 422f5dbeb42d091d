"""A newcomer's points (issue 11): an invited guest reads SENTAR À MESA before the host's
invite tools, and a refusal never covers the seats, on a phone and at desktop width."""

from __future__ import annotations

import os

from _flows import create_table, join_table
from _replay import hand
from playwright.sync_api import Page, expect


def _overlaps(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def _refusal_clear_of_the_seats(page: Page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    page.get_by_test_id("stock").click()  # not this player's turn: refused
    toast = page.locator("#message")
    expect(toast).to_have_text("Não é a sua vez.")
    box = toast.bounding_box()
    assert box is not None
    for seat in page.locator(".seat").all():
        assert not _overlaps(box, seat.bounding_box()), (box, seat.bounding_box())
    toast.click()  # dismissed
    expect(toast).to_have_count(0)


def test_the_guest_sits_first_and_refusals_leave_the_seats_visible(app_harness, new_page):
    os.environ["PIFECACHETA_FIXED_SEED"] = "77"
    a = new_page(width=390, height=844)
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    guest = new_page(width=390, height=844)
    guest.goto(a.url)
    sit = guest.get_by_role("button", name="SENTAR À MESA")
    expect(sit).to_be_visible()
    # the way to sit down comes before the link the host sends to others, on screen and in
    # the reading order
    assert guest.locator("#join-name").bounding_box()["y"] < guest.locator("#invite-url").bounding_box()["y"]
    order = guest.evaluate(
        "() => { const n = document.getElementById('join-name'), i = document.getElementById('invite-url');"
        " return !!(n.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_FOLLOWING); }"
    )
    assert order
    height = guest.viewport_size["height"]
    assert sit.bounding_box()["y"] + sit.bounding_box()["height"] <= height  # without scrolling
    guest.close()
    b = new_page(width=1366, height=900)
    join_table(b, a.url, "Bruno")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    # Ana deals, Bruno plays first: Ana's stock is refused, at both widths
    _refusal_clear_of_the_seats(a)
    a.set_viewport_size({"width": 1366, "height": 900})
    _refusal_clear_of_the_seats(a)
