"""A move the page sent as its connection dropped (``state/unanswered.py``): after the
reconnect the page reports it to ``TableState.replay_unanswered``, which makes it once when
the table is still where the player saw it, does nothing when the log shows it was made, and
tells the player when the table moved on without it; and a click the page queued while
offline, sent after the reconnect to a fresh tab state before its on_load, is made (issue 11,
defect 6). Real tab states on a real service (tests/state/_tab.py), as in
test_round_and_chat_handlers.py.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
from _tab import RealTab, use_service
from reflex.istate.data import ReflexURL

from pifecacheta.rules import CACHETA_7, Draw, Phase
from pifecacheta.service import TableService
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState


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


def _fresh_tab(code: str, who: Any) -> RealTab:
    """A tab whose state was lost (a restarted process, a new token) and whose page's next
    event comes before its on_load: no table yet, only the event's path and the browser's
    identity (the hydrate put it in ``ViewerState``)."""
    tab = RealTab(code, None)

    async def fresh(state: Any) -> None:
        state.table_code = ""
        state.router = dataclasses.replace(state.router, url=ReflexURL(f"http://localhost:3000/mesa/{code}"))
        session = await state.get_state(ViewerState)
        session.player_id, session.secret, session.name = who.player_id, who.secret, who.name

    asyncio.run(tab._modify(fresh))
    return tab


def test_a_double_tap_queued_while_offline_is_made_on_a_fresh_tab_state(svc):
    """Issue 11 defect 6: the page sends the double tap it queued while the server was down
    right after the reconnect, before on_load; the fresh state opens the table first."""
    code, first, _other, v = _started(svc)
    svc.act(code, first, Draw(), expected_version=v)
    card = str(svc.snapshot(code, first).view.hand[0])
    tab = _fresh_tab(code, first)
    tab.run(TableState.card_double, card, v + 1)
    assert tab.message == "" and tab.table_code == code
    log = svc.action_log(code)
    assert log[-1]["version"] == v + 2 and log[-1]["action"] in (
        {"type": "discard", "card": card},
        {"type": "go_out", "discard": card},
    )


def test_a_chat_line_queued_while_offline_is_sent_on_a_fresh_tab_state(svc):
    code, first, _other, _v = _started(svc)
    tab = _fresh_tab(code, first)
    tab.run(TableState.send_chat, {"text": "voltei"})
    assert tab.message == ""
    assert [line.text for line in svc.snapshot(code, first).chat] == ["voltei"]
