"""A touch drag shows the card under the finger (components/table/touch_ghost.py): while a
finger moves the lifted card, its copy (``#touch-ghost``) follows the finger; it goes when the
finger lifts (over the lixo: the card is discarded). In the discard phase any card of the hand
is dragged so; else a finger moving a card that is not lifted scrolls the page and shows nothing."""

from __future__ import annotations

from _flows import create_table, join_table, start_two
from _replay import hand
from playwright.sync_api import expect

# A finger down on the element, moved to (x, y), and (``lift``) lifted there.
_TOUCH = """(el, [x, y, lift]) => {
    const r = el.getBoundingClientRect();
    const t0 = new Touch({identifier: 1, target: el, clientX: r.x + 10, clientY: r.y + 10});
    el.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, touches: [t0], changedTouches: [t0]}));
    const t1 = new Touch({identifier: 1, target: el, clientX: x, clientY: y});
    el.dispatchEvent(new TouchEvent('touchmove', {bubbles: true, touches: [t1], changedTouches: [t1]}));
    const up = {bubbles: true, touches: [], changedTouches: [t1]};
    if (lift) el.dispatchEvent(new TouchEvent('touchend', up));
}"""


def test_the_dragged_card_follows_the_finger(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "pife", 33, b_size=(390, 844))
    a.get_by_role("button", name="COMEÇAR").click()
    expect(b.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()
    box = b.locator("#hand .hand-card").nth(0)
    ghost = b.locator("#touch-ghost")
    # before the draw, not lifted: a finger moving it shows no copy
    box.evaluate(_TOUCH, [200, 300, False])
    b.wait_for_timeout(200)  # nothing to wait for: the copy must not come
    expect(ghost).to_have_count(0)
    box.evaluate(_TOUCH, [200, 300, True])
    b.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    first = hand(b).nth(0).get_attribute("id")[len("card-") :]
    # lifted by a tap, then moved: its copy is under the finger, wherever it goes
    box.click()
    expect(box).to_have_attribute("aria-pressed", "true")
    for x, y in ((120, 260), (250, 420)):
        box.evaluate(_TOUCH, [x, y, False])
        expect(ghost).to_be_visible()
        expect(ghost).to_have_attribute("data-ghost", first)
        expect(ghost).to_have_attribute("aria-hidden", "true")
        g = ghost.bounding_box()
        assert g["x"] < x < g["x"] + g["width"] and g["y"] < y < g["y"] + g["height"], (x, y, g)
    # the copy is a card face of the same card, and it is no card of the hand
    expect(ghost.locator("[data-card]")).to_have_attribute("data-card", first.rstrip("'"))
    expect(hand(b)).to_have_count(10)
    # lifted over the lixo: the copy goes and the card is discarded
    pile = b.get_by_test_id("discard").bounding_box()
    box.evaluate(_TOUCH, [pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, True])
    expect(ghost).to_have_count(0)
    expect(hand(b)).to_have_count(9)
    expect(b.get_by_test_id("discard").locator("[data-card]")).to_have_attribute(
        "data-card", first.rstrip("'")
    )


def _finger_drag(page, start: dict, end: dict, steps: int = 8) -> None:
    """A finger through the browser's own input (CDP): down at the middle of the box
    ``start``, moved in ``steps`` to the middle of ``end``, lifted there. Unlike a TouchEvent
    made in the page, it scrolls the page where the page lets it."""
    cdp = page.context.new_cdp_session(page)
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for k in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_finger_drags_a_card_it_did_not_tap_to_the_lixo_on_a_tall_page(app_harness, new_page):
    """In the discard phase a finger that drags a card of the hand to the lixo discards it,
    even untapped and on a page taller than the phone's screen: the hand does not scroll the
    page then (the status line says "arraste-a até o lixo"). Out of the discard phase a finger
    on the hand scrolls the page as anywhere else."""
    import os

    os.environ["PIFECACHETA_FIXED_SEED"] = "33"
    a = new_page()
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    b = new_page(width=390, height=640, touch=True)
    join_table(b, a.url, "Bruno")
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    a.get_by_role("button", name="COMEÇAR").click()
    expect(b.get_by_role("button", name="COMPRAR", exact=True)).to_be_enabled()
    assert b.evaluate("() => document.documentElement.scrollHeight") > 640  # a page to scroll
    b.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    card = b.locator("#hand .hand-card").nth(1)
    card.scroll_into_view_if_needed()
    moved = hand(b).nth(1).get_attribute("id")[len("card-") :]
    top = b.evaluate("() => window.scrollY")
    pile = b.get_by_test_id("discard").bounding_box()
    assert pile["y"] >= 0, pile  # the lixo on screen with the card
    _finger_drag(b, card.bounding_box(), pile)
    expect(hand(b)).to_have_count(9)
    expect(b.get_by_test_id("discard").locator("[data-card]")).to_have_attribute(
        "data-card", moved.rstrip("'")
    )
    assert b.evaluate("() => window.scrollY") == top
    # Ana's turn: a finger moving up on Bruno's hand scrolls his page
    expect(b.get_by_role("button", name="COMPRAR", exact=True)).to_be_disabled()
    card = b.locator("#hand .hand-card").nth(1)
    box = card.bounding_box()
    _finger_drag(b, box, {**box, "y": box["y"] - 200})
    b.wait_for_function(f"() => window.scrollY !== {top}")
