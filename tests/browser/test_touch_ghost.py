"""A touch drag shows the card under the finger (components/table/touch_ghost.py): while a
finger moves the lifted card, its copy (``#touch-ghost``) follows the finger; it goes when the
finger lifts (over the lixo: the card is discarded); a finger moving a card that is not lifted
scrolls the page and shows nothing."""

from __future__ import annotations

from _flows import start_two
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
    b.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    first = hand(b).nth(0).get_attribute("id")[len("card-") :]
    box = b.locator("#hand .hand-card").nth(0)
    ghost = b.locator("#touch-ghost")
    # not lifted: a finger moving it shows no copy
    box.evaluate(_TOUCH, [200, 300, False])
    b.wait_for_timeout(200)  # nothing to wait for: the copy must not come
    expect(ghost).to_have_count(0)
    box.evaluate(_TOUCH, [200, 300, True])
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
