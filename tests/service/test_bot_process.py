"""The bots' steps made in a child process on the same SQLite file (service/bot_process.py)."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from pifecacheta.db import make_engine
from pifecacheta.rules import CACHETA_7
from pifecacheta.service import Identity, TableService, bot_process

from .helpers import hidden_match, log_count, play_human_move, play_rounds
from .test_known_rows import _compare_kept


@pytest.fixture
def app_like(db_url: str, db_backend: str) -> Iterator[TableService]:
    """A service as the app makes it (real clock, seeds of the environment), no bot delay."""
    if db_backend != "sqlite":
        pytest.skip("the bots' process serves a SQLite file")
    svc = TableService(make_engine(db_url), bot_delay=0, round_over_delay=0)
    yield svc
    remote = svc._bots.remote
    if isinstance(remote, bot_process.BotProcess):
        remote.close()


def _child_of(svc: TableService) -> bot_process.BotProcess:
    """The service's bots' process, started."""
    assert svc.use_bot_process()
    remote = svc._bots.remote
    assert isinstance(remote, bot_process.BotProcess)
    return remote


def _to_a_bots_turn(svc: TableService, code: str, ana: Identity, seed: int) -> None:
    """Ana (seat 0) plays until a bot's turn comes."""
    rng = random.Random(seed)
    while hidden_match(svc.store.engine, code).round.turn == 0:
        assert play_human_move(svc, svc.store.engine, code, ana, 0, rng, go_out=False)


def _cacheta_with_bots(svc: TableService) -> tuple[str, Identity]:
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, CACHETA_7)
    svc.add_bots(code, ana, ["Carmen", "Tito"])
    svc.start(code, ana)
    return code, ana


def test_the_child_makes_the_steps_and_the_parent_carries_on_from_them(app_like: TableService) -> None:
    """Cacheta rounds of a person and two bots, every bot step in the child: each step is
    told to the listeners once, the log has one row per version, and after every commit the
    parent's kept row, seats and match equal a read (the person's next move starts from it,
    test_known_rows.py)."""
    svc = app_like
    remote = _child_of(svc)
    code, ana = _cacheta_with_bots(svc)
    told: list[str] = []
    svc.on_change(told.append)
    compared = after_bot = 0
    steps, heard = remote.steps, len(told)
    for by_bot in play_rounds(svc, code, ana, random.Random(7)):
        if by_bot:
            assert remote.steps == steps + 1 and told[heard:] == [code]
            after_bot += _compare_kept(svc, code)  # kept at the child's version: adopted
        compared += _compare_kept(svc, code)
        steps, heard = remote.steps, len(told)
    assert remote.steps > 20 and compared > 30 and after_bot > 20
    with svc.store.engine.connect() as c:
        versions = [v for (v,) in c.execute(sa.text("SELECT version FROM action_log ORDER BY id"))]
    assert len(versions) == len(set(versions)) == log_count(svc.store.engine, code)


def test_a_child_that_dies_leaves_the_step_to_the_parent(app_like: TableService) -> None:
    """SIGKILL of the child: the next step is made in the parent, and the one after it in a
    new child."""
    svc = app_like
    remote = _child_of(svc)
    code, ana = _cacheta_with_bots(svc)
    rng = random.Random(3)
    pid = remote._pool_now().submit(os.getpid).result()
    os.kill(pid, signal.SIGKILL)
    while hidden_match(svc.store.engine, code).round.turn == 0:
        assert play_human_move(svc, svc.store.engine, code, ana, 0, rng, go_out=False)
    version = svc.snapshot(code, ana).version
    steps = remote.steps
    assert svc.bot_step(code)  # the broken pool: made here
    assert remote.steps == steps and svc.snapshot(code, ana).version == version + 1
    while hidden_match(svc.store.engine, code).round.turn == 0:
        assert play_human_move(svc, svc.store.engine, code, ana, 0, rng, go_out=False)
    assert svc.bot_step(code)  # a new child
    assert remote.steps == steps + 1
    assert remote._pool_now().submit(os.getpid).result() != pid


def test_a_table_gone_is_not_found_as_here(app_like: TableService) -> None:
    from pifecacheta.service import TableNotFound

    assert app_like.use_bot_process()
    with pytest.raises(TableNotFound):
        app_like.bot_step("no-such-table")


