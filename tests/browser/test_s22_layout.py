"""The last layout items of issue 11 (session 22), in a real browser:

- JOGOS / JUEGOS at 1366x900: each group's label on one line inside its group's box, and the
  table still fits the screen (no page scroll, which would make the sticky history panel a
  compositor layer: bench/README.md, "Why the card room paints slower");
- JOGOS / JUEGOS at 390x844: the last group of the hand inside the phone's first screen;
- the keyboard's letters ("Teclas na mão ...") are not shown on a touch screen (no keys), and
  are on a desktop, a narrow window too.

Ana (pt) sits at seat 0, Bruno (es) at seat 1 and plays first. Screenshots go to
``$PIFECACHETA_SHOTS_DIR`` (default ``screenshots``, gitignored).
"""

from __future__ import annotations

import os
from pathlib import Path

from _flows import create_table, join_table, start_two
from _replay import hand
from playwright.sync_api import Page, expect

from pifecacheta import i18n
from pifecacheta.rules import PIFE, new_match, player_view
from pifecacheta.state.hand_groups import GroupUi, hand_groups

SHOTS = Path(os.environ.get("PIFECACHETA_SHOTS_DIR") or Path(__file__).resolve().parents[2] / "screenshots")

# each group: its box, its label's box and the label's line height (px)
GROUPS_JS = """() => [...document.querySelectorAll('#hand .hand-group')].map(g => {
  const l = g.querySelector('.hand-group-label');
  const b = g.getBoundingClientRect(), c = l.getBoundingClientRect();
  return {text: l.textContent, left: b.left, right: b.right, bottom: b.bottom,
          l_left: c.left, l_right: c.right, l_height: c.height,
          line: parseFloat(getComputedStyle(l).lineHeight)};
})"""


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _label_len(group: GroupUi) -> int:
    """The length of ``group``'s pt label, the longest of a deal's labels counting most."""
    t = lambda key: i18n.text("pt", key)  # noqa: E731
    if group.kind == "run":
        run = t("hand.group_run").replace("{suit}", t("suit." + group.suit))
        return len(run.replace("{low}", t("rank." + group.low)).replace("{high}", t("rank." + group.high)))
    return len(t("hand.group_set").replace("{rank}", t("rank." + group.rank))) if group.kind == "set" else 0


def _seed() -> int:
    """A Pife deal in which Ana's nine cards hold a run of three (a narrow group) with one of
    the longest labels, and loose cards, and Bruno's hand loose cards too."""
    best, best_seed = -1, 0
    for seed in range(1, 1500):
        match = new_match(PIFE, 2, seed=seed)
        mine = hand_groups(player_view(match, 0))
        if not any(g.kind == "loose" for g in mine):
            continue
        runs = [g for g in mine if g.kind == "run" and len(g.cards) == 3]
        score = max((_label_len(g) for g in runs), default=-1)
        if score > best:
            best, best_seed = score, seed
    assert best > 0, "no such deal"
    return best_seed


def _grouped(page: Page) -> None:
    page.locator("#sort-groups").click()
    expect(page.locator("#sort-groups")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hand .hand-group").first).to_be_visible()


def _labels_fit(page: Page, lines: int = 1) -> None:
    """Every group's label inside its box, on at most ``lines`` lines."""
    groups = page.evaluate(GROUPS_JS)
    assert groups
    for g in groups:
        assert g["l_height"] < (lines + 0.5) * g["line"], f"label on more than {lines} lines: {g}"
        assert g["l_left"] >= g["left"] - 0.5 and g["l_right"] <= g["right"] + 0.5, f"label over its box: {g}"


def test_jogos_at_1366_labels_on_one_line_and_no_scroll(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "pife", _seed(), b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    for page, name in ((a, "jogos_1366_pt"), (b, "jogos_1366_es")):
        _grouped(page)
        _labels_fit(page)
        # the table fits the screen with the labels' line added
        assert page.evaluate("() => document.documentElement.scrollHeight") <= 900
        _shot(page, name)


def test_jogos_at_390_last_group_on_the_first_screen(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "pife", _seed(), b_size=(390, 844), b_locale="es-AR")
    a.set_viewport_size({"width": 390, "height": 844})
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    for page, name in ((a, "jogos_390_pt"), (b, "jogos_390_es")):
        page.evaluate("() => window.scrollTo(0, 0)")
        plain_bottom = page.evaluate("() => document.querySelector('#hand').getBoundingClientRect().bottom")
        _grouped(page)
        page.evaluate("() => window.scrollTo(0, 0)")
        groups = page.evaluate(GROUPS_JS)
        assert max(g["bottom"] for g in groups) <= 844, (plain_bottom, groups)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways slide
        _labels_fit(page, lines=2)  # a phone: a long label on two lines, inside its group
        _shot(page, name)


def test_keys_hint_hidden_on_touch_screens_only(app_harness, new_page, browser):
    os.environ["PIFECACHETA_FIXED_SEED"] = "7"
    a = new_page(width=390, height=844)  # a narrow desktop window: a keyboard, the letters shown
    create_table(a, app_harness.frontend_url, "Ana", "pife")
    touch = {"has_touch": True, "is_mobile": True}  # a phone: (hover: none) and (pointer: coarse)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-AR", **touch)
    try:
        b = ctx.new_page()
        b.set_default_timeout(10_000)
        b.set_default_navigation_timeout(90_000)
        assert b.evaluate("() => matchMedia('(hover: none) and (pointer: coarse)').matches")
        join_table(b, a.url, "Bruno", "es")
        expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
        a.get_by_role("button", name="COMEÇAR").click()
        expect(b.get_by_role("button", name="ROBAR", exact=True)).to_be_visible()
        expect(a.get_by_role("button", name="COMPRAR", exact=True)).to_be_visible()
        expect(a.locator("#shortcuts")).to_be_visible()
        expect(a.locator("#shortcuts")).to_contain_text("C compra · L pega do lixo · B bate")
        expect(b.locator("#shortcuts")).to_be_hidden()
        # the buttons still name their letter for a keyboard plugged into the phone
        expect(b.get_by_role("button", name="ROBAR", exact=True)).to_have_attribute("aria-keyshortcuts", "R")
        _shot(b, "keys_touch_390_es")
        _shot(a, "keys_desktop_390_pt")
        a.set_viewport_size({"width": 1366, "height": 900})
        expect(a.locator("#shortcuts")).to_be_visible()
    finally:
        ctx.close()
