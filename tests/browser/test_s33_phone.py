"""Two layout defects on a phone (issue 11, "A card room, not a form"), held by the boxes the
page draws at 390x844 (and 360 px), in Portuguese and in Spanish:

1. The table's header (the site's top bar, and the table's own top line: the game, its lives,
   the round, Avisos da vez, Histórico, DESISTIR and Pausa) is one line each: the top line
   wrapped its title and stacked DESISTIR over Pausa. Every control keeps its name for a
   screen reader and its focus ring, and the page never slides sideways.
2. FIM DA RODADA with four seats and a go-out out of turn (the tallest panel of a round): the
   last Vidas line is above the sticky PRÓXIMA RODADA bar (it lay under the bar's faded edge
   until the player scrolled), on the first screen and scrolled to the end, while PRÓXIMA
   RODADA stays on the first screen.
3. A spectator who has touched nothing sees no focus ring round FIM DA RODADA's heading: the
   focus goes there by script (for a screen reader), and a heading is not a control; a button
   reached by Tab still shows the ring (WCAG 2.4.7).
4. An empty stock ("Monte · 0") is drawn as an empty slot, as the empty lixo, not as a full
   face-down card; COMPRAR still draws (the lixo becomes the stock) and the card is back.
5. A player who is FORA while the match goes on: SAIR DA MESA / SALIR DE LA MESA is an icon
   beside Historial on a phone; the top line's buttons do not overlap, nothing slides sideways.

The games are planned (``_planner``) and played through the app's own service (AppHarness runs
the backend in this process). Screenshots go to ``$PIFECACHETA_SHOTS_DIR`` (default
``screenshots/s33/``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from _flows import service_or_skip, tab_to
from _fora import ana_out_of_lives
from _planner import find_seed
from _replay import BUTTONS, empty_the_stock, hand, play_planned, play_to_round
from _round_end import PHONE, two_players
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7

_DEFAULT_SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "s33"
SHOTS = Path(os.environ.get("PIFECACHETA_SHOTS_DIR") or _DEFAULT_SHOTS)
NAMES = {
    "pt": ("Avisos da vez", "Histórico", "DESISTIR", "Pausa"),
    "es": ("Avisos del turno", "Historial", "ABANDONAR", "Pausa"),
}
RING = ["solid", "3px", "rgb(255, 210, 127)"]  # assets/focus.css


def _shot(page: Page, name: str, *, end: bool = False) -> None:
    """The screen as the player sees it (the viewport), at the page's top or scrolled to its end."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("(end) => window.scrollTo(0, end ? document.documentElement.scrollHeight : 0)", end)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _box(locator) -> dict:
    """The locator's box in the viewport, with its bottom and right edges."""
    box = locator.bounding_box()
    assert box is not None, locator
    return {**box, "bottom": box["y"] + box["height"], "right": box["x"] + box["width"]}


def _one_row(page: Page, parts: list, row=None) -> None:
    """``parts`` lie inside the screen's width and share one row: each one's vertical middle
    is within the others' boxes; ``row`` (when given) is no taller than its tallest part."""
    width = page.viewport_size["width"]
    boxes = [_box(p) for p in parts]
    for b in boxes:
        assert b["x"] >= 0 and b["right"] <= width, (b, width)
    for b in boxes:
        middle = b["y"] + b["height"] / 2
        assert all(o["y"] <= middle <= o["bottom"] for o in boxes), ("not one row", boxes)
    if row is None:
        return
    outer = _box(row)
    assert outer["height"] <= max(b["height"] for b in boxes) + 2, (outer, boxes)


def _title_is_one_line(title) -> None:
    """The table's title (its heading) is one line of text."""
    lines = title.evaluate(
        "e => e.getClientRects().length === 1 && e.getBoundingClientRect().height"
        " <= 1.5 * parseFloat(getComputedStyle(e).lineHeight)"
    )
    assert lines, ("the title wraps", _box(title))


