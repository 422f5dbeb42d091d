"""Which deltas of a table tab carry (and compute) ``ui``, ``history`` and ``chat_lines``.

``ui`` and ``history`` are cached on the table's change count the tab heard, its viewer and
its re-read counter (``state/table_view.py``, ``VIEW_DEPS``): a tab's events that change none
of them (a drag, a hidden message, another state's event such as the turn notices') neither
read the table nor serialise the view again. The chat lines are not in ``ui``: ``chat_lines``
comes only when a line was added, to players and spectators alike. Here the deltas are the
real ones Reflex builds for a tab's real state (``tests/state/_tab.py``), against a real
:class:`TableService`.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any

import pytest
import reflex as rx
from _tab import RealTab, _app, use_service
from _take_and_jump import start_take_and_jump

from pifecacheta.rules import CACHETA_7, Draw, NextRound
from pifecacheta.service import TableService
from pifecacheta.state import history_ui, snapshots, table_view, wire
from pifecacheta.state.history_ui import RoundUi
from pifecacheta.state.notices import NoticeState
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState

UI_KEY = "ui_rx_state_"
HISTORY_KEY = "history_rx_state_"
ROUNDS_KEY = "past_rounds_rx_state_"
CHAT_KEY = "chat_lines_rx_state_"


class _Counting:
    """The real service, counting the snapshot reads that reach it."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.reads = 0
        self.fail: Exception | None = None
        self.projections: list[int] = []
        self.on_change = svc.on_change

    def snapshot(self, code: str, who: Any) -> Any:
        return self.snapshots(code, [who])[0]

    def snapshots(self, code: str, whos: Any) -> Any:
        self.reads += 1
        if self.fail is not None:
            raise self.fail
        return self.svc.snapshots(code, whos)

    def snapshots_known(self, code: str, whos: Any) -> Any:
        # a failing service: nothing derived either, every state goes to the failing read
        return None if self.fail is not None else self.svc.snapshots_known(code, whos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.svc, name)


@pytest.fixture
def table(db_engine, clock, monkeypatch):
    """A started Cacheta match of Ana and Bruno; Bruno's tab, which heard change count 1."""
    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "11")
    svc = TableService(db_engine, clock=clock, bot_delay=0)
    counting = _Counting(svc)
    use_service(monkeypatch, counting)
    monkeypatch.setattr(snapshots, "READ_RETRIES", (0, 0))
    monkeypatch.setattr(table_view, "schedule_reread", lambda token, feed=None: True)
    projections: list[int] = []  # one entry per evaluation of ui (its projection of the snapshot)
    real_table_ui = table_view.table_ui
    monkeypatch.setattr(table_view, "table_ui", lambda snap: projections.append(1) or real_table_ui(snap))
    counting.projections = projections
    ana, bruno = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bruno)
    svc.start(code, ana)
    CACHE.clear()
    yield svc, counting, code, bruno, RealTab(code, bruno, table_version=1)
    CACHE.clear()


def _delta(tab: RealTab, fn: Any = None, cls: type[Any] = TableState) -> dict[str, Any]:
    """The delta Reflex resolves for the tab after ``fn(state of cls)`` ran under its lock."""
    out: dict[str, Any] = {}

    async def run() -> None:
        async with _app().modify_state(rx.BaseStateToken(ident=tab.token, cls=TableState)) as root:
            state = await root.get_state(cls)
            if fn is not None and inspect.isawaitable(result := fn(state)):
                await result  # an async handler's work (TableState._hear: the feed's push)
            delta = await root._get_resolved_delta()
            root._clean()
            out.update(delta.get(TableState.get_full_name(), {}))

    asyncio.run(run())
    return out


