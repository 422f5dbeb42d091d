"""The hand on a phone: a tap selects in the browser alone, and a double tap at human pace
discards the card under the finger.

The selected card lives in the browser (components/table/shared.py: SELECTED), so a tap sends nothing to
the server. Selecting swaps the status line's discard hint for a shorter one; that line once
shrank and moved the whole hand up, so the second tap of a double tap landed on the card of
the next row, which was discarded instead; a refusal shown above the hand did the same when
the first tap dismissed it.
"""

from __future__ import annotations

from _flows import start_two
from _replay import hand
from playwright.sync_api import expect


def test_tap_and_double_tap_on_a_phone(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "cacheta7", 11, b_size=(390, 844))
    a.get_by_role("button", name="COMEÇAR").click()
    b.get_by_role("button", name="COMPRAR", exact=True).click()  # Bruno plays first
    expect(hand(b)).to_have_count(10)
    sent: list[str] = []
    b.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    b.reload()  # the listener sees the page's socket from its start
    expect(hand(b)).to_have_count(10)
    status = b.locator("#status-line")
    expect(status).to_contain_text("Descarte uma carta")

    first, below = b.locator("#hand .hand-card").nth(0), b.locator("#hand .hand-card").nth(5)
    box, box_below = first.bounding_box(), below.bounding_box()
    assert box_below["y"] > box["y"] + box["height"] / 2  # two rows on a phone
    sent.clear()
    first.click()
    # a phone-sized window with a mouse: the hint in a mouse's words
    expect(status).to_have_text(
        "Carta escolhida: clique no lixo para descartar (no teclado, Enter de novo).", use_inner_text=True
    )
    assert first.bounding_box() == box  # nothing moved under the finger
    b.wait_for_timeout(300)
    assert sent == []  # the selection never left the browser
    first.click()  # a second tap unselects
    expect(status).to_contain_text("Descarte uma carta")

    # a refusal (the stock, on the discard turn) floats over the page: the hand stays put, and
    # the first tap of a double tap dismisses it without moving the hand either
    b.get_by_test_id("stock").click()
    expect(b.locator("#message")).to_be_visible()
    assert first.bounding_box() == box
    # a double tap at a person's pace: 150 ms between the taps
    code = hand(b).nth(0).get_attribute("data-card")
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8  # low on the card
    b.mouse.click(x, y)
    b.wait_for_timeout(150)
    b.mouse.click(x, y, click_count=2)
    expect(hand(b)).to_have_count(9)
    for p in (a, b):
        expect(p.get_by_test_id("discard").locator("[data-card]")).to_have_attribute("data-card", code)

    # a refusal left alone stays until dismissed (WCAG 2.2.1): a tap on it closes it ...
    b.get_by_test_id("stock").click()  # not Bruno's turn any more
    toast = b.locator("#message")
    expect(toast).to_have_text("Não é a sua vez.")
    # no timer hides it: neither it nor its frame runs an animation (the old fade-out did)
    assert toast.evaluate(
        "e => [e, e.parentElement].every(x => getComputedStyle(x).animationName === 'none')"
    )
    toast.click()
    expect(toast).to_have_count(0)
    # ... and the next one shows again
    b.get_by_test_id("stock").click()
    expect(toast).to_be_visible()
