"""Arranging one's hand (issue 11, item 3; defect 5): a card dragged onto another takes its
place (mouse), Alt+Left / Alt+Right move the focused card one place, the order survives a
reload (localStorage ``pc_hand_order``), POR NAIPE / POR VALOR go back to a sort; on a touch
screen the lifted card, moved by a finger, goes to the lixo.

Bruno plays first (Ana deals), so he arranges and discards; Ana watches the lixo.
"""

from __future__ import annotations

from _flows import start_two
from _replay import hand
from playwright.sync_api import Page, expect

from pifecacheta.state.hand_order import move_before, nudge


def _ids(page: Page) -> list[str]:
    return [i[len("card-") :] for i in hand(page).evaluate_all("els => els.map(e => e.id)")]


def _card(page: Page, card_id: str):
    return page.locator(f'#hand .hand-card:has([id="card-{card_id}"])')


def test_drag_alt_arrows_reload_and_the_sorts(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "pife", 31)
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(b)).to_have_count(9)
    before = _ids(b)
    expect(b.locator("#sort-suit")).to_have_attribute("aria-pressed", "true")
    expect(b.locator("#arrange-hint")).to_have_text(
        "Arraste uma carta sobre outra para arrumar a mão; no teclado, Alt + setas."
    )
    # the mouse: the first card dragged onto the fourth takes its place
    _card(b, before[0]).drag_to(_card(b, before[3]))
    want = move_before(before, before[0], before[3])
    expect(hand(b).nth(3)).to_have_attribute("id", f"card-{before[0]}")
    assert _ids(b) == want
    # the hand shows the player's own order: neither sort is pressed
    expect(b.locator("#sort-suit")).to_have_attribute("aria-pressed", "false")
    expect(b.locator("#sort-rank")).to_have_attribute("aria-pressed", "false")
    # the keyboard: Alt+Right moves the focused card one place, and the focus goes with it
    b.locator("#hand-pos-1").focus()
    moved = want[1]
    b.keyboard.press("Alt+ArrowRight")
    want = nudge(want, moved, 1)
    expect(hand(b).nth(2)).to_have_attribute("id", f"card-{moved}")
    assert _ids(b) == want
    expect(b.locator("#hand-pos-2")).to_be_focused()
    b.keyboard.press("Alt+ArrowLeft")
    want = nudge(want, moved, -1)
    expect(hand(b).nth(1)).to_have_attribute("id", f"card-{moved}")
    # a plain arrow still only moves the focus
    b.keyboard.press("ArrowRight")
    expect(b.locator("#hand-pos-2")).to_be_focused()
    assert _ids(b) == want
    # kept across a reload; the card drawn next comes after the arranged ones
    b.reload()
    expect(hand(b)).to_have_count(9)
    assert _ids(b) == want
    b.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    assert _ids(b)[:9] == want
    # POR VALOR goes back to a sort, pressed; so does POR NAIPE
    b.locator("#sort-rank").click()
    expect(b.locator("#sort-rank")).to_have_attribute("aria-pressed", "true")
    order = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    ranks = [order.index(c.rstrip("'")[:-1]) for c in _ids(b)]
    assert ranks == sorted(ranks)
    b.locator("#sort-suit").click()
    expect(b.locator("#sort-suit")).to_have_attribute("aria-pressed", "true")
    expect(b.locator("#sort-rank")).to_have_attribute("aria-pressed", "false")


def test_a_finger_moves_the_lifted_card_to_the_lixo(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "pife", 33, b_size=(390, 844))
    a.get_by_role("button", name="COMEÇAR").click()
    b.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    card_id = _ids(b)[0]
    card = _card(b, card_id)
    card.click()  # a tap lifts it; a lifted card does not scroll the page under a finger
    expect(card).to_have_attribute("aria-pressed", "true")
    assert card.evaluate("el => getComputedStyle(el).touchAction") == "none"
    pile = b.get_by_test_id("discard").bounding_box()
    # the finger goes down on the lifted card and up over the lixo
    card.evaluate(
        """(el, [x, y]) => {
            const r = el.getBoundingClientRect();
            const t0 = new Touch({identifier: 1, target: el, clientX: r.x + 10, clientY: r.y + 10});
            const down = {bubbles: true, touches: [t0], changedTouches: [t0]};
            el.dispatchEvent(new TouchEvent('touchstart', down));
            const t1 = new Touch({identifier: 1, target: el, clientX: x, clientY: y});
            el.dispatchEvent(new TouchEvent('touchend', {bubbles: true, touches: [], changedTouches: [t1]}));
        }""",
        [pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2],
    )
    expect(hand(b)).to_have_count(9)
    code = card_id.rstrip("'")
    for p in (a, b):
        expect(p.get_by_test_id("discard").locator("[data-card]")).to_have_attribute("data-card", code)
    # a finger lifted where it went down (a tap) changes nothing: the others are not moved
    other = _ids(b)
    _card(b, other[0]).click()
    assert _ids(b) == other