def test_ui_and_history_come_only_with_a_change_of_the_table(table):
    svc, counting, code, bruno, tab = table
    first = _delta(tab, lambda s: setattr(s, "table_version", 2))
    assert first[UI_KEY].can_draw and first[HISTORY_KEY].version == first[UI_KEY].version
    reads, projections = counting.reads, len(counting.projections)
    for fn in (
        lambda s: setattr(s, "dragging", "7h"),  # a drag starts: nothing about the table
        lambda s: setattr(s, "message", ""),
        None,  # a refresh with no change at all
    ):
        delta = _delta(tab, fn)
        assert UI_KEY not in delta and HISTORY_KEY not in delta
    notice = _delta(tab, lambda s: setattr(s, "permission", "granted"), NoticeState)  # the notices' chatter
    assert UI_KEY not in notice and HISTORY_KEY not in notice
    assert counting.reads == reads and len(counting.projections) == projections  # nor evaluated
    svc.act(code, bruno, Draw(), expected_version=first[UI_KEY].version)
    after = _delta(tab, lambda s: setattr(s, "table_version", 3))  # the feed's push of the draw
    assert after[UI_KEY].can_discard and after[UI_KEY].hand_count == first[UI_KEY].hand_count + 1
    assert len(after[HISTORY_KEY].lines) == len(first[HISTORY_KEY].lines) + 1


def test_a_page_load_reads_the_view_again_without_a_change(table):
    svc, counting, code, bruno, tab = table
    _delta(tab, lambda s: setattr(s, "table_version", 2))
    reads = counting.reads

    def load(state: Any) -> None:  # what TableState.load does besides identifying the viewer
        CACHE.forget_viewer(code, bruno)
        state._reread_view()

    loaded = _delta(tab, load)
    assert loaded[UI_KEY].found and counting.reads == reads + 1


def test_a_failed_read_is_read_again_by_the_next_delta(table):
    svc, counting, code, bruno, tab = table
    good = _delta(tab, lambda s: setattr(s, "table_version", 2))[UI_KEY]
    counting.fail = RuntimeError("database is locked")
    svc.act(code, bruno, Draw(), expected_version=good.version)
    kept = _delta(tab, lambda s: setattr(s, "table_version", 3))[UI_KEY]
    assert kept == good  # the last good view, not "not found"
    counting.fail = None
    reread = _delta(tab)  # the scheduled re-read: a delta with no change (LiveFeed.refresh)
    assert reread[UI_KEY].can_discard
    assert UI_KEY not in _delta(tab)  # and only once


@pytest.fixture
def round_over(db_engine, clock, monkeypatch):
    """A Cacheta match of Ana and Bruno one move before its first round's go-out: the
    service, the players, the table, and ``go_out()``, which plays that move."""
    svc = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, svc)
    monkeypatch.setattr(table_view, "schedule_reread", lambda token, feed=None: True)
    CACHE.clear()
    history_ui._kept.clear()
    code, who, _final, log = start_take_and_jump(svc)

    def play(seat: int, action: Any) -> None:
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, who[seat]).version)

    for seat, action in log[:-1]:
        play(seat, action)
    yield svc, who, code, lambda: play(*log[-1])
    CACHE.clear()


def test_past_rounds_come_once_per_round_and_cost_nothing_between(round_over, monkeypatch):
    """The past rounds reach a tab with the push that ended the round, and a new tab with its
    first push; the pushes between carry no ``past_rounds`` and serialise no round at all (an
    uncached var of them wrote and digested the whole list at every delta of every tab)."""
    svc, who, code, go_out = round_over
    tab = RealTab(code, who[1], table_version=1)
    assert ROUNDS_KEY not in _delta(tab, lambda s: s._hear(2))  # no round over yet: nothing to send
    go_out()
    ended = _delta(tab, lambda s: s._hear(3))
    assert [r.round_number for r in ended[ROUNDS_KEY]] == [1] and ended[ROUNDS_KEY][0].has_result
    written: list[Any] = []
    real_plain = wire.plain
    monkeypatch.setattr(wire, "plain", lambda v: written.append(v) or real_plain(v))
    svc.act(code, who[0], NextRound(), expected_version=svc.snapshot(code, who[0]).version)
    for delta in (_delta(tab, lambda s: s._hear(4)), _delta(tab, lambda s: setattr(s, "dragging", "7h"))):
        assert ROUNDS_KEY not in delta
    assert not [v for v in written if isinstance(v, RoundUi)]  # nor written, nor digested
    newcomer = RealTab(code, who[0], table_version=1)  # a tab this process never gave them to
    assert [r.round_number for r in _delta(newcomer, lambda s: s._hear(4))[ROUNDS_KEY]] == [1]
    assert ROUNDS_KEY not in _delta(newcomer, lambda s: s._hear(5))
    assert "_hear" not in TableState.event_handlers  # a browser cannot send it


