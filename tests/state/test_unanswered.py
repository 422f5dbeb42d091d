"""A move the page sent as its connection dropped (``state/unanswered.py``): after the
reconnect the page reports it to ``TableState.replay_unanswered``, which makes it once when
the table is still where the player saw it, does nothing when the log shows it was made, and
tells the player when the table moved on without it. Real tab states on a real service
(tests/state/_tab.py), as in test_round_and_chat_handlers.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from _tab import RealTab, use_service

from pifecacheta.rules import CACHETA_7, Draw, Phase
from pifecacheta.service import TableService
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    CACHE.clear()
    return service


def _started(svc: TableService) -> tuple[str, Any, Any, int]:
    """A two-player Cacheta table just dealt: its code, the player to move, the other, and
    the table version they both see."""
    ana, bruno = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bruno)
    svc.start(code, ana)
    snap = svc.snapshot(code, ana)
    first, other = (ana, bruno) if snap.view.turn == 0 else (bruno, ana)
    return code, first, other, snap.version


def _draws(svc: TableService, code: str, who: Any) -> list[dict[str, Any]]:
    return [
        r
        for r in svc.action_log(code)
        if r["actor"] == f"player:{who.player_id}" and r["action"]["type"] == "draw"
    ]


def test_a_draw_that_never_reached_the_server_is_made_once(svc):
    code, first, _other, v = _started(svc)
    tab = RealTab(code, first)
    tab.run(TableState.replay_unanswered, {"kind": "draw", "args": {"version": v}})
    assert tab.message == ""
    view = svc.snapshot(code, first).view
    assert view.phase is Phase.DISCARD and len(view.hand) == 10
    tab.run(TableState.replay_unanswered, {"kind": "draw", "args": {"version": v}})  # reported again
    assert tab.message == "" and len(_draws(svc, code, first)) == 1


def test_a_draw_made_whose_answer_was_lost_is_not_made_again_nor_refused(svc):
    code, first, _other, v = _started(svc)
    svc.act(code, first, Draw(), expected_version=v)  # made; the answer died with the backend
    tab = RealTab(code, first)
    tab.run(TableState.replay_unanswered, {"kind": "draw", "args": {"version": v}})
    assert tab.message == "" and len(_draws(svc, code, first)) == 1


def test_a_move_the_table_moved_past_is_said_not_made(svc):
    code, first, other, v = _started(svc)
    svc.act(code, first, Draw(), expected_version=v)  # the table moved on meanwhile
    tab = RealTab(code, other)
    tab.run(TableState.replay_unanswered, {"kind": "take", "args": {"version": v}})
    assert tab.message == "err.lost_in_drop"
    assert _draws(svc, code, other) == [] and svc.snapshot(code, other).version == v + 1


@pytest.mark.parametrize(
    "sent",
    [None, "draw", {"kind": "resign", "args": {"version": 3}}, {"kind": "draw", "args": {"version": "3"}},
     {"kind": "card_double", "args": {"version": 3}}],
)  # fmt: skip
def test_what_is_not_a_reported_move_changes_nothing(svc, sent):
    code, first, _other, v = _started(svc)
    tab = RealTab(code, first)
    tab.run(TableState.replay_unanswered, sent)
    assert tab.message == "" and svc.snapshot(code, first).version == v
