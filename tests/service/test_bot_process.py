"""The bots' steps made in a child process on the same SQLite file (service/bot_process.py)."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from pifecacheta.db import make_engine
from pifecacheta.rules import CACHETA_7, Phase
from pifecacheta.service import Identity, TableService, bot_process

from .helpers import hidden_match, log_count, play_human_move
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
    assert svc.use_bot_process()
    remote = svc._bots.remote
    assert isinstance(remote, bot_process.BotProcess)
    code, ana = _cacheta_with_bots(svc)
    told: list[str] = []
    svc.on_change(told.append)
    rng, compared, after_bot = random.Random(7), 0, 0
    for _ in range(300):
        m = hidden_match(svc.store.engine, code)
        if m.round.phase is Phase.MATCH_OVER or m.round.phase is Phase.ROUND_OVER and m.round_number > 2:
            break
        if m.round.phase in (Phase.DRAW, Phase.DISCARD) and m.round.turn == 0:
            assert play_human_move(svc, svc.store.engine, code, ana, 0, rng, go_out=True)
        else:
            steps, heard = remote.steps, len(told)
            if svc.bot_step(code):
                assert remote.steps == steps + 1 and told[heard:] == [code]
                after_bot += _compare_kept(svc, code)  # kept at the child's version: adopted
            else:
                assert play_human_move(svc, svc.store.engine, code, ana, 0, rng)  # PRÓXIMA RODADA
        compared += _compare_kept(svc, code)
    assert remote.steps > 20 and compared > 30 and after_bot > 20
    with svc.store.engine.connect() as c:
        versions = [v for (v,) in c.execute(sa.text("SELECT version FROM action_log ORDER BY id"))]
    assert len(versions) == len(set(versions)) == log_count(svc.store.engine, code)


def test_a_child_that_dies_leaves_the_step_to_the_parent(app_like: TableService) -> None:
    """SIGKILL of the child: the next step is made in the parent, and the one after it in a
    new child."""
    svc = app_like
    assert svc.use_bot_process()
    remote = svc._bots.remote
    assert isinstance(remote, bot_process.BotProcess)
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
