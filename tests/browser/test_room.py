"""The lobby and the waiting room as a card room (issue 11, "a card room, not a form"): at
1366x900 and 1920x1080 the lobby in two columns (CRIAR MESA | MINHAS MESAS and how a table
goes) and the waiting room's seats around a felt with the invite tools beside it, every part
inside the screen and none over another; at 390x844 the phone's column as it was.

Screenshots of both pages at 390, 1366 and 1920 px in pt and es go to
``$PIFECACHETA_SHOTS_DIR`` (default ``screenshots/room/``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from _contrast import contrast, placeholder_contrast
from _flows import create_table, join_table, service_or_skip
from playwright.sync_api import Page, expect

_DEFAULT_SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "room"
SHOTS = Path(os.environ.get("PIFECACHETA_SHOTS_DIR") or _DEFAULT_SHOTS)
SIZES = ((390, 844), (1366, 900), (1920, 1080))


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _overlap(p: dict, q: dict) -> bool:
    return (
        p["x"] < q["x"] + q["width"] - 1
        and q["x"] < p["x"] + p["width"] - 1
        and p["y"] < q["y"] + q["height"] - 1
        and q["y"] < p["y"] + p["height"] - 1
    )


def _inside(page: Page, box: dict, what: str) -> None:
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= vw + 1, (what, box, vw)
    assert box["y"] >= 0 and box["y"] + box["height"] <= vh + 1, (what, box, vh)


def _no_sideways(page: Page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def _apart(page: Page, selectors: list[str]) -> dict[str, dict]:
    """The boxes of ``selectors`` (each matched once or more): each inside the screen, scrolled
    to the top, and no two of them overlapping."""
    page.evaluate("() => window.scrollTo(0, 0)")
    boxes: dict[str, dict] = {}
    for selector in selectors:
        items = page.locator(selector)
        assert items.count() > 0, selector
        for n, item in enumerate(items.all()):
            box = item.bounding_box()
            assert box is not None, selector
            _inside(page, box, selector)
            boxes[f"{selector}#{n}"] = box
    names = list(boxes)
    for i, p in enumerate(names):
        for q in names[i + 1 :]:
            assert not _overlap(boxes[p], boxes[q]), (p, boxes[p], q, boxes[q])
    return boxes


def _shots(page: Page, name: str, lang: str, check) -> None:
    """At each of SIZES: ``check(page, width)``, then ``SHOTS/<name>_<width>_<lang>.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => window.scrollTo(0, 0)")
        check(page, w)
        page.screenshot(path=str(SHOTS / f"{name}_{w}_{lang}.png"))
    page.set_viewport_size(size)


def _readable(page: Page, selectors: list[str]) -> None:
    """Every match of each selector has text at 4.5:1 or more on what is behind it (WCAG 1.4.3)."""
    for selector in selectors:
        items = page.locator(selector)
        assert items.count() > 0, selector
        for item in items.all():
            assert contrast(item) >= 4.5, (selector, contrast(item))


def _check_lobby(page: Page, width: int) -> None:
    _no_sideways(page)
    create, side = _box(page, ".lobby-create"), _box(page, ".lobby-side")
    assert not _overlap(create, side), (create, side)
    if width < 992:  # a phone: one column, no fan; Como funciona under MINHAS MESAS
        expect(page.locator(".lobby-fan")).to_be_hidden()
        expect(page.locator("#lobby-steps")).to_be_visible()
        assert abs(create["x"] - side["x"]) < 2, (create, side)
        return
    # two columns side by side, CRIAR MESA at the left, both in the screen
    expect(page.locator(".lobby-fan")).to_be_visible()
    expect(page.locator("#lobby-steps")).to_be_visible()
    assert create["x"] + create["width"] <= side["x"], (create, side)
    assert abs(create["y"] - side["y"]) < 2, (create, side)
    _apart(page, [".lobby-create", "#my-tables-title", "#lobby-steps"])
    _apart(page, ["#name-input", "#mode-pife", "#mode-cacheta7", "#mode-cacheta10", "#lobby-steps"])
    create_button = page.get_by_role("button", name=re.compile("^(CRIAR|CREAR) MESA$")).bounding_box()
    assert create_button is not None
    _inside(page, create_button, "CRIAR MESA")
    _readable(
        page, ["#rules-link", "label[for=name-input]", "#mode-label", "#lobby-steps li", "#lobby-access"]
    )
    assert placeholder_contrast(page.locator("#name-input")) >= 4.5
    # the two columns fill the screen's height (no empty half)
    vh = page.viewport_size["height"]
    assert create["y"] + create["height"] >= 0.8 * vh, (create, vh)


