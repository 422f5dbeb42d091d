"""RODADAS ANTERIORES (state/older_rounds.py): the older rounds of a table come to the tab that
asks, a page at a time, newest first, as the history's other rounds; a REVANCHE that makes more
rounds older starts the list again; a table that is gone is a refusal that changes nothing."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
import reflex as rx
from _tab import RealTab, _app, use_service
from _take_and_jump import start_take_and_jump

from pifecacheta.rules import NextRound
from pifecacheta.service import TableService
from pifecacheta.state import history_ui, older_rounds
from pifecacheta.state.older_rounds import OlderRoundsState
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    monkeypatch.setattr(older_rounds, "get_service", lambda: service)
    monkeypatch.setattr(older_rounds, "PAGE", 2)
    CACHE.clear()
    history_ui._kept.clear()
    return service


def _ask(tab: RealTab) -> tuple[list, int, str, str]:
    """Press RODADAS ANTERIORES in ``tab``: (older rounds shown, their total, table, refusal)."""

    async def run() -> tuple[list, int, str, str]:
        token = rx.BaseStateToken(ident=tab.token, cls=TableState)
        async with _app().modify_state(token) as root:
            st = await root.get_state(OlderRoundsState)
            await OlderRoundsState.show_older_rounds.fn(st)
            return list(st.older), st.older_total, st.older_code, st.older_error

    return asyncio.run(run())


def test_older_rounds_come_a_page_at_a_time_newest_first(svc: TableService, monkeypatch) -> None:
    code, who, final, log = start_take_and_jump(svc)
    for seat, action in log:
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, who[seat]).version)
    svc.act(code, who[1], NextRound(), expected_version=svc.snapshot(code, who[1]).version)
    (r1,) = svc.history(code).rounds
    # three rounds of earlier matches older than the kept ones (the service's own test plays them)
    older = tuple(dataclasses.replace(r1, match_number=m) for m in (1, 2, 3))
    asked: list[str] = []
    monkeypatch.setattr(svc, "older_rounds", lambda c: asked.append(c) or older)
    tab = RealTab(code, None)  # a spectator sees the results too (seed 000 line 68)
    shown, total, table, error = _ask(tab)
    assert asked == [code] and (total, table, error) == (3, code, "")
    assert [(r.match_number, r.earlier_match, r.record_match) for r in shown] == [(3, True, 3), (2, True, 2)]
    assert shown[0].result_winner == "Bruno" and shown[0].result_banner_key == "banner.jump"
    shown, total, _, _ = _ask(tab)
    assert [r.match_number for r in shown] == [3, 2, 1]
    again, _, _, _ = _ask(tab)  # all shown: nothing added
    assert [r.match_number for r in again] == [3, 2, 1]
    # a REVANCHE made one more round older: the list starts again from the newest
    older = (*older, dataclasses.replace(r1, match_number=4))
    shown, total, _, _ = _ask(tab)
    assert total == 4 and [r.match_number for r in shown] == [4, 3]


def test_a_table_gone_is_a_refusal_that_changes_nothing(svc: TableService, monkeypatch) -> None:
    code, who, final, log = start_take_and_jump(svc)
    for seat, action in log:
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, who[seat]).version)
    (r1,) = svc.history(code).rounds
    monkeypatch.setattr(svc, "older_rounds", lambda c: (r1, dataclasses.replace(r1, match_number=2)))
    tab = RealTab(code, who[0])
    shown, total, table, error = _ask(tab)
    assert [r.match_number for r in shown] == [2, 1] and (total, table, error) == (2, code, "")
    tab.state.table_code = "ZZZZZZ"  # a forged or expired table
    after, total, table, error = _ask(tab)
    assert error == "err.table_not_found" and (after, total, table) == (shown, 2, code)
    assert "ZZZZZZ" not in svc._history._table_locks  # nothing kept for a code of no table
