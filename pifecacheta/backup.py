"""Online backup and restore of the SQLite database (``python -m pifecacheta.backup``).

``backup DEST`` copies the live database into the file ``DEST`` with SQLite's online backup
API (``sqlite3.Connection.backup``): a consistent snapshot of one committed state, taken while
the app runs and writes (each step holds a read transaction; a write in between restarts the
copy from the start, so the result is never a mix of two states). ``restore SRC`` puts a backup
back in place of the database; stop the app first (a restore under a running app would pull the
file from under its open connections). Both default to the configured database
(``PIFECACHETA_DB_URL`` / ``REFLEX_DB_URL``, else ``.data/pifecacheta.db``).

PostgreSQL has its own tools: ``pg_dump --format=custom`` while the app runs (one consistent
snapshot by MVCC), and ``pg_restore --clean --if-exists`` with the app stopped (README).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from pifecacheta.db import BUSY_TIMEOUT_MS, database_url


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///`` URL. Raises ValueError for another database or memory."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or not parsed.database or parsed.database == ":memory:":
        raise ValueError(f"not a SQLite file database: {parsed.render_as_string(hide_password=True)}")
    return Path(parsed.database)


def backup(source: Path, dest: Path) -> None:
    """Copy the database ``source`` into ``dest`` (created or replaced), consistently, while
    other connections read and write ``source``. Raises ``sqlite3.Error`` on failure (``dest``
    is then left incomplete: do not use it)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _connect(source) as src, sqlite3.connect(dest) as out:
        src.backup(out)
    # a backup is one self-contained file: no -wal beside it
    with sqlite3.connect(dest) as out:
        out.execute("PRAGMA journal_mode=DELETE")


def restore(backup_file: Path, dest: Path) -> None:
    """Replace the database ``dest`` with ``backup_file`` (the app must be stopped). Raises
    FileNotFoundError if the backup is missing and ``sqlite3.DatabaseError`` if it is not a
    database whose integrity check passes; ``dest`` is then untouched."""
    if not backup_file.is_file():
        raise FileNotFoundError(backup_file)
    with sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True) as check:
        verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise sqlite3.DatabaseError(f"{backup_file}: integrity check says {verdict!r}")
    with sqlite3.connect(backup_file) as src, _connect(dest) as out:
        src.backup(out)


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return conn


def main(argv: list[str] | None = None) -> int:
    """The command line: ``backup DEST`` or ``restore SRC`` [``--db URL``]; exit code 0 on
    success, 2 on a bad database URL or backup file."""
    parser = argparse.ArgumentParser(prog="python -m pifecacheta.backup", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("backup", "restore"))
    parser.add_argument("file", type=Path, help="the backup file to write (backup) or read (restore)")
    parser.add_argument("--db", default=None, help="database URL (default: the app's)")
    args = parser.parse_args(argv)
    try:
        db = sqlite_path(args.db or database_url())
        if args.command == "backup":
            backup(db, args.file)
        else:
            restore(args.file, db)
    except (ValueError, FileNotFoundError, sqlite3.DatabaseError) as exc:
        print(f"{args.command} failed: {exc}", file=sys.stderr)
        return 2
    print(f"{args.command}: {args.file} {'<-' if args.command == 'backup' else '->'} {db}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
