"""The table at desktop width (issue 11, item 1): the other seats around the felt, their hands
as fanned backs, the centre in the middle, the viewer's hand below, all in one screen at
1366x900 and 1920x1080, FIM DA RODADA too (the panel takes the felt's middle and the hand's
rows and shows all of it without scrolling inside itself: the melds, the lives and PRÓXIMA
RODADA in the screen, none over another; the out-of-turn announcement covers neither its
heading nor its buttons, and wraps on a phone); the phone keeps its column.

Ana (pt) and Bruno (es) play in browsers, Carla and Davi through the app's own service.
Screenshots of the lobby, the waiting room, the table mid-round, FIM DA RODADA and FIM DA
PARTIDA at 390x844, 1366x900 and 1920x1080 in pt and es go to ``$PIFECACHETA_SHOTS_DIR``
(default ``screenshots/desktop/``).
"""

from __future__ import annotations

import os
from pathlib import Path

from _flows import browser_identity, create_table, join_table, service_or_skip
from _planner import find_seed
from _replay import hand, play_moves, play_planned
from _round_end import DESKTOP, two_players
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7, PIFE

_DEFAULT_SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "desktop"
SHOTS = Path(os.environ.get("PIFECACHETA_SHOTS_DIR") or _DEFAULT_SHOTS)
SIZES = ((390, 844), (1366, 900), (1920, 1080))


def _shots(page: Page, name: str, lang: str) -> None:
    """What the screen shows at each of SIZES: ``SHOTS/<name>_<width>_<lang>.png``; the page is
    left at its first size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(250)  # the layout settles (no state to wait on: a resize)
        page.screenshot(path=str(SHOTS / f"{name}_{w}_{lang}.png"))
    page.set_viewport_size(size)


def _shots_now(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _rect(page: Page, selector: str) -> dict:
    """The first match's box in the viewport (CSS px), painted or faded out."""
    return page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; }",
        selector,
    )


def _all_in_screen(page: Page, selectors: list[str]) -> None:
    """Every element matching each selector lies inside the viewport, scrolled to the top."""
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    page.evaluate("() => window.scrollTo(0, 0)")
    for selector in selectors:
        items = page.locator(selector)
        assert items.count() > 0, selector
        for item in items.all():
            box = item.bounding_box()
            assert box is not None, selector
            assert box["y"] >= 0 and box["y"] + box["height"] <= vh + 1, (selector, box, vh)
            assert box["x"] >= 0 and box["x"] + box["width"] <= vw + 1, (selector, box, vw)


def _panel_whole(page: Page, parts: list[str]) -> None:
    """FIM DA RODADA / DA PARTIDA at this page's (desktop) size: the panel does not scroll
    inside itself, and each of ``parts`` (and the heading) lies inside the viewport, none of
    them over another."""
    page.evaluate("() => window.scrollTo(0, 0)")
    inner = page.locator("#round-over").evaluate("(e) => [e.scrollHeight, e.clientHeight]")
    assert inner[0] <= inner[1] + 2, ("the panel scrolls inside itself", inner, page.viewport_size)
    _all_in_screen(page, ["#round-title", *parts])
    boxes = [(part, _box(page, part)) for part in ["#round-title", *parts]]
    for i, (one, a) in enumerate(boxes):
        for two, b in boxes[i + 1 :]:
            apart = (
                a["y"] + a["height"] <= b["y"] + 1
                or b["y"] + b["height"] <= a["y"] + 1
                or a["x"] + a["width"] <= b["x"] + 1
                or b["x"] + b["width"] <= a["x"] + 1
            )
            assert apart, (one, a, two, b, page.viewport_size)


def _centre_x(box: dict) -> float:
    return box["x"] + box["width"] / 2