def test_past_rounds_read_again_after_a_failed_read(round_over, monkeypatch):
    """A history read that fails on the push ending a round leaves the past rounds stale
    only until the tab's re-read (``LiveFeed.refresh`` -> ``_catch_up``), not until the next
    change at the table; the tab's other events do not read them."""
    svc, who, code, go_out = round_over
    tab = RealTab(code, who[1], table_version=1)
    _delta(tab, lambda s: s._hear(2))
    go_out()
    real = table_view.history_for

    async def failing(service: Any, snap: Any) -> Any:
        raise RuntimeError("database is locked")

    monkeypatch.setattr(table_view, "history_for", failing)
    assert ROUNDS_KEY not in _delta(tab, lambda s: s._hear(3))
    monkeypatch.setattr(table_view, "history_for", real)
    assert ROUNDS_KEY not in _delta(tab, lambda s: setattr(s, "dragging", "7h"))
    caught_up = _delta(tab, lambda s: s._catch_up())  # what the scheduled re-read runs
    assert [r.round_number for r in caught_up[ROUNDS_KEY]] == [1]
    assert ROUNDS_KEY not in _delta(tab, lambda s: s._catch_up())  # and only once


def test_a_tab_moving_to_another_table_never_keeps_the_first_ones_rounds(round_over, monkeypatch):
    """A tab that goes from a table with past rounds to another while that one's history
    cannot be read shows no rounds rather than the first table's."""
    svc, who, code, go_out = round_over
    go_out()
    tab = RealTab(code, who[1], table_version=1)
    assert len(_delta(tab, lambda s: s._hear(2))[ROUNDS_KEY]) == 1
    other = svc.create_table(who[1], CACHETA_7)
    svc.join(other, who[0])
    svc.start(other, who[1])

    async def failing(service: Any, snap: Any) -> Any:
        raise RuntimeError("database is locked")

    monkeypatch.setattr(table_view, "history_for", failing)

    async def move(state: Any) -> None:
        state.table_code = other
        await state._hear(1)

    assert _delta(tab, move)[ROUNDS_KEY] == []


def test_history_and_past_rounds_share_one_evaluation(table, monkeypatch):
    svc, counting, code, bruno, tab = table
    asked: list[int] = []
    real = table_view.history_for

    async def counted(service: Any, snap: Any) -> Any:
        asked.append(snap.version)
        return await real(service, snap)

    monkeypatch.setattr(table_view, "history_for", counted)
    first = _delta(tab, lambda s: s._hear(2))  # the push: past_rounds checked, history sent
    assert HISTORY_KEY in first and len(asked) == 1  # one evaluation for both
    _delta(tab, lambda s: setattr(s, "dragging", "7h"))  # neither is evaluated again
    assert len(asked) == 1
    svc.act(code, bruno, Draw(), expected_version=first[UI_KEY].version)
    after = _delta(tab, lambda s: s._hear(3))
    assert HISTORY_KEY in after and len(asked) == 2


def test_a_stored_tab_state_leaves_its_views_out(table):
    """What the Redis state manager pickles of a tab for each event holds no copy of ``ui`` and
    ``history`` (``TableView.__getstate__``); the live state keeps them cached."""
    import pickle

    svc, counting, code, bruno, tab = table
    _delta(tab, lambda s: setattr(s, "table_version", 2))
    state = tab.state
    cached = [TableState.computed_vars[n]._cache_attr for n in table_view.VIEWS_NOT_STORED]
    updated = TableState.computed_vars["ui"]._last_updated_attr
    assert all(a in state.__dict__ for a in cached)
    stored = pickle.dumps(state)
    assert all(a in state.__dict__ for a in cached)  # the live state is not changed by it
    restored = pickle.loads(stored)
    assert not any(a in restored.__dict__ for a in cached)
    assert updated in restored.__dict__  # so the 10 s interval does not fall due at once
    assert (restored.table_code, restored.table_version, restored.me) == (code, 2, bruno.player_id)
    with_views = pickle.dumps({k: v for k, v in vars(state).items()})
    assert len(stored) * 3 < len(with_views)