@pytest.mark.parametrize("why", ["thread", "memory"])
def test_no_child_when_asked_not_to_or_without_a_file(
    db_url: str, db_backend: str, monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    if why == "thread":
        monkeypatch.setenv("PIFECACHETA_BOT_STEPS", "thread")
        url = db_url
    else:
        url = "sqlite://"
    svc = TableService(make_engine(url))
    assert not svc.use_bot_process()
    assert svc._bots.remote is None


def test_no_child_on_postgresql(db_url: str, db_backend: str) -> None:
    if db_backend != "postgresql":
        pytest.skip("PostgreSQL only")
    svc = TableService(make_engine(db_url))
    assert not svc.use_bot_process()


def test_a_shared_lock_never_freed_delays_a_write_but_does_not_stop_it(
    app_like: TableService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A holder of the shared write lock that never lets go (a child killed inside its
    transaction): a write waits SHARED_LOCK_WAIT_S for it, then goes on under SQLite's lock."""
    import multiprocessing as mp
    import threading

    from pifecacheta.service import store as store_module

    monkeypatch.setattr(store_module, "SHARED_LOCK_WAIT_S", 0.2)
    svc = app_like
    lock = mp.get_context("spawn").RLock()
    svc.store.share_write_lock(lock)
    held = threading.Event()
    threading.Thread(target=lambda: (lock.acquire(), held.set()), daemon=True).start()
    assert held.wait(5)
    code, _ = _cacheta_with_bots(svc)  # writes: each waited 0.2 s, none was lost
    assert svc.snapshot(code, None).status.value == "playing"
    assert "writing without it" in caplog.text


def test_the_child_deals_and_stamps_as_the_parent_would(
    app_like: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each step carries the parent's clock time and dealing environment: a child spawned
    before they changed stamps the move with the parent's time and reads the parent's env."""
    from datetime import UTC, datetime

    svc = app_like
    remote = _child_of(svc)
    code, ana = _cacheta_with_bots(svc)
    _to_a_bots_turn(svc, code, ana, 5)
    later = datetime(2031, 1, 2, 3, 4, 5, tzinfo=UTC)
    svc.store.clock = lambda: later
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")  # after the child was spawned
    assert svc.bot_step(code) and remote.steps == 1
    with svc.store.engine.connect() as c:
        stamped = c.execute(
            sa.text("SELECT last_move_at FROM game_table WHERE code = :c"), {"c": code}
        ).scalar()
    assert str(stamped).startswith("2031-01-02 03:04:05")
    assert remote._pool_now().submit(os.getenv, "PIFECACHETA_FAIR_DEAL").result() == "1"


def test_a_lost_reply_still_tells_the_tabs(app_like: TableService) -> None:
    """The child committed but its answer never came (killed after the commit, or late): the
    parent's own step finds nothing more to do, and the tabs are told all the same."""
    svc = app_like
    code, ana = _cacheta_with_bots(svc)
    _to_a_bots_turn(svc, code, ana, 9)

    class CommitsButNeverAnswers:
        def step(self, code: str, when_due: bool, searched: Any, driver: Any) -> bool | None:
            elsewhere = TableService(make_engine(str(svc.store.engine.url)), bot_delay=0, round_over_delay=0)
            while elsewhere.bot_step(code):  # the bot's whole turn, unknown to this process
                pass
            return None

    svc._bots.remote = CommitsButNeverAnswers()
    told: list[str] = []
    svc.on_change(told.append)
    version = hidden_match(svc.store.engine, code).version
    assert not svc.bot_step(code)  # the person's turn again: nothing for the parent to do
    assert hidden_match(svc.store.engine, code).version > version and told == [code]


def _die_holding_the_lock() -> None:
    """In the child: take the shared write lock and die without letting it go."""
    driver = bot_process._driver
    assert driver is not None
    driver._store._write_lock.acquire()
    os._exit(1)


def test_a_child_that_dies_holding_the_lock_does_not_stop_the_writes(
    app_like: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child dies inside its turn to write: the parent writes on a fresh lock at once
    (the dead child's would never be let go; no wait limit is left to save it here)."""
    import threading

    from pifecacheta.service import store as store_module

    monkeypatch.setattr(store_module, "SHARED_LOCK_WAIT_S", 3600.0)
    svc = app_like
    remote = _child_of(svc)
    code, ana = _cacheta_with_bots(svc)
    _to_a_bots_turn(svc, code, ana, 4)
    with pytest.raises(Exception):  # noqa: B017 - the pool breaks: BrokenProcessPool
        remote._pool_now().submit(_die_holding_the_lock).result(timeout=30)
    done: list[bool] = []
    worker = threading.Thread(target=lambda: done.append(svc.bot_step(code)), daemon=True)
    worker.start()
    worker.join(60)
    assert done == [True]  # made here, on a fresh lock
