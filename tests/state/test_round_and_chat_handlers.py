"""Handlers' messages: PRÓXIMA RODADA pressed by two players at once, a blank chat line, and a
tap on the discard pile carrying a card from the browser.

``TableState.next_round`` / ``send_chat`` / ``pile_click`` run on a tab's real Reflex state
(tests/state/_tab.py) against a real :class:`TableService`, as in test_sit_refusal.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from _planned import play_planned
from _tab import RealTab, use_service

from pifecacheta.rules import CACHETA_7, Phase
from pifecacheta.service import TableService
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    CACHE.clear()
    return service


def _round_over(svc: TableService, monkeypatch) -> tuple[str, dict[int, Any]]:
    """A two-player Cacheta table whose first round just ended (a planned, seeded game)."""
    code, who, _final, _log = play_planned(svc, monkeypatch, CACHETA_7, out_of_turn=False)
    assert svc.snapshot(code, None).view.phase is Phase.ROUND_OVER
    return code, who


def test_proxima_rodada_pressed_by_both_players_tells_nobody_off(svc, monkeypatch):
    """Both saw FIM DA RODADA at version V and pressed PRÓXIMA RODADA: the first starts the
    next round, the second's stale press is what it wanted, so no "the table changed"."""
    code, who = _round_over(svc, monkeypatch)
    seen = svc.snapshot(code, None).version
    ana, bruno = RealTab(code, who[0]), RealTab(code, who[1])
    ana.run(TableState.next_round, seen)
    assert ana.message == "" and svc.snapshot(code, None).view.round_number == 2
    bruno.run(TableState.next_round, seen)
    assert bruno.message == ""
    view = svc.snapshot(code, None).view
    assert view.round_number == 2 and view.phase is Phase.DRAW  # one new round, not two


def test_a_stale_press_that_did_not_close_the_round_is_still_said(svc, monkeypatch):
    """A PRÓXIMA RODADA with an outdated version while the round is STILL over (here a version
    the table never had) is refused and said: only a round already left is forgiven."""
    code, who = _round_over(svc, monkeypatch)
    bruno = RealTab(code, who[1])
    bruno.run(TableState.next_round, svc.snapshot(code, None).version - 1)
    assert bruno.message == "err.stale_version"
    assert svc.snapshot(code, None).view.phase is Phase.ROUND_OVER


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_a_blank_chat_line_is_refused_with_a_message(svc, monkeypatch, text):
    code, who = _round_over(svc, monkeypatch)
    ana = RealTab(code, who[0])
    ana.run(TableState.send_chat, {"text": text})
    assert ana.message == "err.chat_empty"
    assert svc.snapshot(code, who[0]).chat == ()


def _started(svc: TableService) -> tuple[str, Any, Any]:
    ana = svc.identify(None, None, "Ana")
    bruno = svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bruno)
    svc.start(code, ana)
    return code, ana, bruno


@pytest.mark.parametrize("forged", ["<b>KD</b>", "KD; DROP TABLE", "", "ZZ"])
def test_a_pile_tap_with_a_forged_card_is_refused_and_changes_nothing(svc, forged):
    """The selected card travels from the browser with the tap on the pile: anything that is
    not a card of the tapper's hand is refused with a message (or, when empty in the discard
    phase, does nothing) and the table is untouched."""
    code, _ana, bruno = _started(svc)
    before = svc.snapshot(code, None).version
    tab = RealTab(code, bruno)  # Bruno plays first: draw, then the forged discard tap
    tab.run(TableState.draw, before)
    drawn = svc.snapshot(code, bruno)
    tab.run(TableState.pile_click, drawn.version, "discard", forged)
    after = svc.snapshot(code, bruno)
    assert after.version == drawn.version and after.view.hand == drawn.view.hand
    assert tab.message == ("" if forged == "" else "err.card_not_in_hand")


def test_a_pile_tap_discards_the_card_the_browser_selected(svc):
    code, ana, bruno = _started(svc)
    tab = RealTab(code, bruno)
    tab.run(TableState.draw, svc.snapshot(code, None).version)
    snap = svc.snapshot(code, bruno)
    card = snap.view.hand[0]  # drawn from the stock: any card of the hand may go
    theirs = svc.snapshot(code, ana).view.hand[0]  # another seat's card: refused
    tab.run(TableState.pile_click, snap.version, "discard", str(theirs))
    assert tab.message == "err.card_not_in_hand" and svc.snapshot(code, None).version == snap.version
    tab.run(TableState.pile_click, snap.version, "discard", str(card))
    view = svc.snapshot(code, None).view
    assert tab.message == "" and view.discard_pile[-1] == card and view.hand_counts[1] == 9


def test_a_pile_tap_in_the_draw_phase_takes_the_top_card_even_with_a_card_selected(svc):
    """Tapping a card before drawing only looks at it: the tap on the pile is PEGAR DO LIXO."""
    code, ana, bruno = _started(svc)
    tab_b, tab_a = RealTab(code, bruno), RealTab(code, ana)
    tab_b.run(TableState.draw, svc.snapshot(code, None).version)
    snap = svc.snapshot(code, bruno)
    top = snap.view.hand[0]
    tab_b.run(TableState.pile_click, snap.version, "discard", str(top))
    mine = svc.snapshot(code, ana)
    tab_a.run(TableState.pile_click, mine.version, "draw", str(mine.view.hand[3]))
    after = svc.snapshot(code, ana).view
    assert tab_a.message == "" and after.taken == top and top in after.hand
    assert len(after.hand) == 10 and after.discard_pile == ()


@pytest.mark.parametrize("second", ["draw", "take"])
def test_the_second_click_of_a_double_click_on_compra_says_nothing(svc, second):
    """A double click on COMPRAR sends two draws with the version the page showed: the first
    draws, the second is refused as stale (nothing more is drawn) and says nothing, since the
    viewer already has the card it asked for."""
    code, _ana, bruno = _started(svc)
    seen = svc.snapshot(code, None).version
    tab = RealTab(code, bruno)
    tab.run(TableState.draw, seen)
    drawn = svc.snapshot(code, bruno)
    tab.run(getattr(TableState, second), seen)
    after = svc.snapshot(code, bruno)
    assert tab.message == "" and after.version == drawn.version and len(after.view.hand) == 10


def test_a_stale_draw_before_drawing_is_still_said(svc):
    """A COMPRAR with an outdated version while it is STILL the viewer's draw turn (here a
    version the table never had) is refused and said: only a draw already made is forgiven."""
    code, _ana, bruno = _started(svc)
    tab = RealTab(code, bruno)
    tab.run(TableState.draw, svc.snapshot(code, None).version - 1)
    assert tab.message == "err.stale_version"
    assert len(svc.snapshot(code, bruno).view.hand) == 9