def _header_is_one_line(page: Page, lang: str, *, two_digits: bool = False) -> None:
    """The top bar and the table's top line are a row each; the title is one line of text
    (with room for a second digit of the round unless ``two_digits``: it has it already)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    bar = page.locator("#page-shell > .rt-Flex").first
    _one_row(
        page,
        [
            bar.locator("a").first,
            bar.get_by_role("combobox"),
            bar.locator("#lang-pt"),
            bar.locator("#lang-es"),
        ],
    )
    top = page.locator("#board .pfc-top > .rt-Flex").first
    title = top.get_by_role("heading", level=1)
    _title_is_one_line(title)
    buttons = [page.get_by_role("button", name=n) for n in NAMES[lang]]
    for b in buttons:
        expect(b).to_be_visible()  # each named for a screen reader (its words, or its label)
    _one_row(page, [title, *buttons], top)
    if page.viewport_size["width"] >= PHONE[0] and not two_digits:
        # room left for a round of two digits ("Rodada 12"): two more digits' width
        room = title.evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return e.getBoundingClientRect().width - r.getBoundingClientRect().width; }"
        )
        assert room >= 20, ("no room for a round of two digits", room)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_the_table_header_is_one_line_on_a_phone(app_harness, new_page):
    # Cacheta with 10 lives: the longest title ("Cacheta · 10 vidas · Rodada 1")
    a, b, _code, _who = two_players(new_page, app_harness, "cacheta10", 3, a_size=PHONE, b_size=PHONE)
    for page, lang in ((a, "pt"), (b, "es")):
        expect(page.locator("#board .pfc-top").get_by_role("heading", level=1)).to_contain_text("10 vidas")
        _header_is_one_line(page, lang)
        _shot(page, f"header_390_{lang}")
        # the keyboard reaches DESISTIR / ABANDONAR and its ring shows, inside the screen
        resign = NAMES[lang][2]
        tab_to(page, f"e => e.id === 'resign-button' && e.getAttribute('aria-label') === '{resign}'")
        ring = page.locator("#resign-button").evaluate(
            "e => { const s = getComputedStyle(e); return [s.outlineStyle, s.outlineWidth, s.outlineColor]; }"
        )
        assert ring == RING, ring
        page.set_viewport_size({"width": 360, "height": 780})
        _header_is_one_line(page, lang)
        _shot(page, f"header_360_{lang}")
        # a wide screen keeps the buttons' words
        page.set_viewport_size({"width": 1366, "height": 900})
        expect(page.locator("#resign-button")).to_have_text(resign, use_inner_text=True)
        expect(page.locator("#pause-button")).to_have_text("Pausa", use_inner_text=True)
        _shot(page, f"header_1366_{lang}")
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        expect(page.locator("#resign-button")).to_have_text("", use_inner_text=True)


def test_the_table_header_is_one_line_at_round_ten(app_harness, new_page):
    # the longest title with a round of two digits: "Cacheta · 10 vidas · Rodada 10", at 390 and
    # 360 px in pt and es (at 360 in pt it wrapped, by 3 px); 1366 keeps the buttons' words
    svc = service_or_skip()
    a, b, code, who = two_players(new_page, app_harness, "cacheta10", 3, a_size=PHONE, b_size=PHONE)
    url = a.url
    for page in (a, b):  # away while the service plays nine rounds (no live update per move)
        page.goto("about:blank")
    play_to_round(svc, code, who, 10)
    for page, lang, word in ((a, "pt", "Rodada"), (b, "es", "Ronda")):
        page.goto(url)
        title = page.locator("#board .pfc-top").get_by_role("heading", level=1)
        expect(title).to_have_text(f"Cacheta · 10 vidas · {word} 10")
        for width, height in (PHONE, (360, 780)):
            page.set_viewport_size({"width": width, "height": height})
            _header_is_one_line(page, lang, two_digits=True)
            _shot(page, f"header_round10_{width}_{lang}")
        page.set_viewport_size({"width": 1366, "height": 900})
        _title_is_one_line(title)
        expect(page.locator("#resign-button")).to_have_text(NAMES[lang][2], use_inner_text=True)
        _shot(page, f"header_round10_1366_{lang}")


def _lives_clear_of_the_bar(page: Page, where: str) -> None:
    """The last Vidas line ends above the sticky bar's top edge (its faded edge included)."""
    last = _box(page.locator("#lives .lives-row").last)
    bar = _box(page.locator("#round-over-actions"))
    assert last["bottom"] <= bar["y"], (where, "the last Vidas line is under the bar", last, bar)


def test_the_last_lives_line_is_clear_of_the_next_round_bar_on_a_phone(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 4, out_of_turn=True, max_actions=60, announce=True)
    a, b, code, who = two_players(
        new_page, app_harness, "cacheta7", seed, a_size=PHONE, b_size=PHONE, others=("Carla", "Davi")
    )
    play_planned(svc, code, who, final, log)
    for page, lang in ((a, "pt"), (b, "es")):
        expect(page.locator("#banner")).to_be_visible()  # out of turn: the tallest headline
        expect(page.locator("#lives .lives-row")).to_have_count(4)
        expect(hand(page)).to_have_count(9)
        # the first screen: PRÓXIMA RODADA on it whole, and the last Vidas line above its bar
        page.evaluate("() => window.scrollTo(0, 0)")
        button = page.get_by_role("button", name=BUTTONS[lang]["next"])
        expect(button).to_be_in_viewport(ratio=1)
        _lives_clear_of_the_bar(page, "first screen")
        _shot(page, f"round_over_390_{lang}")
        # scrolled to the end of the page, and the last line brought into view by the browser
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        _lives_clear_of_the_bar(page, "scrolled to the end")
        _shot(page, f"round_over_end_390_{lang}", end=True)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.locator("#lives .lives-row").last.evaluate("e => e.scrollIntoView({block: 'nearest'})")
        _lives_clear_of_the_bar(page, "scrolled into view")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    a.set_viewport_size({"width": 1366, "height": 900})
    expect(a.get_by_role("button", name=BUTTONS["pt"]["next"])).to_be_in_viewport(ratio=1)
    _shot(a, "round_over_1366_pt")


