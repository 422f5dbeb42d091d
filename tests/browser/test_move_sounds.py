"""The moves' optional sounds (issue 11, item 2): off until the player turns them on in the
pause menu; then each draw, take and discard at the table mounts one sound (card up, card
down), also for another seat's move; the choice survives a reload; turned off, nothing plays."""

from __future__ import annotations

from _flows import start_two
from _replay import hand
from playwright.sync_api import Page, expect


def _switch(page: Page, on: bool) -> None:
    """Open the pause menu, set SOM DOS LANCES to ``on`` (after checking where it was), close."""
    page.locator("#pause-button").click()
    switch = page.locator("#move-sound-switch")
    expect(switch).to_have_accessible_name("Som dos lances (comprar, pegar do lixo, descartar)")
    if (switch.get_attribute("aria-checked") == "true") != on:
        switch.click()
    expect(switch).to_have_attribute("aria-checked", "true" if on else "false")
    page.keyboard.press("Escape")
    expect(switch).to_have_count(0)


def test_move_sounds_are_off_until_turned_on_and_kept(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "pife", 33)
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    # off by default: Bruno's draw plays nothing on Ana's page
    a.locator("#pause-button").click()
    expect(a.locator("#move-sound-switch")).to_have_attribute("aria-checked", "false")
    a.keyboard.press("Escape")
    b.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    expect(a.get_by_text("Bruno comprou do monte").first).to_be_visible()
    expect(a.locator("#move-sound")).to_have_count(0)
    # on: Bruno's discard sounds on Ana's page, a card laid down
    _switch(a, True)
    expect(a.locator("#move-sound")).to_have_attribute("data-move", "draw")  # the move on show
    hand(b).nth(0).dblclick()
    expect(a.locator("#move-sound")).to_have_attribute("data-move", "discard")
    expect(a.locator("#move-sound")).to_have_attribute("src", "/card-down.wav")
    expect(a.locator("#move-sound")).to_have_attribute("aria-hidden", "true")
    # kept across a reload; her own draw sounds as a card taken
    a.reload()
    expect(hand(a)).to_have_count(9)
    a.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(a)).to_have_count(10)
    expect(a.locator("#move-sound")).to_have_attribute("data-move", "draw")
    expect(a.locator("#move-sound")).to_have_attribute("src", "/card-up.wav")
    # off again: nothing is mounted, whatever the moves
    _switch(a, False)
    expect(a.locator("#move-sound")).to_have_count(0)
    hand(a).nth(0).dblclick()
    expect(hand(a)).to_have_count(9)
    expect(a.locator("#move-sound")).to_have_count(0)
    # Bruno never turned them on: his page has none
    expect(b.locator("#move-sound")).to_have_count(0)
