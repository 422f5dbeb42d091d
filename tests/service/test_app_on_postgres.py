"""The real app (Reflex backend under uvicorn, in its own process) on a new PostgreSQL database:
it migrates the database at start, serves, and its sweeper plays the bots of a table dealt
through the service, across a restart of the app. Its URL is spelt ``postgres://`` (no
driver, a name SQLAlchemy does not know): the app and Reflex's health check both get psycopg 3.

The backend runs without compiling the frontend (``__REFLEX_SKIP_COMPILE``, as Reflex's own
backend-only start does) and with its web folder in tmp_path, so the test writes nothing into
the project's ``.web`` and needs no JavaScript runtime.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from _pg import free_port
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from pifecacheta import db
from pifecacheta.rules import PIFE, Phase
from pifecacheta.service import TableService

from .helpers import current_turn, play_human_move

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120.0  # seconds for the backend to answer /ping (imports + page evaluation)
BOT_TIMEOUT = 20.0  # seconds for the app's sweeper to play a due bot move


@contextmanager
def running_app(db_url: str, web_dir: Path) -> Iterator[int]:
    """The app's backend on ``db_url``, answering on the yielded port of 127.0.0.1 until the
    block ends (then stopped, killed after 20 s)."""
    port = free_port()
    env = {
        **os.environ,
        "PIFECACHETA_DB_URL": db_url,
        "PIFECACHETA_BOT_DELAY": "0",
        "REFLEX_WEB_WORKDIR": str(web_dir),
        "__REFLEX_SKIP_COMPILE": "1",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "REFLEX_CHECK_LATEST_VERSION": "false",
    }
    env.pop("PIFECACHETA_FIXED_SEED", None)
    log = web_dir.parent / f"backend-{port}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "pifecacheta.pifecacheta:app"]
            + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert proc.poll() is None, f"the backend exited: {log.read_text(errors='replace')[-3000:]}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"no /ping answer: {log.read_text(errors='replace')[-3000:]}"
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _bot_moves(svc: TableService, code: str) -> int:
    return sum(e["actor"].startswith("bot:") for e in svc.action_log(code))


@pytest.mark.backends("postgresql")
def test_the_app_migrates_a_new_database_serves_and_plays_the_bots(empty_db_url: str, tmp_path) -> None:
    bare_url = empty_db_url.replace("postgresql+psycopg://", "postgres://")  # hosting services' spelling
    with running_app(bare_url, tmp_path / "web") as port:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_health", timeout=10) as r:
            assert json.load(r) == {"status": True, "db": True}  # Reflex's own look at the database
        engine = db.make_engine(empty_db_url)
        with engine.connect() as conn:
            head = ScriptDirectory(str(db.MIGRATIONS_DIR)).get_current_head()
            assert MigrationContext.configure(conn).get_current_revision() == head is not None

    # a table dealt while the app is down, left with the bot to play
    svc = TableService(engine, bot_delay=0)
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Tito"])
    svc.start(code, ana)
    rng = random.Random(5)
    while current_turn(engine, code) == (Phase.DRAW, 0) or current_turn(engine, code) == (Phase.DISCARD, 0):
        assert play_human_move(svc, engine, code, ana, 0, rng, go_out=False)
    assert current_turn(engine, code)[1] == 1 and _bot_moves(svc, code) == 0
    version = svc.snapshot(code, ana).version

    with running_app(empty_db_url, tmp_path / "web"):  # the app again: its sweeper finds the bot due
        deadline = time.monotonic() + BOT_TIMEOUT
        while current_turn(engine, code)[1] == 1:
            assert time.monotonic() < deadline, "the app's sweeper did not play the bot"
            time.sleep(0.2)
    log = svc.action_log(code)
    bot_versions = [e["version"] for e in log if e["actor"] == "bot:Tito"]
    assert bot_versions and bot_versions[0] == version + 1
    assert [e["version"] for e in log] == list(range(len(log)))  # one entry per version, none twice
    assert svc.snapshot(code, ana).my_seat == 0
    engine.dispose()
