"""WCAG 2.1 AA by keyboard (issue 16): a Pife created and played by keyboard alone (the lobby's
game choice, the stock, the discard pile and the hand's roving focus), the focus ring of every
control of the table, the names of the boxes and of the hand's cards, and reflow at 320 px.

No mouse event in the keyboard test: controls are reached with Tab / Shift+Tab (or focused
programmatically, which is what a screen reader's "move to" does) and pressed with keys.
"""

from __future__ import annotations

import re

from _flows import fast_bots, tab_to
from _replay import hand, wait_my_turn
from playwright.sync_api import Page, expect

RING = {"outlineStyle": "solid", "outlineWidth": "3px", "outlineColor": "rgb(255, 210, 127)"}
# the outline of a focused element; a text box's ring is on its Radix frame (assets/focus.css)
_RING_JS = """e => {
    const t = e.closest('.rt-TextFieldRoot, .rt-TextAreaRoot') || e;
    const s = getComputedStyle(t);
    return [s.outlineStyle, s.outlineWidth, s.outlineColor];
}"""

_WHAT_JS = "e => e.tagName + ' ' + (e.getAttribute('aria-label') || e.textContent || '').slice(0, 30)"


def _assert_ring(page: Page, locator) -> None:
    style, width, colour = locator.evaluate(_RING_JS)
    assert (style, width, colour) == tuple(RING.values()), (style, width, colour)


def _from_top(page: Page) -> None:
    """Move the focus (and the browser's Tab starting point) to the top of the page."""
    page.evaluate(
        "() => { const b = document.body; b.tabIndex = -1; b.focus(); b.removeAttribute('tabindex'); }"
    )


def _focused_id(page: Page) -> str:
    return str(page.evaluate("document.activeElement.id"))


def _keyboard_pife(page: Page, url: str, shot=None) -> None:
    """The lobby by keyboard: type the name, arrow to Pife, CRIAR MESA with Enter; then
    COMPLETAR COM ROBÔS and COMEÇAR with Enter."""
    page.goto(url)
    page.get_by_role("textbox", name="Seu nome").focus()  # the label is tied to its box
    page.keyboard.type("Ana")
    page.keyboard.press("Tab")  # into the game choice, on the chosen game (Cacheta 7)
    expect(page.get_by_role("radio", name=re.compile("^Cacheta, 7"))).to_be_focused()
    # held for 50 ms as a hand would: Radix moves the focus a tick after the key goes down, and
    # checks the radio it lands on only while the arrow is still down
    page.keyboard.press("ArrowLeft", delay=50)
    pife = page.get_by_role("radio", name=re.compile("^Pife"))
    expect(pife).to_be_focused()
    # on a loaded machine Radix's tick can outlast the key's 50 ms, leaving the radio focused
    # but not checked: Space checks the focused radio, as a keyboard user would press it
    page.keyboard.press("Space")
    expect(pife).to_be_checked()
    _assert_ring(page, pife)
    if shot:
        shot(page, "a11y_focus_radio")
    for stop in ("#house-summary", "#house-hints"):  # Regras da casa (folded), then Dicas
        page.keyboard.press("Tab")
        expect(page.locator(stop)).to_be_focused()
        _assert_ring(page, page.locator(stop))
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="CRIAR MESA")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url("**/mesa/**")
    expect(page.get_by_role("textbox", name="Link de convite")).to_have_value(page.url)
    # the new page's title has the focus (not the body): a screen reader reads the waiting room
    # from its title, and Tab goes on from there to the creator's controls (WCAG 2.4.3)
    expect(page.get_by_role("heading", name="Mesa · Pife")).to_be_focused()
    # a title is not a control: no focus ring round it (assets/focus.css)
    assert page.get_by_role("heading", name="Mesa · Pife").evaluate(_RING_JS)[0] == "none"
    tab_to(page, "e => e.textContent === 'COMPLETAR COM ROBÔS'", limit=6)
    page.keyboard.press("Enter")
    expect(page.locator(".lobby-seat").filter(has_text="Luna")).to_be_visible()
    expect(page.locator("#add-bots")).to_have_count(0)  # the room's last change: it has settled
    page.get_by_role("button", name="COMEÇAR").focus()
    page.keyboard.press("Enter")
    expect(hand(page)).to_have_count(9)