def test_a_move_carries_no_chat_and_a_chat_line_carries_the_lines(db_engine, clock, monkeypatch):
    """A move's delta for another tab has a new ``ui`` but no chat lines (and ``ui`` holds
    none); a chat line's delta carries the whole list, to the players and to a spectator,
    with its text as written; other events of the tab carry neither."""
    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "11")
    svc = TableService(db_engine, clock=clock, bot_delay=0)
    counting = _Counting(svc)
    use_service(monkeypatch, counting)
    ana, bruno = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bruno")
    caio = svc.identify(None, None, "Caio")  # watches: never sits
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bruno)
    svc.start(code, ana)
    CACHE.clear()
    try:
        tabs = {who.name: RealTab(code, who, table_version=1) for who in (ana, bruno, caio)}
        first = {name: _delta(tab, lambda s: setattr(s, "table_version", 2)) for name, tab in tabs.items()}
        assert all(d[CHAT_KEY] == [] for d in first.values())  # a first delta: the (empty) chat
        assert first["Caio"][UI_KEY].my_seat == -1  # a spectator's tab
        assert not hasattr(first["Ana"][UI_KEY], "chat")  # the lines are not in ui

        text = "<b>$& oi</b> \\ $1"
        svc.chat(code, bruno, text)
        said = {name: _delta(tab, lambda s: setattr(s, "table_version", 3)) for name, tab in tabs.items()}
        for name, delta in said.items():
            lines = delta[CHAT_KEY]
            assert [(c.name, c.text) for c in lines] == [("Bruno", text)], name
            assert lines[0].at.endswith("Z")
        assert said["Ana"][CHAT_KEY] is said["Caio"][CHAT_KEY]  # one list for the table's tabs
        reads = counting.reads
        for name, tab in tabs.items():  # the tab's other events: the chat is not sent again
            delta = _delta(tab, lambda s: setattr(s, "dragging", "7h"))
            assert CHAT_KEY not in delta and UI_KEY not in delta, name
        assert counting.reads == reads  # nor read again

        turn = first["Ana"][UI_KEY].turn_name
        mover = ana if turn == "Ana" else bruno
        svc.act(code, mover, Draw(), expected_version=said["Ana"][UI_KEY].version)
        moved = {name: _delta(tab, lambda s: setattr(s, "table_version", 4)) for name, tab in tabs.items()}
        for name, delta in moved.items():
            assert UI_KEY in delta and CHAT_KEY not in delta, name  # the move, without the chat
            # the line's own words (a bare "oi" can be part of the random table code)
            assert "$& oi" not in json.dumps(delta[UI_KEY], default=lambda v: vars(v)), name

        svc.chat(code, ana, "boa")
        again = _delta(tabs["Caio"], lambda s: setattr(s, "table_version", 5))
        assert [c.text for c in again[CHAT_KEY]] == [text, "boa"]  # the whole list, oldest first
    finally:
        CACHE.clear()


def test_a_failed_read_keeps_the_chat(table):
    """A snapshot read that fails keeps the chat lines (as ``ui`` keeps the last view): the
    delta carries no change of them, and the read that works again brings the new line."""
    svc, counting, code, bruno, tab = table
    svc.chat(code, bruno, "oi")
    first = _delta(tab, lambda s: setattr(s, "table_version", 2))
    assert [c.text for c in first[CHAT_KEY]] == ["oi"]
    counting.fail = RuntimeError("database is locked")
    svc.chat(code, bruno, "de novo")
    failed = _delta(tab, lambda s: setattr(s, "table_version", 3))
    assert CHAT_KEY not in failed  # not blanked: the lines the tab has stay
    counting.fail = None
    reread = _delta(tab)  # the scheduled re-read (LiveFeed.refresh)
    assert [c.text for c in reread[CHAT_KEY]] == ["oi", "de novo"]