def _check_room(page: Page, width: int) -> None:
    _no_sideways(page)
    if width < 992:  # a phone: the seats in rows, one under the other, as before
        expect(page.locator(".room-felt")).to_be_hidden()
        ys = [_box(page, f".lobby-seat >> nth={n}")["y"] for n in range(4)]
        assert ys == sorted(ys) and len(set(ys)) == 4, ys
        return
    expect(page.locator(".room-felt")).to_be_visible()
    boxes = _apart(page, [".lobby-seat", ".room-centre", ".room-invite", ".room-head"])
    seats = {p: _box(page, f'.lobby-seat[data-place="{p}"]') for p in ("bottom", "left", "top", "right")}
    felt = _box(page, ".room-felt")
    # around the felt: top above bottom, left of right, the centre's controls between
    assert seats["top"]["y"] + seats["top"]["height"] <= seats["bottom"]["y"], seats
    assert seats["left"]["x"] + seats["left"]["width"] <= seats["right"]["x"], seats
    for seat in seats.values():
        assert _overlap(seat, felt), (seat, felt)  # on the felt's edge, not off somewhere
    _readable(
        page,
        [
            ".lobby-seat .seat-name, .lobby-seat[data-empty=true] .rt-Text",
            ".room-centre .rt-Text, .room-centre #start-button",
        ],
    )
    # the invite tools beside the table, at its right
    invite = boxes[".room-invite#0"]
    assert invite["x"] >= felt["x"] + felt["width"], (invite, felt)


def test_lobby_and_waiting_room_are_a_card_room(app_harness, new_page):
    svc = service_or_skip()
    pages = {}
    for lang, locale in (("pt", "pt-BR"), ("es", "es-AR")):
        page = new_page(width=1366, height=900, locale=locale)
        page.goto(app_harness.frontend_url)
        expect(page.locator("#name-input")).to_be_visible()
        expect(page.locator("#lobby-steps-title")).to_have_text(
            "Como funciona" if lang == "pt" else "Cómo funciona"
        )
        _shots(page, "lobby", lang, _check_lobby)
        pages[lang] = page
    a, b = pages["pt"], pages["es"]
    create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
    # a visitor's room: the seats (Ana's taken, three free) and SENTAR À MESA beside them
    join_url = a.url
    b.goto(join_url)
    expect(b.locator("#join-name")).to_be_visible()
    expect(b.locator('.lobby-seat[data-empty="true"]')).to_have_count(3)
    _shots(b, "waiting_room_visitor", "es", _check_room)
    sit = _box(b, "#join-name")
    assert sit["x"] >= _box(b, ".room-felt")["x"] + _box(b, ".room-felt")["width"]
    join_table(b, join_url, "Bruno", "es")
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    for name in ("Carla", "Davi"):
        svc.join(code, svc.identify(None, None, name))
        expect(a.locator(".lobby-seat").filter(has_text=name)).to_be_visible()
    # each viewer sits at the bottom of its own view, the others in the order of play as at
    # the table: the next seat at the viewer's right (the game goes to the right, seed 000 line 9)
    for page, bottom in ((a, "Ana"), (b, "Bruno")):
        expect(page.locator('.lobby-seat[data-place="bottom"]')).to_contain_text(bottom)
    expect(a.locator('.lobby-seat[data-place="right"]')).to_contain_text("Bruno")
    expect(b.locator('.lobby-seat[data-place="left"]')).to_contain_text("Ana")
    # COMEÇAR sits in the felt's middle, by keyboard as before
    expect(a.locator(".room-centre #start-button")).to_be_visible()
    _shots(a, "waiting_room", "pt", _check_room)
    _shots(b, "waiting_room", "es", _check_room)
    # MINHAS MESAS now lists the table: the lobby's two columns still hold
    a.goto(app_harness.frontend_url)
    expect(a.locator("#my-tables .my-table")).to_have_count(1)
    _shots(a, "lobby_tables", "pt", _check_lobby)


def test_the_phone_room_lines_its_names_up(app_harness, new_page):
    """At 390 px the waiting room's seats are rows: every name starts at the same x after its
    seat number, however long the name and its badges (a long name squeezed the number's
    column, so the names started 108-126 px from the left)."""
    a = new_page(width=390, height=844)
    create_table(a, app_harness.frontend_url, "W" * 24, "pife")
    b = new_page(width=390, height=844)
    join_table(b, a.url, "Maria Aparecida da Silva")
    expect(a.locator(".lobby-seat").filter(has_text="Maria")).to_be_visible()
    a.locator("#add-bots").click()
    for page in (a, b):
        expect(page.locator(".lobby-seat .seat-name")).to_have_count(4)
        lefts = [
            box["x"]
            for box in (n.bounding_box() for n in page.locator(".lobby-seat .seat-name").all())
            if box
        ]
        assert len(lefts) == 4 and max(lefts) - min(lefts) <= 1, lefts
        _no_sideways(page)
