"""A tab left open on a quiet table keeps getting its changes, its Reflex state in the
backend's memory (the default) or in Redis.

Reflex stores each state of a tab with the TTL ``REFLEX_REDIS_TOKEN_EXPIRATION`` and renews
it only when it writes that state; its memory manager drops a state untouched for as long. So a
connected tab whose table does not change for longer would lose its state (its next push would
find an empty one). The live feed keeps the states of its open tabs alive
(``RedisFeed.keep_alive_loop``: ``renew_states`` in Redis, ``LocalFeed.keep_alive`` in
memory). Here the TTL is 4 s, the tab waits 10 s with nothing happening, then a move at its
table must reach it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from pifecacheta.db import make_engine
from pifecacheta.live.redis_feed import RedisFeed
from pifecacheta.rules import PIFE, Draw
from pifecacheta.service import TableService

from ._backends import Backend, backend_env, stored_state_keys
from ._redis import RedisServer, free_port
from ._spectator import Spectator

TOKEN_TTL = 4


@pytest.fixture
def backend(
    redis_server: RedisServer, redis_url: str, cluster_db_url: str, tab_state: str, tmp_path: Path
) -> Iterator[Backend]:
    env = backend_env(redis_url, cluster_db_url, tab_state, REFLEX_REDIS_TOKEN_EXPIRATION=str(TOKEN_TTL))
    b = Backend("A", free_port(), env, tmp_path)
    try:
        b.wait_up()
        yield b
    finally:
        b.stop()


def _until(check, timeout: float, why: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def test_an_idle_tab_outlives_the_state_ttl_and_still_sees_the_next_move(
    backend: Backend, redis_url: str, cluster_db_url: str, tab_state: str
) -> None:
    engine = make_engine(cluster_db_url)
    feed = RedisFeed(redis_url)
    svc = TableService(engine)
    ana, bia = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bia")
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)  # two people, no bot: nothing happens until someone moves
    tab = Spectator(backend.port, code)
    try:
        _until(lambda: tab.last() >= 0, 30, f"the tab did not load: {tab.error!r}")
        shown = tab.last()
        client = redis.Redis.from_url(redis_url)
        keys = stored_state_keys(client, tab.token)  # the tab's states are where the backend was told
        client.close()
        assert bool(keys) == (tab_state == "redis"), f"tab states in {tab_state}, in Redis: {keys}"
        time.sleep(TOKEN_TTL * 2.5)  # longer than the TTL, with nothing written
        snap = svc.snapshot(code, None)
        who = ana if snap.view.turn == 0 else bia
        svc.act(code, who, Draw(), expected_version=snap.version)
        feed.publish(code)  # as the backend that took the move would
        _until(
            lambda: tab.last() > shown, 10, f"the idle tab missed the move: {tab.error!r}\n{backend.log()}"
        )
    finally:
        tab.close()
        feed.close()
        engine.dispose()
