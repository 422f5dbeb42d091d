"""JOGOS / JUEGOS (issue 11, item 3: "the melds the game sees can be shown grouped"): the
hand shows the groups the solver sees for a planned deal, each a group named for screen
readers in pt and es, the loose cards last; the arrows go on from one group into the next;
the choice survives a reload, follows a draw, and a sort turns it off.

Ana (pt) sits at seat 0, Bruno (es) at seat 1 and plays first.
"""

from __future__ import annotations

import os
from pathlib import Path

from _contrast import contrast
from _flows import start_two
from _frames import Recorder, scan_frames
from _replay import hand
from playwright.sync_api import Page, expect

from pifecacheta import i18n
from pifecacheta.rules import PIFE, Draw, apply, new_match, player_view
from pifecacheta.state.hand_groups import GroupUi, hand_groups

SHOTS = Path(
    os.environ.get("PIFECACHETA_SHOTS_DIR") or Path(__file__).resolve().parents[2] / "screenshots" / "room"
)


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _label(group: GroupUi, lang: str) -> str:
    """The name the page gives ``group`` (the catalogue's words, filled in)."""
    t = lambda key: i18n.text(lang, key)  # noqa: E731
    if group.kind == "set":
        return t("hand.group_set").replace("{rank}", t("rank." + group.rank))
    if group.kind == "run":
        run = t("hand.group_run").replace("{suit}", t("suit." + group.suit))
        return run.replace("{low}", t("rank." + group.low)).replace("{high}", t("rank." + group.high))
    return t("hand.group_loose")


def _seed() -> int:
    """A Pife deal in which Ana's nine cards hold a set and a run."""
    for seed in range(1, 2000):
        kinds = {g.kind for g in hand_groups(player_view(new_match(PIFE, 2, seed=seed), 0))}
        if {"set", "run", "loose"} <= kinds:
            return seed
    raise AssertionError("no such deal")


def _shown(page: Page) -> list[tuple[str, list[str]]]:
    """The groups as the page shows them: (accessible name, card ids)."""
    return page.locator("#hand .hand-group").evaluate_all(
        """els => els.map(g => [g.getAttribute('aria-label'),
            [...g.querySelectorAll('[data-card]')].map(c => c.id.slice(5))])"""
    )


def _expected(groups: list[GroupUi], lang: str) -> list[tuple[str, list[str]]]:
    return [[_label(g, lang), [c.id for c in g.cards]] for g in groups]


