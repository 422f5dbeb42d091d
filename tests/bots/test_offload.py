"""Luna's search runs in the bots' child process and outside the table's write transaction."""

from __future__ import annotations

import random
import threading

import pytest
import sqlalchemy as sa

from pifecacheta.bots import luna, offload
from pifecacheta.rules import PIFE, Phase, new_match, player_view
from pifecacheta.service import TableService


def test_the_child_process_decides_as_the_thread_would() -> None:
    views = []
    m = new_match(PIFE, 3, seed=2)
    views.append(player_view(m, m.round.turn))  # type: ignore[union-attr]
    try:
        for v in views:
            here = luna.choose_action(v, rng=random.Random(4))
            there = offload.decide("Luna", v, random.Random(4))
            assert here == there is not None
    finally:
        offload.shutdown()


def test_the_budget_shrinks_with_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PIFECACHETA_LUNA_SAMPLES")
    monkeypatch.setenv("PIFECACHETA_LUNA_MS", "100")
    seen: list[luna.Budget | None] = []

    class Pool:
        def submit(self, fn, name, view, rng, limit):  # type: ignore[no-untyped-def]
            seen.append(limit)

            class Done:
                def result(self) -> None:
                    return None

            return Done()

    monkeypatch.setattr(offload, "_pool", Pool())
    v = player_view(new_match(PIFE, 2, seed=1), 1)
    offload.decide("Luna", v, random.Random(0))
    monkeypatch.setattr(offload, "_waiting", 3)
    offload.decide("Luna", v, random.Random(0))
    assert seen == [luna.Budget(None, 100.0), luna.Budget(None, 25.0)]
    monkeypatch.setattr(offload, "_pool", None)


def _luna_table(db_engine: sa.Engine, clock) -> tuple[TableService, str]:  # type: ignore[no-untyped-def]
    svc = TableService(db_engine, clock=clock, seed_source=lambda: 5, bot_delay=0, round_over_delay=0)
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Luna"])
    svc.start(code, ana)  # seat 1 (Luna) plays first
    return svc, code


def test_luna_thinks_while_other_writers_write(db_engine, clock, monkeypatch: pytest.MonkeyPatch) -> None:
    svc, code = _luna_table(db_engine, clock)
    real = offload.decide
    wrote: list[bool] = []

    def thinking(name, view, rng):  # type: ignore[no-untyped-def]
        # another thread writes (a new player) while Luna decides: it must not wait for her
        t = threading.Thread(target=lambda: svc.identify(None, None, "Bia"))
        t.start()
        t.join(timeout=10)
        wrote.append(not t.is_alive())
        assert view.seat == 1 and view.phase is Phase.DRAW and view.hand_counts == (9, 9)
        return real(name, view, rng)

    monkeypatch.setattr(offload, "decide", thinking)
    monkeypatch.setenv("PIFECACHETA_BOT_PROCESSES", "0")
    assert svc.bot_step(code)
    assert wrote == [True]
    assert [e["actor"] for e in svc.action_log(code)][-1:] == ["bot:Luna"]


def test_a_move_decided_on_a_stale_table_is_not_played(db_engine, clock, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    svc, code = _luna_table(db_engine, clock)
    real = offload.decide

    def late(name, view, rng):  # type: ignore[no-untyped-def]
        with db_engine.begin() as c:  # the table moves on while she thinks
            c.execute(sa.text("UPDATE game_table SET version = version + 1 WHERE code = :c"), {"c": code})
        return real(name, view, rng)

    monkeypatch.setenv("PIFECACHETA_BOT_PROCESSES", "0")
    monkeypatch.setattr(offload, "decide", late)
    before = len(svc.action_log(code))
    assert not svc.bot_step(code)
    assert len(svc.action_log(code)) == before
    monkeypatch.setattr(offload, "decide", real)
    assert svc.bot_step(code)
    assert len(svc.action_log(code)) == before + 1


def test_a_dead_child_costs_one_decision_in_the_thread_and_a_new_pool_after() -> None:
    import os
    import signal

    m = new_match(PIFE, 3, seed=2)
    v = player_view(m, m.round.turn)  # type: ignore[union-attr]
    try:
        first = offload.decide("Luna", v, random.Random(4))
        pool = offload._pool
        assert pool is not None
        for pid in list(pool._processes):  # the pool's children (CPython's ProcessPoolExecutor)
            os.kill(pid, signal.SIGKILL)
        again = offload.decide("Luna", v, random.Random(4))  # the broken pool: decided here
        assert again == first
        assert offload._pool is None
        assert offload.decide("Luna", v, random.Random(4)) == first  # a new pool
        assert offload._pool is not None and offload._pool is not pool
    finally:
        offload.shutdown()


def test_warm_up_starts_the_children_before_the_first_move(monkeypatch: pytest.MonkeyPatch) -> None:
    offload.shutdown()
    try:
        assert offload.warm_up() is True
        pool = offload._pool
        assert pool is not None and len(pool._processes) == offload.processes()
        m = new_match(PIFE, 3, seed=2)
        v = player_view(m, m.round.turn)  # type: ignore[union-attr]
        assert offload.decide("Luna", v, random.Random(4)) is not None
        assert offload._pool is pool  # the first move used the children already started
    finally:
        offload.shutdown()
    monkeypatch.setenv("PIFECACHETA_BOT_PROCESSES", "0")
    assert offload.warm_up() is False and offload._pool is None