def _four_at_the_table(new_page, app_harness, seed: int):
    """Ana (pt, 1366x900) creates a Cacheta table dealt with ``seed``, Bruno (es, 1920x1080)
    joins, Carla and Davi sit down through the service; lobby and waiting-room shots on the
    way; the match starts. Returns the two pages, the code and the identities by seat."""
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    a = new_page(width=1366, height=900)
    a.goto(app_harness.frontend_url)
    expect(a.locator("#name-input")).to_be_visible()
    # a first visit lists no table: MINHAS MESAS is as tall as its line, not the create card's
    # height, and it sits with COMO FUNCIONA halfway down the create card
    expect(a.locator("#my-tables-none")).to_be_visible()
    panel = a.locator(".lobby-side > .rt-Flex").first.bounding_box()
    card = a.locator(".lobby-create").bounding_box()
    side = a.locator(".lobby-side").bounding_box()
    steps = a.locator("#lobby-steps").bounding_box()
    assert panel and card and side and steps and panel["height"] < 0.4 * card["height"], (panel, card)
    middle = (panel["y"] + steps["y"] + steps["height"]) / 2
    assert abs(middle - (side["y"] + side["height"] / 2)) < 4, (panel, steps, side)
    _shots(a, "lobby", "pt")
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    b = new_page(width=1920, height=1080, locale="es-AR")
    b.goto(app_harness.frontend_url)
    expect(b.locator("#name-input")).to_be_visible()
    _shots(b, "lobby", "es")
    join_table(b, a.url, "Bruno", "es")
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    who = {0: browser_identity(a, "Ana"), 1: browser_identity(b, "Bruno")}
    svc = service_or_skip()
    for name in ("Carla", "Davi"):
        ident = svc.identify(None, None, name)
        who[svc.join(code, ident)] = ident
        expect(a.locator(".lobby-seat").filter(has_text=name)).to_be_visible()
    _shots(a, "waiting_room", "pt")
    _shots(b, "waiting_room", "es")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    expect(hand(b)).to_have_count(9)
    return a, b, code, who


def _check_around_the_felt(page: Page) -> None:
    """At this page's (desktop) size: seat 1 left, seat 2 top, seat 3 right of the viewer at
    seat 0 or 1, around the stock; the hand below; everything in one screen, nothing empty."""
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    page.evaluate("() => window.scrollTo(0, 0)")
    stock, pile = _box(page, '[data-testid="stock"]'), _box(page, '[data-testid="discard"]')
    top = _box(page, '.seat[data-place="top"]')
    left = _box(page, '.seat[data-place="left"]')
    right = _box(page, '.seat[data-place="right"]')
    me = _box(page, '.seat[data-place="bottom"]')
    cards = _box(page, "#hand")
    assert top["y"] + top["height"] <= stock["y"], (top, stock)
    assert left["x"] + left["width"] <= stock["x"], (left, stock)
    assert right["x"] >= pile["x"] + pile["width"], (right, pile)
    assert abs(_centre_x(top) - (_centre_x(stock) + _centre_x(pile)) / 2) < 0.25 * vw, (top, stock)
    assert stock["y"] + stock["height"] < cards["y"] and me["y"] > stock["y"], (stock, me, cards)
    # one screen: the hand and the chat are in it; the table fills it (no empty half)
    chat = _box(page, ".pfc-chat")
    assert cards["y"] + cards["height"] <= vh and chat["y"] + chat["height"] <= vh + 1, (cards, chat, vh)
    assert chat["y"] + chat["height"] >= 0.85 * vh, (chat, vh)
    # the hand is larger than on a phone: a card at least 75 px wide
    assert _box(page, "#hand [data-card]")["width"] >= 75


