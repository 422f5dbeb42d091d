"""Online backup of the SQLite database mid-match, while moves are written, and its restore
(``python -m pifecacheta.backup``)."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path

import pytest

from pifecacheta import backup
from pifecacheta.db import make_engine
from pifecacheta.rules import CACHETA_7, Phase
from pifecacheta.service import TableService

from .helpers import hidden_match, log_count, play_human_move


def _match_in_play(engine, clock) -> tuple[TableService, str, dict[int, object]]:
    svc = TableService(engine, clock=clock, seed_source=lambda: 99, bot_delay=0, round_over_delay=0)
    ana, bia = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bia")
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    return svc, code, {0: ana, 1: bia}


def _play(svc, engine, code, people, rng, moves: int) -> None:
    for _ in range(moves):
        m = hidden_match(engine, code)
        if m.round.phase is Phase.MATCH_OVER:
            return
        seat = 0 if m.round.phase is Phase.ROUND_OVER else m.round.turn
        play_human_move(svc, engine, code, people[seat], seat, rng)


def _state(url: str, code: str, clock) -> tuple[int, int, object]:
    """(table version, action log rows, the stored match) read through a new service."""
    engine = make_engine(url)
    try:
        return (
            TableService(engine, clock=clock).snapshot(code, None).version,
            log_count(engine, code),
            hidden_match(engine, code),
        )
    finally:
        engine.dispose()


@pytest.mark.backends("sqlite")  # PostgreSQL's own pg_dump / pg_restore (README)
def test_a_backup_taken_while_moves_are_written_restores_one_committed_state(
    db_url, db_engine, clock, tmp_path
):
    svc, code, people = _match_in_play(db_engine, clock)
    _play(svc, db_engine, code, people, random.Random(1), 20)
    stop = threading.Event()

    def writer() -> None:  # the app goes on writing while the backup is taken
        rng = random.Random(2)
        while not stop.is_set():
            _play(svc, db_engine, code, people, rng, 1)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        dest = tmp_path / "backups" / "b1.db"
        assert backup.main(["backup", str(dest), "--db", db_url]) == 0
    finally:
        stop.set()
        thread.join()
    saved_version, saved_rows, saved_match = _state(f"sqlite:///{dest}", code, clock)
    # one committed state: every version the table reached is one logged action after the start
    assert saved_rows >= 20 and saved_version > 0
    with sqlite3.connect(dest) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        logged = check.execute("SELECT max(version) FROM action_log").fetchone()[0]
    assert logged == saved_version  # the last logged action is the table's version
    # the match goes on after the backup, then the backup is restored (app stopped)
    _play(svc, db_engine, code, people, random.Random(3), 10)
    assert _state(db_url, code, clock)[0] > saved_version
    db_engine.dispose()
    assert backup.main(["restore", str(dest), "--db", db_url]) == 0
    version, rows, match = _state(db_url, code, clock)
    assert (version, rows, match) == (saved_version, saved_rows, saved_match)
    # and play continues from the restored table
    engine = make_engine(db_url)
    try:
        again = TableService(engine, clock=clock)
        _play(again, engine, code, people, random.Random(4), 2)
        assert again.snapshot(code, None).version == saved_version + 2
    finally:
        engine.dispose()


@pytest.mark.backends("sqlite")
def test_a_bad_backup_is_refused_and_the_database_is_untouched(db_url, db_engine, clock, tmp_path, capsys):
    svc, code, _people = _match_in_play(db_engine, clock)
    before = svc.snapshot(code, None).version
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    db_engine.dispose()
    assert backup.main(["restore", str(junk), "--db", db_url]) == 2
    assert backup.main(["restore", str(tmp_path / "missing.db"), "--db", db_url]) == 2
    assert "restore failed" in capsys.readouterr().err
    assert _state(db_url, code, clock)[0] == before


@pytest.mark.parametrize("url", ["postgresql+psycopg://u@h/db", "sqlite://", "sqlite:///:memory:"])
def test_only_a_sqlite_file_can_be_backed_up_this_way(url, tmp_path):
    with pytest.raises(ValueError):
        backup.sqlite_path(url)
    assert backup.main(["backup", str(tmp_path / "x.db"), "--db", url]) == 2
    assert not Path(tmp_path / "x.db").exists()
