"""Two handlers' messages: PRÓXIMA RODADA pressed by two players at once, and a blank chat line.

``TableState.next_round`` / ``send_chat`` run on a stand-in for the Reflex state (the real
helper methods ``_act``, ``_call``, ``_snapshot``, ``_refused``, ``_changed``, ``_who``) against a
real :class:`TableService`, as in test_sit_refusal.py.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _planned import play_planned

from pifecacheta.rules import CACHETA_7, Phase
from pifecacheta.service import TableService
from pifecacheta.state import table as table_state
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState


class _Tab:
    """The fields and helpers of one tab's ``TableState`` that the handlers use."""

    _act = TableState._act
    _call = TableState._call
    _snapshot = TableState._snapshot
    _refused = TableState._refused
    _changed = TableState._changed
    _who = TableState._who
    _token = TableState._token
    router = None  # no real tab: nothing to push to

    def __init__(self, code: str, who: Any) -> None:
        self.table_code = code
        self.me, self._secret, self._name = who.player_id, who.secret, who.name
        self.message, self.message_serial, self.message_version = "", 0, -1
        self.table_version = 0


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    monkeypatch.setattr(table_state, "get_service", lambda: service)
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
    ana, bruno = _Tab(code, who[0]), _Tab(code, who[1])
    asyncio.run(TableState.next_round.fn(ana, seen))
    assert ana.message == "" and svc.snapshot(code, None).view.round_number == 2
    asyncio.run(TableState.next_round.fn(bruno, seen))
    assert bruno.message == ""
    view = svc.snapshot(code, None).view
    assert view.round_number == 2 and view.phase is Phase.DRAW  # one new round, not two


def test_a_stale_press_that_did_not_close_the_round_is_still_said(svc, monkeypatch):
    """A PRÓXIMA RODADA with an outdated version while the round is STILL over (here a version
    the table never had) is refused and said: only a round already left is forgiven."""
    code, who = _round_over(svc, monkeypatch)
    bruno = _Tab(code, who[1])
    asyncio.run(TableState.next_round.fn(bruno, svc.snapshot(code, None).version - 1))
    assert bruno.message == "err.stale_version"
    assert svc.snapshot(code, None).view.phase is Phase.ROUND_OVER


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_a_blank_chat_line_is_refused_with_a_message(svc, monkeypatch, text):
    code, who = _round_over(svc, monkeypatch)
    ana = _Tab(code, who[0])
    asyncio.run(TableState.send_chat.fn(ana, {"text": text}))
    assert ana.message == "err.chat_empty"
    assert svc.snapshot(code, who[0]).chat == ()