def test_four_seats_around_the_felt_at_desktop_width(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(CACHETA_7, 4, out_of_turn=True, max_actions=60, announce=True)
    a, b, code, who = _four_at_the_table(new_page, app_harness, seed)
    # in the order of play from the viewer at the bottom: the game goes to the right (seed 000
    # line 9), so the next seat at the right, then top, then left
    for page, places in ((a, ("bottom", "right", "top", "left")), (b, ("left", "bottom", "right", "top"))):
        for seat, place in enumerate(places):
            expect(page.locator(f'.seat[data-seat="{seat}"]')).to_have_attribute("data-place", place)
    play_moves(svc, code, who, log[:3])
    view = svc.snapshot(code, who[0]).view
    # the others' hands as fans of backs, as many as they hold; none for the viewer's own
    for seat in (1, 2, 3):
        expect(a.locator(f'.seat[data-seat="{seat}"] .fan-back')).to_have_count(view.hand_counts[seat])
        expect(a.locator(f'.seat[data-seat="{seat}"] .fan')).to_be_visible()
    expect(a.locator('.seat[data-seat="0"] .fan')).to_have_count(0)
    expect(a.locator('.seat[data-seat="0"]')).to_contain_text("Ana")
    _check_around_the_felt(a)
    _check_around_the_felt(b)
    a.set_viewport_size({"width": 1920, "height": 1080})
    _check_around_the_felt(a)
    a.set_viewport_size({"width": 1366, "height": 900})
    # the phone keeps its column: the seats in rows above the stock, no fans
    b.set_viewport_size({"width": 390, "height": 844})
    expect(b.locator(".fan").first).to_be_hidden()
    stock = _box(b, '[data-testid="stock"]')
    for seat in range(4):
        box = _box(b, f'.seat[data-seat="{seat}"]')
        assert box["y"] + box["height"] <= stock["y"], (seat, box, stock)
    assert b.evaluate("() => document.documentElement.scrollWidth") <= 390
    # four seats share one row on a phone, and the whole hand is in the screen
    rows = {round(_box(b, f'.seat[data-seat="{seat}"]')["y"]) for seat in range(4)}
    assert len(rows) == 1, rows
    _all_in_screen(b, ["#hand [data-card]"])
    b.set_viewport_size({"width": 1920, "height": 1080})
    _shots(a, "table_mid", "pt")
    _shots(b, "table_mid", "es")
    play_moves(svc, code, who, log[3:])
    # a burst of a whole round's moves: under load the pages take longer than the default
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA", timeout=60_000)
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA", timeout=60_000)
    # the queue jump told once, in FIM DA RODADA's own amber line in the felt's middle, where
    # everyone looks (no text floating over the panel)
    wname = ("Ana", "Bruno", "Carla", "Davi")[final.round.result.winner]
    expect(a.locator("#banner #went-out")).to_contain_text(f"{wname} furou a fila e bateu")
    expect(b.locator("#banner #went-out")).to_contain_text(f"{wname} se coló y cerró")
    expect(a.locator("#jump-announce")).to_have_count(0)
    say, felt = _rect(a, "#banner"), _box(a, ".pfc-felt")
    assert felt["x"] <= say["x"] and say["right"] <= felt["x"] + felt["width"], (say, felt)
    # FIM DA RODADA whole in one screen, the seats around it; the hand is not needed then
    parts = ["#banner", "#melds", "#lives", "#next-round-button"]
    for page in (a, b):
        expect(page.locator(".seat")).to_have_count(4)
        expect(page.locator("#lives .lives-row")).to_have_count(4)
        _all_in_screen(page, [".seat"])
        _panel_whole(page, parts)
        expect(page.locator("#round-title")).to_be_focused()
    expect(a.locator("#hand")).to_be_hidden()
    a.set_viewport_size({"width": 1920, "height": 1080})
    _all_in_screen(a, [".seat"])
    _panel_whole(a, parts)
    a.set_viewport_size({"width": 1366, "height": 900})
    # a phone: the queue jump's line wraps inside the screen, never cut
    b.set_viewport_size({"width": 390, "height": 844})
    say = _rect(b, "#banner")
    assert 0 <= say["x"] and say["right"] <= 390, say
    assert b.locator("#banner").evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
    b.set_viewport_size({"width": 1920, "height": 1080})
    _shots(a, "round_over_jump", "pt")
    _shots(b, "round_over_jump", "es")


def test_pife_round_and_match_over_at_every_width(app_harness, new_page):
    svc = service_or_skip()
    seed, final, log = find_seed(PIFE, 2, out_of_turn=False, max_actions=40)
    a, b, code, who = two_players(new_page, app_harness, "pife", seed, b_size=DESKTOP)
    # two seats: the other one sits at the top, across the felt
    expect(a.locator('.seat[data-seat="1"]')).to_have_attribute("data-place", "top")
    _shots(a, "pife_table", "pt")
    play_planned(svc, code, who, final, log)
    expect(a.locator("#round-title")).to_have_text("FIM DA RODADA")
    expect(b.locator("#round-title")).to_have_text("FIN DE LA RONDA")
    _shots(a, "round_over", "pt")
    _shots(b, "round_over", "es")
    a.get_by_role("button", name="PRÓXIMA RODADA").click()
    expect(a.locator("#rematch-button")).to_be_visible()
    expect(b.locator("#rematch-button")).to_have_text("REVANCHA")
    for page in (a, b):
        _all_in_screen(page, [".seat", "#rematch-button", "#round-title"])
        _panel_whole(page, ["#winner", "#melds", "#rematch-button"])
    a.set_viewport_size({"width": 1920, "height": 1080})
    _panel_whole(a, ["#winner", "#melds", "#rematch-button"])
    a.set_viewport_size({"width": 1366, "height": 900})
    _shots(a, "match_over", "pt")
    _shots(b, "match_over", "es")
