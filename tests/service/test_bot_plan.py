"""Bots that do not search decide before the write transaction (``BotDriver._quick_plan``):
the process's write lock is free while they think, a decision made on a table that moved is
made again inside the transaction, and the moves are exactly those decided inside it."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
import sqlalchemy as sa

from pifecacheta.rules import CACHETA_7, Phase
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
