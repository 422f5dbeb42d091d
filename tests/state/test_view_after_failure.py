"""A tab whose snapshot read fails keeps the table as it last saw it, and catches up by itself.

``TableState.ui`` is evaluated only when the tab gets a delta; on the player's own turn
nothing else changes at the table, so an empty ``TableUi`` (the "not found" screen, no
COMPRAR) after a failed read would stay. Here ``ui`` runs on a tab's real Reflex state
(tests/state/_tab.py) against a real :class:`TableService` whose reads are made to fail; the
re-reads go through a :class:`LocalFeed` on an app stand-in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import pytest
from _tab import RealTab, use_service

from pifecacheta.live import LocalFeed
from pifecacheta.rules import CACHETA_7, Draw, IllegalActionError
from pifecacheta.service import Refusal, TableService
from pifecacheta.state import snapshots
from pifecacheta.state import table_view as table_state
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState


class _Tab(RealTab):
    """Ana's or Bruno's tab at the table, which last heard change count 1."""

    def __init__(self, code: str, who: Any) -> None:
        super().__init__(code, who, table_version=1)


class _Breakable:
    """The real service; its reads raise ``fail`` while it is set."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.fail: Exception | None = None
        self.on_change = svc.on_change

    def snapshot(self, code: str, who: Any) -> Any:
        return self.snapshots(code, [who])[0]

    def snapshots(self, code: str, whos: Any) -> Any:
        if self.fail is not None:
            raise self.fail
        return self.svc.snapshots(code, whos)


@pytest.fixture
def table(db_engine, clock, monkeypatch):
    """A Cacheta match of Ana and Bruno, Bruno to draw; Ana's tab and the breakable service."""
    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "11")
    svc = TableService(db_engine, clock=clock, bot_delay=0)
    broken = _Breakable(svc)
    use_service(monkeypatch, broken)
    monkeypatch.setattr(snapshots, "READ_RETRIES", (0, 0))
    refreshes: list[str] = []
    monkeypatch.setattr(table_state, "schedule_reread", lambda token, feed=None: refreshes.append(token))
    ana, bruno = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bruno)
    svc.start(code, ana)
    CACHE.clear()
    yield svc, broken, code, (ana, bruno), refreshes
    CACHE.clear()


def _ui(tab: _Tab) -> Any:
    return tab.ui()


def test_a_failed_read_keeps_the_last_view_logs_it_and_schedules_a_reread(table, caplog):
    svc, broken, code, (ana, bruno), refreshes = table
    tab = _Tab(code, bruno)
    before = _ui(tab)
    assert before.found and before.is_player and before.can_draw  # Bruno's turn to draw
    for exc in (
        RuntimeError("database is locked"),
        IllegalActionError("taken_card"),  # a bug deep in a projection: has a code, still logged
    ):
        broken.fail = exc
        tab.state.table_version += 1  # a push of some other change: ui is evaluated again
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="pifecacheta.state.table_view"):
            after = _ui(tab)
        assert after == before  # the page stays as it was: COMPRAR still there, not "not found"
        assert any(r.exc_info and r.exc_info[1] is exc for r in caplog.records), exc
    assert refreshes == [tab.token, tab.token]
    broken.fail = None  # the re-read: the table as it is now
    svc.act(code, bruno, Draw(), expected_version=before.version)
    now = _ui(tab)
    assert now.can_discard and now.hand_count == before.hand_count + 1


def test_only_a_missing_table_shows_not_found(table, caplog):
    svc, broken, code, (ana, bruno), refreshes = table
    tab = _Tab(code, ana)
    assert _ui(tab).found
    broken.fail = Refusal("table_not_found")
    tab.state.table_version += 1
    caplog.clear()  # what opening the tab logged (Reflex: its delta reaches no socket)
    with caplog.at_level(logging.ERROR, logger="pifecacheta.state.table_view"):
        gone = _ui(tab)
    assert not gone.found and refreshes == [] and not caplog.records


def test_a_tab_that_never_read_the_table_shows_nothing_rather_than_another_view(table):
    svc, broken, code, (ana, bruno), refreshes = table
    assert _ui(_Tab(code, ana)).found
    broken.fail = RuntimeError("database is locked")
    tab = _Tab(code, bruno)
    view = _ui(tab)  # Bruno never read: Ana's view is never a fallback for him
    assert not view.found and view.hand_count == 0 and refreshes == [tab.token]


class _App:
    """``app.modify_state`` as the re-read uses it: each entry evaluates the tab's ``ui``."""

    def __init__(self, evaluate) -> None:
        self.entries = 0
        self.evaluate = evaluate

    @contextlib.asynccontextmanager
    async def modify_state(self, token: Any):
        self.entries += 1
        yield self
        self.evaluate(token.ident)

    async def get_state(self, cls: Any) -> Any:  # the tab's state: nothing to catch up here
        return object()


def test_rereads_repeat_with_growing_delays_until_one_goes_through(monkeypatch):
    monkeypatch.setattr(table_state, "REREAD_DELAYS", (0.001, 0.002, 0.003))
    failures = {"n": 2}

    def evaluate(token: str) -> None:  # the delta's ui: fails twice more, then reads
        if failures["n"] > 0:
            failures["n"] -= 1
            table_state.schedule_reread(token, feed)

    app = _App(evaluate)
    feed = LocalFeed(app, TableState)

    async def run() -> None:
        assert table_state.schedule_reread("tab-1", feed)
        assert not table_state.schedule_reread("tab-1", feed)  # one pending per tab
        while table_state._rereads_pending:
            await asyncio.sleep(0.005)

    asyncio.run(run())
    assert app.entries == 3 and failures["n"] == 0
    assert "tab-1" not in table_state._failed_rereads  # went through: the next failure starts afresh


def test_rereads_stop_after_the_last_delay(monkeypatch, caplog):
    monkeypatch.setattr(table_state, "REREAD_DELAYS", (0.001, 0.001))
    app = _App(lambda token: table_state.schedule_reread(token, feed))  # fails forever
    feed = LocalFeed(app, TableState)

    async def run() -> None:
        table_state.schedule_reread("tab-2", feed)
        while table_state._rereads_pending:
            await asyncio.sleep(0.005)

    with caplog.at_level(logging.ERROR, logger="pifecacheta.state.table_view"):
        asyncio.run(run())
    assert app.entries == 2
    assert any("still failing" in r.getMessage() for r in caplog.records)
    assert "tab-2" not in table_state._failed_rereads


def test_no_reread_without_a_running_app():
    assert not table_state.schedule_reread("tab-3")  # a unit test: no Reflex app, no loop
    assert not table_state.schedule_reread("")


def test_the_history_of_a_missing_table_is_empty_and_logs_nothing(table, caplog):
    """An old invite link: ``ui`` says "not found"; the history panel's read says nothing in
    the log either (each page evaluation asked it, one traceback each)."""
    svc, broken, code, (ana, _bruno), _refreshes = table
    tab = _Tab(code, ana)
    broken.fail = Refusal("table_not_found")
    tab.state.table_version += 1
    caplog.clear()
    history = TableState.computed_vars["history"]._fget
    with caplog.at_level(logging.WARNING, logger="pifecacheta.state.table_view"):
        empty = asyncio.run(history(tab.state))
    assert empty.lines == [] and not caplog.records
