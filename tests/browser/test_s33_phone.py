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

The games are planned (``_planner``) and played through the app's own service (AppHarness runs
the backend in this process). Screenshots go to ``$PIFECACHETA_SHOTS_DIR`` (default
``screenshots/s33/``).
"""

from __future__ import annotations

import os
from pathlib import Path

from _flows import service_or_skip
from _planner import find_seed
from _replay import BUTTONS, hand, play_planned
from _round_end import PHONE, two_players
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7

_DEFAULT_SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "s33"
SHOTS = Path(os.environ.get("PIFECACHETA_SHOTS_DIR") or _DEFAULT_SHOTS)


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
