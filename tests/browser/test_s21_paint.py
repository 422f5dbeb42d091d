"""Session 21's newcomer leftovers, in a real browser (issue 11):

- the status line after a card is chosen says that Enter (again) discards it, in pt and es;
- the board at 1366x900 is no taller than the screen: a page that scrolls makes the sticky
  history panel a compositor layer of its own, and with it the board's parts (bench/README.md,
  "Why the card room paints slower").
"""

from __future__ import annotations

from _flows import start_two
from _replay import hand
from playwright.sync_api import expect


def test_chosen_card_hint_says_enter_discards(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "cacheta7", 11, b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    b.get_by_role("button", name="ROBAR", exact=True).click()  # Bruno plays first
    expect(hand(b)).to_have_count(10)
    first = b.locator("#hand .hand-card").first
    first.focus()
    b.keyboard.press("Enter")  # chosen by keyboard
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(b.locator("#status-line")).to_have_text(
        "Carta elegida: toca el pozo para descartarla (con el teclado, Enter otra vez)."
    )
    # the same words in Portuguese, once Ana has a card to discard
    b.keyboard.press("Enter")  # ... and Enter again discards it
    expect(hand(b)).to_have_count(9)
    a.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(a)).to_have_count(10)
    card = a.locator("#hand .hand-card").first
    card.focus()
    a.keyboard.press("Enter")
    expect(a.locator("#status-line")).to_have_text(
        "Carta escolhida: toque no lixo para descartar (no teclado, Enter de novo)."
    )
    # the table fits a 1366x900 screen: the page does not scroll
    assert a.evaluate("() => document.documentElement.scrollHeight") <= 900