def test_jogos_shows_the_solvers_groups(app_harness, new_page):
    seed = _seed()
    match = new_match(PIFE, 2, seed=seed)
    a, b = start_two(new_page, app_harness, "pife", seed, b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(a)).to_have_count(9)
    expect(a.locator("#sort-groups")).to_have_text("JOGOS")
    expect(a.locator("#sort-groups")).to_have_attribute("aria-pressed", "false")
    expect(a.locator("#hand .hand-group")).to_have_count(0)
    a.locator("#sort-groups").click()
    expect(a.locator("#sort-groups")).to_have_attribute("aria-pressed", "true")
    expect(a.locator("#sort-suit")).to_have_attribute("aria-pressed", "false")
    want = _expected(hand_groups(player_view(match, 0)), "pt")
    expect(a.locator("#hand .hand-group")).to_have_count(len(want))
    assert _shown(a) == want
    _shot(a, "hand_groups_1366_pt")
    # each group is a group for screen readers, named; its visible caption is not read twice
    first = a.locator("#hand .hand-group").first
    expect(first).to_have_attribute("role", "group")
    expect(first.locator(".hand-group-label")).to_have_attribute("aria-hidden", "true")
    for caption in a.locator("#hand .hand-group-label").all():  # WCAG 1.4.3
        assert contrast(caption) >= 4.5, (caption.text_content(), contrast(caption))
    expect(a.get_by_role("group", name=want[0][0])).to_be_visible()
    assert want[-1][0] == "cartas soltas"
    # the arrows go from the last card of a group to the first of the next
    size = len(want[0][1])
    a.locator(f"#hand-pos-{size - 1}").focus()
    a.keyboard.press("ArrowRight")
    expect(a.locator(f"#hand-pos-{size}")).to_be_focused()
    assert a.locator(f"#hand-pos-{size} [data-card]").get_attribute("id") == f"card-{want[1][1][0]}"
    # kept across a reload (localStorage), as the sorts are; her frames from now on are scanned
    frames = Recorder(a)
    a.reload()
    expect(a.locator("#sort-groups")).to_have_attribute("aria-pressed", "true")
    expect(a.locator("#hand .hand-group")).to_have_count(len(want))
    assert _shown(a) == want

    # Bruno, in Spanish: JUEGOS, and the groups follow his draw
    expect(hand(b)).to_have_count(9)
    b.locator("#sort-groups").click()
    expect(b.locator("#sort-groups")).to_have_text("JUEGOS")
    want_b = _expected(hand_groups(player_view(match, 1)), "es")
    expect(b.locator("#hand .hand-group")).to_have_count(len(want_b))
    assert _shown(b) == want_b
    b.get_by_role("button", name="ROBAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    after = _expected(hand_groups(player_view(apply(match, 1, Draw()), 1)), "es")
    expect(b.locator("#hand .hand-group")).to_have_count(len(after))
    assert _shown(b) == after
    assert sum(len(ids) for _, ids in after) == 10
    b.set_viewport_size({"width": 390, "height": 844})
    expect(b.locator("#hand .hand-group").last).to_be_visible()
    assert b.evaluate("() => document.documentElement.scrollWidth") <= 390
    _shot(b, "hand_groups_390_es")
    # a sort turns it off: the hand in that sort, no groups
    b.locator("#sort-rank").click()
    expect(b.locator("#sort-rank")).to_have_attribute("aria-pressed", "true")
    expect(b.locator("#sort-groups")).to_have_attribute("aria-pressed", "false")
    expect(b.locator("#hand .hand-group")).to_have_count(0)
    expect(hand(b)).to_have_count(10)
    # Ana's groups never moved: another seat's draw shows nothing of Bruno's cards to her
    assert _shown(a) == want
    drawn = apply(match, 1, Draw())
    mine = {c.code for c in drawn.round.hands[0]}
    hidden = {c.code for c in drawn.round.hands[1]} - mine
    assert frames.frames and hidden and scan_frames(frames.frames, hidden) == []


def _drawn_seed() -> int:
    """A Pife deal in which Bruno's first draw joins a group of Ana's kind (a set or a run is
    shown too) and is not that group's last card: in JOGOS the next card overlaps it on a phone."""
    for seed in range(1, 2000):
        match = new_match(PIFE, 2, seed=seed)
        before = set(player_view(match, 1).hand)
        view = player_view(apply(match, 1, Draw()), 1)
        drawn = next(c for c in view.hand if c not in before)
        groups = hand_groups(view)
        ids = [[c.id for c in g.cards] for g in groups]
        if len(groups) > 1 and any(drawn.code in g[:-1] for g in ids):
            return seed
    raise AssertionError("no such deal")


# The tag's box, the visible part of its card (the card's box up to the left edge of the next
# card of its group when that one lies over it, in the same row) and its group's bottom edge.
_TAG_AND_STRIP = """tag => {
  const card = tag.closest('.hand-card'), next = card.nextElementSibling;
  const c = card.getBoundingClientRect(), t = tag.getBoundingClientRect();
  let right = c.right;
  if (next) {
    const n = next.getBoundingClientRect();
    if (n.top < c.bottom && n.bottom > c.top) right = Math.min(right, n.left);
  }
  const group = tag.closest('.hand-group').getBoundingClientRect().bottom;
  return {tag: [t.left, t.right, t.bottom], strip: [c.left, right], group, next: !!next};
}"""


def test_the_nova_tag_stays_on_its_own_card_in_jogos(app_harness, new_page):
    """The "nova" tag of the card just drawn lies on the visible part of its own card when
    JOGOS fans the groups' cards (each over the one before it on a phone), in pt and es, at
    390 and 1366 px: it no longer sticks out over the next card, nor over its group's edge."""
    seed = _drawn_seed()
    a, b = start_two(new_page, app_harness, "pife", seed, b_size=(390, 844), b_locale="es-AR")
    a.get_by_role("button", name="COMEÇAR").click()
    expect(hand(b)).to_have_count(9)
    b.locator("#sort-groups").click()
    expect(b.locator("#hand .hand-group").first).to_be_visible()
    b.get_by_role("button", name="ROBAR", exact=True).click()
    expect(hand(b)).to_have_count(10)
    tag = b.locator("#hand .drawn-mark")
    for lang, word in (("es", "NUEVA"), ("pt", "NOVA")):
        b.locator(f"#lang-{lang}").click()
        expect(tag).to_have_text(word, use_inner_text=True, ignore_case=False)
        for width, height in ((390, 844), (1366, 900)):
            b.set_viewport_size({"width": width, "height": height})
            expect(b.locator("#hand.hand-grouped")).to_be_visible()
            place = tag.evaluate(_TAG_AND_STRIP)
            assert place["next"], place  # a card follows it in its group
            left, right, bottom = place["tag"]
            assert place["strip"][0] - 0.5 <= left and right <= place["strip"][1] + 0.5, (lang, width, place)
            assert bottom <= place["group"] + 0.5, ("over its group's edge", lang, width, place)
            _shot(b, f"nova_jogos_{width}_{lang}")
