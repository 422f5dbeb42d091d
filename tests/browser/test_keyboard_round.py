"""A whole Cacheta round by keyboard alone, to FIM DA RODADA and PRÓXIMA RODADA (issue 16), and
where the focus goes after each action (WCAG 2.4.3), with the shortcuts C (COMPRAR) and B
(BATER) among the keys.

Ana plays in the browser with keys only: Tab / Shift+Tab to reach a control, Enter and Space to
press it, the arrows in the hand. The page counts every pointer and mouse event it gets; the
test ends with none. Bruno plays through the app's own service (AppHarness runs the backend in
this process) by a planned greedy game (``_planner.greedy_game``) in which Ana goes out.

Against the bots (seeded deal, the sweeper driven fast): a bot ending the round, on its turn or
out of turn, moves Ana's focus from her hand to FIM DA RODADA's title.
"""

from __future__ import annotations

import json
import os
import re

import pytest
from _flows import browser_identity, service_or_skip, tab_to
from _planner import first_game, greedy_game
from _replay import act, hand, wait_my_turn
from playwright.sync_api import Page, expect

from pifecacheta.rules import CACHETA_7, Discard, Draw, GoOut

HAND_STOP = '#hand .hand-card[tabindex="0"]'
_COUNT_POINTER = """() => { window.pfcPointerEvents = 0;
  for (const t of ['pointerdown', 'mousedown', 'mouseup', 'dblclick', 'contextmenu', 'wheel'])
    document.addEventListener(t, () => { window.pfcPointerEvents += 1; }, true); }"""


def _plan():
    """A seed whose greedy two-seat Cacheta round ends with Ana (seat 0) going out on her turn."""

    def accept(final, log) -> bool:
        res = final.round.result
        return res.winner == 0 and not res.out_of_turn and 8 <= len(log) <= 30

    return first_game(lambda seed: greedy_game(CACHETA_7, 2, seed), accept)


def _named(text: str) -> str:
    return f"e => (e.textContent || '').trim() === {json.dumps(text)} && !e.disabled"


def _discard_by_keys(page: Page, card) -> None:
    """Arrow to ``card`` in the hand (the focus is in the hand), Enter selects, Enter discards."""
    ids = page.locator("#hand .hand-card [data-card]").evaluate_all("els => els.map(e => e.id)")
    pos = ids.index(f"card-{card}")
    page.keyboard.press("Home")
    for _ in range(pos):
        page.keyboard.press("ArrowRight")
    box = page.locator(f"#hand-pos-{pos}")
    expect(box).to_be_focused()
    page.keyboard.press("Enter")
    expect(box).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    expect(page.locator(f'#hand [id="card-{card}"]')).to_have_count(0)
    expect(hand(page)).to_have_count(9)
    # the focus stays in the hand, at the same place (or the one before, for the last card)
    expect(page.locator(f"#hand-pos-{min(pos, 8)}")).to_be_focused()


