"""The history panel's reads and projections cost one per table change, not one per tab.

Right after a change every tab of the table asks :func:`history_ui.history_for` at once: they
share one service read (``_read``), and the new projection reuses the lines of the events the
previous one already showed, and its list of past rounds while no round ended (so a tab's
``past_rounds`` field is set again only when a round ended). Real :class:`TableService`, real
snapshots; the service's kept history is dropped to force the read, as after a change made by
another process.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _take_and_jump import start_take_and_jump

from pifecacheta.rules import Draw, NextRound
from pifecacheta.service import TableService
from pifecacheta.state import history_ui


@pytest.fixture
def svc(db_engine, clock) -> TableService:
    history_ui._kept.clear()
    return TableService(db_engine, clock=clock, bot_delay=0)


def _start(svc: TableService) -> tuple[str, dict[int, Any], list[Any]]:
    code, who, _final, log = start_take_and_jump(svc)
    return code, who, log


def _act(svc: TableService, code: str, who: Any, action: Any) -> None:
    svc.act(code, who, action, expected_version=svc.snapshot(code, who).version)


def test_the_tabs_asking_at_once_share_one_read(svc: TableService, monkeypatch) -> None:
    code, who, log = _start(svc)
    for seat, action in log[:4]:
        _act(svc, code, who[seat], action)
    svc._history._kept.clear()  # nothing kept: the next ask reads the log
    svc._history._replays.clear()
    reads: list[str] = []
    real = svc.history
    monkeypatch.setattr(svc, "history", lambda c: reads.append(c) or real(c))
    snaps = [svc.snapshot(code, who[0]), svc.snapshot(code, who[1]), svc.snapshot(code, None)]

    async def all_tabs() -> list[Any]:
        return await asyncio.gather(*(history_ui.history_for(svc, s) for s in snaps * 2))

    views = asyncio.run(all_tabs())
    assert reads == [code]  # six tabs, one read
    assert {v.version for v in views} == {snaps[0].version}
    ana, bruno, spectator = views[:3]  # each its own latest line: never its own move
    assert (
        ana.latest.name == "Bruno" and bruno.latest.name == "Ana" and spectator.latest == spectator.lines[0]
    )


def test_the_next_projection_reuses_the_lines_and_the_rounds(svc: TableService) -> None:
    code, who, log = _start(svc)
    for seat, action in log[:-1]:
        _act(svc, code, who[seat], action)
    before = asyncio.run(history_ui.history_for(svc, svc.snapshot(code, who[0])))
    seat, action = log[-1]
    _act(svc, code, who[seat], action)  # the jump that ends the round
    after = asyncio.run(history_ui.history_for(svc, svc.snapshot(code, who[0])))
    assert len(after.lines) == len(before.lines) + 1
    # every line reused but the newest two: the new event's, and the one of the turn it closed
    # (the service replaces an open turn's event once its discard is known)
    assert all(a is b for a, b in zip(after.lines[2:], before.lines[1:], strict=True))
    assert (
        after.lines[1] is not before.lines[0]
        and after.lines[1] == history_ui.history_ui(svc.history(code), svc.snapshot(code, who[0])).lines[1]
    )
    assert before.rounds == [] and len(after.rounds) == 1  # the jump ended the round
    _act(svc, code, who[1], NextRound())
    next_round = asyncio.run(history_ui.history_for(svc, svc.snapshot(code, who[0])))
    assert [x.key for x in next_round.lines] == ["hist.round_start_vira"]
    assert next_round.rounds is after.rounds  # no round ended since: the very same list
    turn = svc.snapshot(code, who[0]).view.turn
    _act(svc, code, who[turn], Draw())
    again = asyncio.run(history_ui.history_for(svc, svc.snapshot(code, who[0])))
    assert again.version > next_round.version and again.rounds is after.rounds
    # a fresh projection of the same history, without the kept one, is equal: nothing stale
    fresh = history_ui.history_ui(svc.history(code), svc.snapshot(code, who[0]))
    assert fresh.lines == again.lines and fresh.rounds == again.rounds