def test_a_pife_created_and_played_by_keyboard_alone(app_harness, new_page, shot):
    a = new_page()
    _keyboard_pife(a, app_harness.frontend_url, shot)
    with fast_bots():
        # turn 1: Enter on the stock (COMPRAR), arrows in the hand, Space selects, Enter discards
        wait_my_turn(a)
        _from_top(a)
        tab_to(a, "e => e.dataset.testid === 'stock'")
        _assert_ring(a, a.get_by_test_id("stock"))
        shot(a, "a11y_focus_stock")
        a.keyboard.press("Enter")
        expect(hand(a)).to_have_count(10)
        # the focus went to the card just drawn (WCAG 2.4.3); Home goes to the first card
        expect(a.locator("#hand .hand-card:has(.drawn-mark)")).to_be_focused()
        a.keyboard.press("Home")
        assert _focused_id(a) == "hand-pos-0"
        card = a.locator("#hand-pos-0")
        expect(card).to_have_attribute("aria-pressed", "false")
        expect(
            a.get_by_role("button", name=card.get_attribute("aria-label"), pressed=False).first
        ).to_be_visible()
        _assert_ring(a, card)
        for key, where in (("ArrowRight", 1), ("ArrowRight", 2), ("Home", 0), ("End", 9), ("ArrowLeft", 8)):
            a.keyboard.press(key)
            expect(a.locator(f"#hand-pos-{where}")).to_be_focused()
        assert a.evaluate("window.scrollY") == 0  # the arrows move the focus, not the page
        a.keyboard.press(" ")
        chosen = a.locator("#hand-pos-8")
        expect(chosen).to_have_attribute("aria-pressed", "true")
        name = chosen.get_attribute("aria-label")
        expect(a.get_by_role("button", name=name, pressed=True)).to_have_count(1)
        shot(a, "a11y_focus_card_selected")
        face = chosen.locator("[data-card]").get_attribute("id")
        a.keyboard.press("Enter")  # Enter on the selected card discards it
        expect(a.locator(f'#hand [id="{face}"]')).to_have_count(0)
        expect(hand(a)).to_have_count(9)
        # the focus stays in the hand (the next card took the discarded one's place)
        expect(a.locator("#hand-pos-8")).to_be_focused()

        # turn 2: Enter on the discard pile takes its top card (PEGAR DO LIXO); a card selected
        # with Enter is discarded with Enter on the pile
        wait_my_turn(a)
        top = a.get_by_test_id("discard").locator("[data-card]").get_attribute("data-card")
        tab_to(a, "e => e.dataset.testid === 'discard'", back=True)
        _assert_ring(a, a.get_by_test_id("discard"))
        shot(a, "a11y_focus_discard")
        a.keyboard.press("Enter")
        expect(hand(a)).to_have_count(10)
        # the focus went to the card taken, in the hand
        expect(a.locator(f'#hand .hand-card:has([data-card="{top}"])')).to_be_focused()
        a.keyboard.press("Home")
        pos = 1 if a.locator("#hand-pos-0 [data-card]").get_attribute("data-card") == top else 0
        if pos:
            a.keyboard.press("ArrowRight")
        chosen = a.locator(f"#hand-pos-{pos}")
        face = chosen.locator("[data-card]").get_attribute("id")
        a.keyboard.press("Enter")
        expect(chosen).to_have_attribute("aria-pressed", "true")
        tab_to(a, "e => e.dataset.testid === 'discard'", back=True)
        a.keyboard.press(" ")
        expect(a.locator(f'#hand [id="{face}"]')).to_have_count(0)
        expect(hand(a)).to_have_count(9)


def test_every_control_of_the_table_shows_the_focus_ring(app_harness, new_page, shot):
    a = new_page()
    _keyboard_pife(a, app_harness.frontend_url)
    with fast_bots():  # Ana deals, so the bots play first: COMPRAR is enabled on her turn only
        wait_my_turn(a)
    _from_top(a)
    seen: list[str] = []
    for _ in range(40):
        a.keyboard.press("Tab")
        what = a.evaluate(f"({_WHAT_JS})(document.activeElement)")
        if what.startswith("BODY"):
            break
        style = a.evaluate(f"({_RING_JS})(document.activeElement)")
        assert tuple(style) == tuple(RING.values()), (what, style)
        seen.append(what)
    # the controls of every colour were among them: amber, red, grey, the stock, the pile, a card
    text = " | ".join(seen)
    for name in ("COMPRAR", "DESISTIR", "Pausa", "Monte", "Lixo", "POR VALOR", " de "):
        assert name in text, (name, text)
    for control, name in (("resign", "DESISTIR"), ("draw", "COMPRAR")):
        _from_top(a)
        tab_to(a, f"e => (e.textContent || '').trim() === '{name}'")
        shot(a, f"a11y_focus_{control}")


