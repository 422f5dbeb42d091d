"""Database engine helpers: URL from the environment, SQLite tuning, migrations at start.

``database_url()`` is ``Settings.from_env().db_url`` (``pifecacheta.settings``:
``PIFECACHETA_DB_URL``, then ``REFLEX_DB_URL``, else the SQLite file ``.data/pifecacheta.db``;
the folder is created when missing). ``init_db(url)`` returns an engine whose schema is at the
newest alembic revision (``migrations/``).

Two databases are supported, and the tests run on both:

* SQLite: connections use WAL, a busy timeout and ``BEGIN IMMEDIATE`` for writes, so
  concurrent writers queue instead of failing.
* PostgreSQL through psycopg 3 (``postgresql+psycopg://user:password@host/db``; a bare
  ``postgresql://`` or ``postgres://`` URL gets that driver too). Transactions are READ
  COMMITTED; the service's version-guarded ``UPDATE`` and its ``SELECT ... FOR UPDATE`` of
  the table row keep racing writers of one table in turn. Migrations at start hold an advisory
  lock, so backends starting together migrate one after the other.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from .settings import Settings

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
BUSY_TIMEOUT_MS = 10_000
MIGRATION_LOCK = 0x7069_6665_6361_6368  # "pifecach": the PostgreSQL advisory lock of migrate()

_engines: dict[str, sa.Engine] = {}
_lock = threading.Lock()


def database_url() -> str:
    """The configured database URL: env ``PIFECACHETA_DB_URL``, ``REFLEX_DB_URL``, else SQLite file."""
    return Settings.from_env().db_url


def engine_url(url: str) -> sa.URL:
    """``url`` parsed, with the psycopg 3 driver for a PostgreSQL URL that names none.

    SQLAlchemy before 2.1 defaults to psycopg2, which is not installed; ``postgres://`` (the
    spelling of many hosting services) is not accepted by SQLAlchemy at all.

    >>> engine_url("postgres://u:p@db/pife").render_as_string(hide_password=False)
    'postgresql+psycopg://u:p@db/pife'
    >>> engine_url("sqlite:///x.db").drivername
    'sqlite'
    """
    parsed = sa.engine.make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str) -> sa.Engine:
    """A new SQLAlchemy engine for ``url``; SQLite gets WAL, busy_timeout and BEGIN IMMEDIATE,
    PostgreSQL the psycopg 3 driver (:func:`engine_url`) and a liveness check of pooled
    connections (a restarted server leaves dead ones).

    Read-only work may pass ``execution_options(sqlite_begin="DEFERRED")`` to skip SQLite's write
    lock (other databases ignore it).
    """
    parsed = engine_url(url)
    if parsed.get_backend_name() != "sqlite":
        return sa.create_engine(parsed, pool_pre_ping=True)
    path = sa.engine.make_url(url).database
    if path and path != ":memory:" and not path.startswith("file:"):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(
        url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # let SQLAlchemy's "begin" event emit BEGIN itself
        cur = dbapi_conn.cursor()
        if ":memory:" not in url and url not in ("sqlite://", "sqlite:///"):
            _use_wal(cur)
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _use_wal(cur: Any) -> None:
    """``PRAGMA journal_mode=WAL`` on a SQLite cursor, tried again for up to the busy timeout.

    Switching a new file to WAL needs it to itself and answers "database is locked" at once,
    without the busy handler, while another process's connection holds it (processes
    starting together on one new file); once one of them switched, the file stays WAL.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def migrate(engine: sa.Engine) -> None:
    """Bring the schema to the newest alembic revision (``alembic upgrade head``), in one
    transaction (both databases have transactional DDL).

    On PostgreSQL the transaction first takes the advisory lock :data:`MIGRATION_LOCK`, so
    processes starting together on one database migrate in turn (the later ones find the
    schema at head); on SQLite ``BEGIN IMMEDIATE`` does the same. Falls back to
    ``SQLModel.metadata.create_all`` when the migrations folder is not shipped (a non-editable
    install); raises whatever alembic raises otherwise.
    """
    from sqlmodel import SQLModel

    from . import models  # noqa: F401  (registers the tables)

    if not (MIGRATIONS_DIR / "env.py").exists():
        SQLModel.metadata.create_all(engine)
        return
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def init_db(url: str | None = None) -> sa.Engine:
    """The process-wide engine for ``url`` (default ``database_url()``), migrated to head once."""
    url = url or database_url()
    with _lock:
        engine = _engines.get(url)
        if engine is None:
            engine = make_engine(url)
            migrate(engine)
            _engines[url] = engine
        return engine


def forget_engine(url: str) -> None:
    """Dispose of the process-wide engine of ``url`` (see :func:`init_db`), if any, closing its
    pooled connections; the next ``init_db(url)`` makes a new one."""
    with _lock:
        engine = _engines.pop(url, None)
    if engine is not None:
        engine.dispose()