def test_a_cacheta_round_played_by_keyboard_alone_keeps_the_focus(app_harness, new_page, shot):
    svc = service_or_skip()
    seed, final, log = _plan()
    os.environ["PIFECACHETA_FIXED_SEED"] = str(seed)
    a = new_page()
    a.add_init_script(f"({_COUNT_POINTER})()")
    a.goto(app_harness.frontend_url)
    expect(a.get_by_role("radio", name=re.compile("^Cacheta, 7"))).to_be_checked()
    tab_to(a, "e => e.id === 'name-input'")
    a.keyboard.type("Ana")
    tab_to(a, _named("CRIAR MESA"))
    a.keyboard.press("Enter")
    a.wait_for_url("**/mesa/**")
    code = a.url.rstrip("/").rsplit("/", 1)[-1]
    ana = browser_identity(a, "Ana")
    bruno = svc.identify(None, None, "Bruno")
    svc.join(code, bruno)
    who = {0: ana, 1: bruno}
    expect(a.locator(".lobby-seat").filter(has_text="Bruno")).to_be_visible()
    tab_to(a, _named("COMEÇAR"))
    a.keyboard.press("Enter")
    expect(hand(a)).to_have_count(9)
    expect(a.locator(HAND_STOP)).to_be_focused()  # COMEÇAR is gone: the focus is in the new hand

    plan = final.round.result.plan
    # the shortcuts are listed on the page and carried by their buttons
    expect(a.locator("#shortcuts")).to_contain_text("C compra · L pega do lixo · B bate")
    for name, key in (("COMPRAR", "C"), ("PEGAR DO LIXO", "L"), ("BATER", "B")):
        expect(a.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-keyshortcuts", key)
    draws = 0
    for n, (seat, action) in enumerate(log):
        if seat == 1:
            act(svc, code, who[1], action)
            continue
        if isinstance(action, Draw):
            wait_my_turn(a)
            if draws % 3 == 0:  # COMPRAR, reached with Shift+Tab from the hand
                tab_to(a, _named("COMPRAR"), back=True)
                a.keyboard.press("Enter")
            elif draws % 3 == 1:  # Enter on the stock
                tab_to(a, "e => e.dataset.testid === 'stock'", back=True)
                a.keyboard.press("Enter")
            else:  # the shortcut C, in the hand (where the last discard left the focus)
                expect(a.locator(HAND_STOP)).to_be_focused()
                a.keyboard.press("c")
            draws += 1
            expect(hand(a)).to_have_count(10)
            # the focus goes to the card just drawn, whichever control drew it
            expect(a.locator("#hand .hand-card:has(.drawn-mark)")).to_be_focused()
            nxt = log[n + 1][1] if n + 1 < len(log) else None
            if draws == 1:
                shot(a, "a11y_focus_drawn_card")
                assert not isinstance(nxt, GoOut)
                # B while BATER is disabled: the refusal says why, and nothing changed
                expect(a.get_by_role("button", name="BATER", exact=True)).to_be_disabled()
                a.keyboard.press("b")
                expect(a.locator("#message")).to_have_text("Ainda não dá para bater com essas cartas.")
                expect(hand(a)).to_have_count(10)
                a.keyboard.press("Escape")  # the refusal goes, as a tap on a card makes it go
                expect(a.locator("#message")).to_have_count(0)
                expect(a.locator("#hand .hand-card:has(.drawn-mark)")).to_be_focused()
            if isinstance(nxt, GoOut):  # BATER by its shortcut B, from the hand
                expect(a.get_by_role("button", name="BATER", exact=True)).to_have_attribute(
                    "aria-keyshortcuts", "B"
                )
                a.keyboard.press("b")
                break
        elif isinstance(action, Discard):
            _discard_by_keys(a, action.card)
    title = a.locator("#round-title")
    expect(title).to_have_text("FIM DA RODADA")
    expect(title).to_be_focused()  # BATER is gone: the focus is on the round's end
    shot(a, "a11y_focus_round_title")
    assert plan is not None
    tab_to(a, _named("PRÓXIMA RODADA"))
    a.keyboard.press("Enter")
    expect(a.locator("#round-title")).to_have_count(0)
    expect(hand(a)).to_have_count(9)
    expect(a.locator(HAND_STOP)).to_be_focused()
    shot(a, "a11y_focus_next_round_hand")
    assert a.evaluate("window.pfcPointerEvents") == 0


def _bots_turn_by_keys(page: Page) -> bool:
    """Ana's turn against the bots: COMPRAR; BATER when the ten cards go out (True); else the
    least connected card discarded by keys from the hand (the focus stays in the hand)."""
    from _planner import least_connected

    from pifecacheta.rules.cards import Card
    from pifecacheta.rules.solver import best_go_out

    page.get_by_role("button", name="COMPRAR", exact=True).click()
    expect(hand(page)).to_have_count(10)
    ids = hand(page).evaluate_all("els => els.map(e => e.id)")
    cards = [Card.parse(i[len("card-") :]) for i in ids]
    wild = Card.parse(page.get_by_test_id("wild").locator("[data-card]").get_attribute("data-card"))
    if best_go_out(cards, wilds=frozenset({wild.face})) is not None:
        page.get_by_role("button", name="BATER", exact=True).click()
        return True
    pos = ids.index(f"card-{least_connected(cards, frozenset({wild.face}))}")
    page.locator(HAND_STOP).focus()
    page.keyboard.press("Home")
    for _ in range(pos):
        page.keyboard.press("ArrowRight")
    expect(page.locator(f"#hand-pos-{pos}")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # discarded: a bot may go out at once, out of turn too
    return False


def test_a_bot_ending_the_round_moves_the_focus_to_fim_da_rodada(app_harness, new_page):
    """Ana's focus is on a card of her hand (her discard by keys left it there) when a bot goes
    out: the focus goes to FIM DA RODADA's title, though her hand stays on the page."""
    from _flows import create_table, fast_bots

    os.environ["PIFECACHETA_FIXED_SEED"] = "3"
    with fast_bots() as fast:
        if not fast:
            pytest.skip("the app's service runs in another process")
        a = new_page()
        create_table(a, app_harness.frontend_url, "Ana", "cacheta7")
        a.get_by_role("button", name="COMPLETAR COM ROBÔS").click()
        expect(a.locator(".lobby-seat").filter(has_text="Luna")).to_be_visible()
        a.get_by_role("button", name="COMEÇAR").click()
        title = a.locator("#round-title")
        for _ in range(8):  # rounds, until one a bot ends
            ana_went_out = False
            while not ana_went_out:
                expect(a.get_by_role("button", name="COMPRAR").or_(title)).to_be_enabled(timeout=30_000)
                if title.count():
                    break
                ana_went_out = _bots_turn_by_keys(a)
            expect(title).to_have_text("FIM DA RODADA")
            expect(title).to_be_focused()
            if not ana_went_out:
                expect(a.locator("#round-over")).not_to_contain_text("Ana bateu")
                # her hand's cards are still in the page (on a wide screen hidden under the
                # result panel): the focus left them for the title, not because they went away
                expect(hand(a)).not_to_have_count(0)
                return
            a.get_by_role("button", name="PRÓXIMA RODADA").click()
            expect(title).to_have_count(0)
        raise AssertionError("Ana went out in every round")