def test_names_of_the_boxes_and_reflow_at_320_px(app_harness, new_page, shot):
    a = new_page(width=320, height=700)
    a.goto(app_harness.frontend_url)
    expect(a.get_by_role("textbox", name="Seu nome")).to_be_visible()
    expect(a.get_by_role("radiogroup", name="Jogo")).to_be_visible()

    def no_sideways_scroll(page: Page, where: str) -> None:
        for lang in ("es", "pt"):
            page.locator(f"#lang-{lang}").press("Enter")
            expect(page.locator(f"#lang-{lang}")).to_have_attribute("aria-pressed", "true")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 320, f"{where} ({lang}) is {width} px wide at 320 px"
            shot(page, f"a11y_320_{where}_{lang}")

    no_sideways_scroll(a, "lobby")
    a.get_by_role("textbox", name="Seu nome").fill("Ana")
    a.get_by_role("radio", name=re.compile("^Pife")).press(" ")
    a.get_by_role("button", name="CRIAR MESA").press("Enter")
    a.wait_for_url("**/mesa/**")
    expect(a.get_by_role("textbox", name="Link de convite")).to_have_value(a.url)
    # someone arriving through the link: the name box of the waiting room is named
    b = new_page(width=320, height=700)
    b.goto(a.url)
    expect(b.get_by_role("textbox", name="Seu nome")).to_be_visible()
    no_sideways_scroll(b, "waiting_room")
    a.get_by_role("button", name="COMPLETAR COM ROBÔS").press("Enter")
    expect(a.locator("#add-bots")).to_have_count(0)  # the room's last change: it has settled
    expect(a.get_by_role("button", name="COMEÇAR")).to_be_enabled()
    a.get_by_role("button", name="COMEÇAR").press("Enter")
    expect(hand(a)).to_have_count(9)
    expect(
        a.get_by_role("toolbar", name="Sua mão").get_by_role("button", name=re.compile(" de "))
    ).to_have_count(9)
    no_sideways_scroll(a, "table")


_IN_LOBBY = "e => !!e.closest('#lobby')"
_WHERE_JS = "e => e.closest('.lobby-side') ? 'side' : (e.closest('.lobby-create') ? 'create' : 'other')"


def test_the_tab_order_of_the_lobby_follows_what_a_phone_shows(app_harness, new_page):
    """A newcomer's first stop in the lobby is the create form; once MINHAS MESAS lists a
    table, a phone shows it first and Tab reaches it first too (WCAG 1.3.2, 2.4.3)."""
    a = new_page(width=390, height=844)
    a.goto(app_harness.frontend_url)
    expect(a.locator(".lobby-side")).to_be_visible()
    _from_top(a)
    tab_to(a, _IN_LOBBY)
    assert a.evaluate(f"({_WHERE_JS})(document.activeElement)") == "create"
    a.get_by_role("textbox", name="Seu nome").fill("Ana")
    a.get_by_role("button", name="CRIAR MESA").press("Enter")
    a.wait_for_url("**/mesa/**")
    a.goto(app_harness.frontend_url)
    row = a.locator(".my-table")
    expect(row).to_have_count(1)
    side_top = a.locator(".lobby-side").bounding_box()["y"]
    assert side_top < a.locator(".lobby-create").bounding_box()["y"]  # shown first on a phone
    _from_top(a)
    tab_to(a, _IN_LOBBY)
    assert a.evaluate(f"({_WHERE_JS})(document.activeElement)") == "side"
    tab_to(a, "e => e.classList.contains('my-table')", limit=4)  # the table, before the name box
    expect(row).to_be_focused()


def test_enter_in_a_name_box_sends_its_form(app_harness, new_page):
    """Enter in the lobby's name box is CRIAR MESA, and in the waiting room's SENTAR À MESA (a
    newcomer typed a name and pressed Enter, and nothing happened): the name typed just before
    is the one used."""
    a = new_page()
    a.goto(app_harness.frontend_url)
    box = a.locator("#name-input")
    box.click()
    box.press_sequentially("Kiko")
    box.press("Enter")
    a.wait_for_url("**/mesa/**")
    expect(a.locator(".lobby-seat").filter(has_text="Kiko")).to_be_visible()
    b = new_page(width=390, height=844, locale="es-AR")
    b.goto(a.url)
    join = b.locator("#join-name")
    join.click()
    join.press_sequentially("Lola")
    join.press("Enter")
    expect(b.locator(".lobby-seat").filter(has_text="Lola")).to_be_visible()
    expect(a.locator(".lobby-seat").filter(has_text="Lola")).to_be_visible()
    expect(join).to_have_count(0)  # seated: the box is gone
