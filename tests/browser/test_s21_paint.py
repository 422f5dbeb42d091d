"""Session 21's newcomer leftovers, in a real browser (issue 11):

- the status line after a card is chosen says that Enter (again) discards it, in pt and es;
- the board at 1366x900 is no taller than the screen: a page that scrolls makes the sticky
  history panel a compositor layer of its own, and with it the board's parts (bench/README.md,
  "Why the card room paints slower");
- the waiting room's Tab order reaches + ROBÔ and COMPLETAR COM ROBÔS before the invite tools
  (it took 11 Tabs after CRIAR MESA), at 390 and 1366 px;
- CRIAR MESA is on a 390x844 phone's first screen, in pt and es;
- the deal's SHA-256 codes sit behind a closed ``<details>`` ("Ver os códigos (SHA-256)" /
  "Ver los códigos (SHA-256)"), which a keyboard opens.
"""

from __future__ import annotations

from _flows import create_table, start_two
from _replay import hand
from playwright.sync_api import expect


def test_chosen_card_hint_says_enter_discards(app_harness, new_page, shots_all):
    a, b = start_two(new_page, app_harness, "cacheta7", 11, b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    b.get_by_role("button", name="ROBAR", exact=True).click()  # Bruno plays first
    expect(hand(b)).to_have_count(10)
    first = b.locator("#hand .hand-card").first
    first.focus()
    b.keyboard.press("Enter")  # chosen by keyboard
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(b.locator("#status-line")).to_have_text(
        "Carta elegida: haz clic en el pozo para descartarla (con el teclado, Enter otra vez).",
        use_inner_text=True,
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
        "Carta escolhida: clique no lixo para descartar (no teclado, Enter de novo).", use_inner_text=True
    )
    # the table fits a 1366x900 screen: the page does not scroll
    assert a.evaluate("() => document.documentElement.scrollHeight") <= 900
    shots_all(a, "s21paint_table_chosen")


def _tab_order(page, ids: tuple[str, ...], limit: int = 40) -> list[str]:
    """The ids among ``ids`` in the order Tab reaches them from the page's start."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.locator("body").focus()
    seen: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement && document.activeElement.id")
        if focused in ids and focused not in seen:
            seen.append(focused)
    return seen


def test_waiting_room_puts_the_creators_controls_before_the_invite(app_harness, new_page, shots_all):
    a = new_page(width=390, height=844)
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    order = _tab_order(a, ("add-one-bot", "add-bots", "invite-url", "copy-link"))
    assert order[:2] == ["add-one-bot", "add-bots"], order
    a.set_viewport_size({"width": 1366, "height": 900})  # the card room: the same order
    expect(a.locator(".room-centre #add-bots")).to_be_visible()
    assert _tab_order(a, ("add-one-bot", "add-bots", "invite-url"))[:2] == ["add-one-bot", "add-bots"]
    shots_all(a, "s21paint_room")


def test_deal_codes_behind_a_disclosure(app_harness, new_page, monkeypatch, shots_all):
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")  # a committed deal (read at each deal)
    a = new_page(width=390, height=844)
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    b = new_page(locale="es-AR")
    b.goto(a.url)
    for page, words in ((a, "Ver os códigos (SHA-256)"), (b, "Ver los códigos (SHA-256)")):
        summary = page.locator("#deal-details > summary")
        expect(summary).to_have_text(words)
        pending = page.locator("#deal-pending")
        expect(pending).to_be_hidden()  # closed at first: 64 hex digits in nobody's way
        summary.focus()
        page.keyboard.press("Enter")  # a keyboard opens it
        expect(pending).to_be_visible()
        expect(page.locator("#deal-details")).to_have_attribute("open", "")
        assert len(pending.locator(".deal-hex").inner_text().strip()) == 64
    shots_all(a, "s21paint_room_codes_open")


def test_create_table_is_on_a_phones_first_screen(app_harness, new_page, shots_all):
    for locale in ("pt-BR", "es-AR"):
        page = new_page(width=390, height=844, locale=locale)
        page.goto(app_harness.frontend_url)
        create = page.get_by_role("button", name="CRIAR MESA" if locale == "pt-BR" else "CREAR MESA")
        expect(create).to_be_visible()
        box = create.bounding_box()
        assert box["y"] + box["height"] <= 844, (locale, box)  # no scroll to reach it
    shots_all(page, "s21paint_lobby")
