"""The table keeps the viewer's hand in the screen with a house rule and Dicas on (issue 11,
item 1): on a phone (390x844) on the viewer's turn, and with the question before discarding a
card of a meld open, at 390x844 and at 1366x900, whose buttons stay inside their box.

The planned game of ``test_house_rules`` (four wilds, seed 3) is played through the app's own
service up to Ana's discard of 5D, a card of one of her melds. Screenshots go to
``$PIFECACHETA_SHOTS_DIR`` (default ``screenshots/layout/``).
"""

from __future__ import annotations

import os
from pathlib import Path

from _replay import hand, play_moves
from playwright.sync_api import Page, expect
from test_house_rules import _plan, same_colour_with_dicas

_DEFAULT_SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "layout"
SHOTS = Path(os.environ.get("PIFECACHETA_SHOTS_DIR") or _DEFAULT_SHOTS)


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _rect(page: Page, selector: str) -> dict:
    """The first match's box in the viewport (CSS px), whether or not it is painted."""
    box = page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; }",
        selector,
    )
    assert box is not None, selector
    return box


def _hand_in_screen(page: Page) -> None:
    """Every card of the viewer's hand lies inside the viewport, scrolled to the top."""
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    page.evaluate("() => window.scrollTo(0, 0)")
    for card in hand(page).all():
        box = card.bounding_box()
        assert box is not None
        assert 0 <= box["y"] and box["y"] + box["height"] <= vh + 1, (box, vh)
        assert 0 <= box["x"] and box["x"] + box["width"] <= vw + 1, (box, vw)


def test_the_hand_stays_in_the_screen_with_house_rules_and_dicas(app_harness, new_page):
    log = _plan()
    svc, a, b, code, who = same_colour_with_dicas(new_page, app_harness, a_size=(390, 844))
    expect(a.locator("#house-line")).to_contain_text("Dicas ligadas")
    play_moves(svc, code, who, log[:15])
    expect(hand(a)).to_have_count(10)
    expect(a.locator("#status-line")).to_be_visible()
    # a phone, the viewer's turn: the whole hand in the screen, with the tip of the moment
    _hand_in_screen(a)
    _shot(a, "turn_pt_390")
    # the question before discarding 5D, a card of a meld: it shows, and the hand stays put
    a.locator('[id="card-5D"]').dblclick()
    ask = a.locator("#hint-confirm")
    expect(ask).to_contain_text("5 de ouros está num jogo seu")
    box = _rect(a, "#hint-confirm")
    assert 0 <= box["y"] and box["bottom"] <= 844, box
    _hand_in_screen(a)
    _shot(a, "hint_warning_pt_390")
    # at 1366x900: the buttons inside the box, the box no taller than the hand leaves room for
    a.set_viewport_size({"width": 1366, "height": 900})
    expect(ask).to_be_visible()
    for button in ("#hint-discard-anyway", "#hint-keep"):
        inner = _rect(a, button)
        box = _rect(a, "#hint-confirm")
        assert box["x"] <= inner["x"] and inner["right"] <= box["right"], (button, inner, box)
        assert box["y"] <= inner["y"] and inner["bottom"] <= box["bottom"], (button, inner, box)
    _hand_in_screen(a)
    _shot(a, "hint_warning_pt_1366")
    a.get_by_role("button", name="DESCARTAR MESMO ASSIM").click()
    expect(hand(a)).to_have_count(9)
    # Bruno's turn on his phone, his espera shown: his hand in the screen too
    expect(b.locator("#hint-wait")).to_contain_text("esperas:")
    _hand_in_screen(b)
    _shot(b, "turn_es_390")
