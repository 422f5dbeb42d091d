"""A throwaway ``redis-server`` for the cluster tests: a free port, no persistence.

``redis-server`` comes from Debian's ``redis-server`` package (``scripts/test.sh`` installs it
when missing). Without it the tests are skipped, except under ``CI=true``, where a missing
server fails them: CI must never pass by not running them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from pifecacheta.db import make_engine, migrate

from ._backends import TAB_STATES
from ._redis import RedisServer, free_port


def _redis_server_exe() -> str:
    exe = shutil.which("redis-server")
    if exe is None:
        message = "redis-server is not installed (scripts/test.sh installs Debian's redis-server)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return exe


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One ``redis-server`` for the session (data dir in a temp folder, nothing saved)."""
    exe = _redis_server_exe()
    port = free_port()
    folder: Path = tmp_path_factory.mktemp("redis")
    log = open(folder / "redis.log", "wb")  # noqa: SIM115 - closed at teardown
    proc = subprocess.Popen(
        [
            exe,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
            "--daemonize",
            "no",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = RedisServer(f"redis://127.0.0.1:{port}/0", port, proc)
    client = server.client()
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"redis-server did not start: {(folder / 'redis.log').read_text()}"
                ) from None
            time.sleep(0.05)
    client.close()
    try:
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The URL of the session's Redis, emptied for this test."""
    client = redis_server.client()
    client.flushall()
    client.close()
    return redis_server.url


@pytest.fixture
def cluster_db_url(tmp_path: Path) -> str:
    """The database the backends share, migrated to head: ``PIFECACHETA_CLUSTER_DB_URL`` when
    set (e.g. PostgreSQL), else a SQLite file (WAL) in the test's temp folder."""
    url = os.environ.get("PIFECACHETA_CLUSTER_DB_URL") or f"sqlite:///{tmp_path / 'cluster.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    return url


@pytest.fixture(params=TAB_STATES)
def tab_state(request: pytest.FixtureRequest) -> str:
    """Where the test's backends keep the tabs' Reflex states: ``memory`` (rxconfig.py's
    default, also in a cluster) or ``redis`` (``REFLEX_STATE_MANAGER_MODE=redis``); each test
    asking for it runs in both."""
    return str(request.param)