def _outline(locator) -> list[str]:
    """The element's computed outline: style, width, colour."""
    return locator.evaluate(
        "e => { const s = getComputedStyle(e); return [s.outlineStyle, s.outlineWidth, s.outlineColor]; }"
    )


def test_a_spectator_sees_no_ring_round_the_round_over_heading(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=False, max_actions=40)
    a, _b, code, who = two_players(new_page, app_harness, "cacheta7", seed)
    s = new_page(width=1920, height=1080)  # a spectator who touches nothing
    s.goto(a.url)
    expect(s.get_by_test_id("stock")).to_be_visible()
    play_planned(svc, code, who, final, log)
    title = s.locator("#round-title")
    expect(title).to_have_text("FIM DA RODADA")
    expect(title).to_be_focused()  # still where a screen reader lands
    outline = _outline(title)
    assert outline[0] == "none" and outline[1] == "0px", outline
    _shot(s, "round_over_1920_pt_spectator")
    # the keyboard's next stop, a button, shows the ring
    tab_to(s, "e => e.tagName === 'BUTTON'")
    assert _outline(s.locator(":focus")) == RING


def test_an_empty_stock_shows_an_empty_slot(app_harness, new_page):
    svc = service_or_skip()
    a, b, code, who = two_players(new_page, app_harness, "pife", 7, b_size=PHONE)
    stock = {"pt": a.get_by_test_id("stock"), "es": b.get_by_test_id("stock")}
    expect(stock["pt"]).not_to_contain_text("vazio")
    empty_the_stock(svc, code, who)
    for place, words in zip(stock.values(), (("Monte", "vazio"), ("Mazo", "vacío")), strict=True):
        expect(place).to_have_attribute("aria-label", f"{words[0]} 0")  # still says the count
        expect(place).to_contain_text(words[1])
        expect(place.locator(".stock-empty")).to_have_text(words[1])
        expect(place.locator(".stock-back")).to_have_count(0)
    turn = svc.snapshot(code, None).view.turn
    page, lang = ((a, "pt"), (b, "es"))[turn]
    _shot(page, f"stock_empty_{lang}")
    page.get_by_role("button", name=BUTTONS[lang]["draw"]).click()  # COMPRAR still draws
    expect(hand(page)).to_have_count(10)
    expect(stock[lang].locator(".stock-back")).to_have_count(1)  # the lixo became the stock
    expect(stock[lang]).not_to_have_attribute("aria-label", re.compile(r" 0$"))


def _apart(page: Page, lang: str) -> None:
    """The table's top line of a FORA player: the title and each button on one row, inside the
    screen, no two boxes overlapping; SAIR DA MESA named in ``lang`` and drawn as an icon."""
    page.evaluate("() => window.scrollTo(0, 0)")
    top = page.locator("#board .pfc-top > .rt-Flex").first
    leave = top.get_by_role("button", name=LEAVE[lang])
    expect(leave).to_be_visible()
    expect(top.get_by_role("button", name=NAMES[lang][1])).to_be_visible()  # Histórico
    parts = [top.get_by_role("heading", level=1), *top.get_by_role("button").all()]
    _one_row(page, parts)
    boxes = [_box(p) for p in parts]
    for i, b in enumerate(boxes):
        for o in boxes[i + 1 :]:
            side = b["right"] <= o["x"] or o["right"] <= b["x"]
            apart = side or b["bottom"] <= o["y"] or o["bottom"] <= b["y"]
            assert apart, ("overlap", b, o)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]
    expect(leave).to_have_text("", use_inner_text=True)  # an icon on a phone


LEAVE = {"pt": "SAIR DA MESA", "es": "SALIR DE LA MESA"}


def test_a_fora_players_top_line_is_apart_on_a_phone(app_harness, new_page):
    svc = service_or_skip()
    a = new_page(width=PHONE[0], height=PHONE[1])
    b = new_page()
    _code, url = ana_out_of_lives(svc, app_harness.frontend_url, a, b)
    b.goto(url)
    b.get_by_role("button", name="PRÓXIMA RODADA").click()
    a.goto(url)
    expect(a.locator("#status-line")).to_have_text("Você está FORA: acompanhe a partida.")
    _apart(a, "pt")
    _shot(a, "fora_390_pt")
    a.locator("#lang-es").click()
    expect(a.locator("#status-line")).to_contain_text("FUERA")
    _apart(a, "es")
    _shot(a, "fora_390_es")
