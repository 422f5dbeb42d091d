"""Bots that do not search decide before the write transaction (``BotDriver._quick_plan``):
the process's write lock is free while they think, a decision made on a table that moved is
made again inside the transaction, and the moves are exactly those decided inside it. One bot
step of a process decides and writes at a time; a searching bot's wait for the child is not
part of that turn."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
import sqlalchemy as sa

from pifecacheta.bots import offload
from pifecacheta.rules import CACHETA_7, PIFE, Phase
from pifecacheta.service import TableService
from pifecacheta.service import bots as driver

from .helpers import hidden_match, play_human_move


def _tito_table(svc: TableService) -> tuple[str, Any]:
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, CACHETA_7)
    svc.add_bots(code, ana, ["Tito"])
    svc.start(code, ana)
    while hidden_match(svc.store.engine, code).round.turn != 1:  # Tito's turn
        assert play_human_move(svc, svc.store.engine, code, ana, 0, random.Random(1), go_out=False)
    return code, ana


def test_a_bot_decides_while_other_writers_write(svc: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    code, ana = _tito_table(svc)
    assert svc.bot_step(code)  # Tito draws (his seats are learned in this first step)
    real = driver.bot_action
    wrote: list[bool] = []

    def thinking(name: str, view: Any, rng: random.Random) -> Any:
        # Ana's chat line is written to the same table while Tito decides: it must not wait
        # for his transaction (SQLite's one writer, PostgreSQL's lock on the table's row)
        t = threading.Thread(target=lambda: svc.chat(code, ana, "pensa, Tito"))
        t.start()
        t.join(timeout=3)
        wrote.append(not t.is_alive())
        return real(name, view, rng)

    monkeypatch.setattr(driver, "bot_action", thinking)
    assert svc.bot_step(code)  # Tito discards
    assert wrote and all(wrote)
    assert [e["actor"] for e in svc.action_log(code)][-1] == "bot:Tito"


def test_a_decision_on_a_table_that_moved_is_made_again_inside(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _ = _tito_table(svc)
    assert svc.bot_step(code)
    real = driver.bot_action
    calls: list[int] = []

    moved: list[bool] = []

    def bump() -> None:
        with svc.store.engine.begin() as c:
            c.execute(sa.text("UPDATE game_table SET version = version + 1 WHERE code = :c"), {"c": code})

    def late(name: str, view: Any, rng: random.Random) -> Any:
        if not calls:  # the table's version moves on while Tito decides before the lock
            t = threading.Thread(target=bump)
            t.start()
            t.join(timeout=3)
            moved.append(not t.is_alive())
        calls.append(view.seat)
        return real(name, view, rng)

    monkeypatch.setattr(driver, "bot_action", late)
    before = len(svc.action_log(code))
    assert svc.bot_step(code)  # decided again inside the transaction, at the new version
    assert moved == [True] and len(calls) >= 2 and len(svc.action_log(code)) > before


def test_the_moves_are_those_decided_inside_the_transaction(
    db_engine: sa.Engine, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same seeded bots-only round played twice, once with every decision made inside the
    transaction and once before it: the action logs are equal, NA BOA included."""
    logs = []
    for quick in (False, True):
        svc = TableService(db_engine, clock=clock, seed_source=lambda: 4242, bot_delay=0, round_over_delay=0)
        if not quick:
            monkeypatch.setattr(driver.BotDriver, "_quick_plan", lambda self, code: None)
        else:
            monkeypatch.undo()
        ana = svc.identify(None, None, "Ana")
        code = svc.create_table(ana, CACHETA_7)
        svc.add_bots(code, ana, ["Carmen", "Tito"])
        svc.start(code, ana)
        rng = random.Random(9)
        for _ in range(400):
            m = hidden_match(db_engine, code)
            if m.round.phase is not Phase.DRAW and m.round.phase is not Phase.DISCARD:
                break
            if m.round.turn == 0:
                assert play_human_move(svc, db_engine, code, ana, 0, rng, go_out=False)
            else:
                assert svc.bot_step(code)
        log = svc.action_log(code)
        logs.append([(e["actor"] if e["actor"].startswith("bot:") else "ana", e["action"]) for e in log])
    assert len(logs[0]) > 30
    assert logs[0] == logs[1]
    assert any(who.startswith("bot:") and a["type"] == "announce_one_away" for who, a in logs[1])


def test_on_sqlite_one_bot_step_decides_and_writes_at_a_time(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite, while Tito decides at one table, a bot step at another table waits at the
    driver's gate (one runnable bot thread; the write lock's holder is not kept from the GIL by
    the others) and goes on once he is done. On PostgreSQL the two steps run side by side."""
    first, _ = _tito_table(svc)
    second, _ = _tito_table(svc)
    assert svc.bot_step(first) and svc.bot_step(second)  # both draw; their seats are learned
    real = driver.bot_action
    entered = {first: threading.Event(), second: threading.Event()}
    other: list[threading.Thread] = []
    overlapped: list[bool] = []

    def thinking(name: str, view: Any, rng: random.Random) -> Any:
        code = first if not entered[first].is_set() else second
        entered[code].set()
        if code == first:  # the other table's step starts now; it must not reach its decision
            t = threading.Thread(target=svc.bot_step, args=(second,))
            t.start()
            other.append(t)
            overlapped.append(entered[second].wait(timeout=1.0))
        return real(name, view, rng)

    monkeypatch.setattr(driver, "bot_action", thinking)
    before = len(svc.action_log(second))
    assert svc.bot_step(first)  # Tito discards at the first table
    other[0].join(timeout=10)
    gated = svc.store.engine.dialect.name == "sqlite"
    assert overlapped == [not gated]  # on SQLite the second step waited while the first decided
    assert not other[0].is_alive() and entered[second].is_set()  # then it played
    assert len(svc.action_log(second)) > before


def test_a_searching_bot_does_not_hold_the_gate(
    svc: TableService, people: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Luna's search runs in the child before the gate: while she waits for it at one table,
    Tito's step at another table is played."""
    luna = svc.create_table(people[1], PIFE)
    svc.add_bots(luna, people[1], ["Luna"])
    svc.start(luna, people[1])  # Luna plays first
    tito, _ = _tito_table(svc)
    searching, release = threading.Event(), threading.Event()
    real = offload.decide

    def slow(name: str, view: Any, rng: random.Random) -> Any:
        searching.set()
        release.wait(timeout=10)
        return real(name, view, rng)

    monkeypatch.setattr(offload, "decide", slow)
    results: list[bool] = []
    t = threading.Thread(target=lambda: results.append(svc.bot_step(luna)))
    t.start()
    try:
        assert searching.wait(timeout=10)
        assert svc.bot_step(tito)  # played while Luna still thinks
        assert t.is_alive() and not results
    finally:
        release.set()
        t.join(timeout=10)
    assert results == [True]
    assert svc.action_log(luna)[-1]["actor"] == "bot:Luna"
