"""Shared fixtures: a migrated database (SQLite file or PostgreSQL) and a clock tests can move.

Every test that uses ``db_url`` / ``db_engine`` (so every service test) runs once per
database backend, with ``[sqlite]`` or ``[postgresql]`` in its id. Which backends: option
``--db=sqlite|postgresql|both``, else env ``PIFECACHETA_TEST_DB``, else ``both``.

PostgreSQL is a throwaway server started once per session (``tests/_pg.py``: ``initdb`` +
``pg_ctl`` in a temp folder, free port), one database migrated to head by
``pifecacheta.db.migrate``, emptied (``TRUNCATE``) before each test. When no server can be
started, the ``[postgresql]`` tests FAIL if env ``CI`` is true or PostgreSQL was asked for
by name, and are skipped with the reason otherwise (a developer machine without it).

Browser fixtures live in tests/browser/conftest.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from _pg import PgServer, PgUnavailable

from pifecacheta.db import forget_engine, make_engine, migrate

BACKENDS = ("sqlite", "postgresql")
PG_DATABASE = "pifecacheta_test"


class FakeClock:
    """A clock for the service: ``clock()`` returns the current fake time (aware UTC);
    ``clock.advance(hours=48)`` moves it forward."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


# --- which backends -------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--db",
        choices=("sqlite", "postgresql", "both"),
        default=None,
        help="database backend(s) of the database tests (default: env PIFECACHETA_TEST_DB, else both)",
    )


def _choice(config: pytest.Config) -> str:
    choice = config.getoption("--db") or os.environ.get("PIFECACHETA_TEST_DB") or "both"
    if choice not in ("sqlite", "postgresql", "both"):
        raise pytest.UsageError(f"PIFECACHETA_TEST_DB must be sqlite, postgresql or both, not {choice!r}")
    return choice


def _backends(config: pytest.Config) -> list[str]:
    choice = _choice(config)
    return list(BACKENDS) if choice == "both" else [choice]


def _pg_required(config: pytest.Config) -> bool:
    """True when a missing PostgreSQL must fail the tests: on CI, or asked for by name."""
    ci = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
    return ci or _choice(config) == "postgresql"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgresql: the test runs on the throwaway PostgreSQL server")
    config.addinivalue_line(
        "markers", "backends(*names): run this database test only on these backends (of those chosen)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise every test that (through its fixtures) asks for ``db_backend``."""
    if "db_backend" in metafunc.fixturenames:
        wanted = _backends(metafunc.config)
        marker = metafunc.definition.get_closest_marker("backends")
        only = marker.args if marker else None
        params = [
            pytest.param(b, marks=[pytest.mark.postgresql] if b == "postgresql" else [], id=b)
            for b in wanted
            if only is None or b in only
        ]
        if not params and only:  # the test's backends are not among the chosen ones
            why = f"runs on {' and '.join(only)} only; the chosen backends are {', '.join(wanted)}"
            params = [pytest.param(only[0], marks=pytest.mark.skip(reason=why), id=only[0])]
        metafunc.parametrize("db_backend", params, indirect=True)


@pytest.fixture
def db_backend(request: pytest.FixtureRequest) -> str:
    """The backend of this run of the test: ``sqlite`` or ``postgresql``."""
    return str(getattr(request, "param", "sqlite"))


# --- PostgreSQL -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def _pg_state(request: pytest.FixtureRequest) -> Iterator[dict[str, object]]:
    """The session's PostgreSQL server, started on first use: ``{"server": PgServer}`` or
    ``{"error": why}``."""
    state: dict[str, object] = {}
    server = PgServer()
    try:
        server.start()
        state["server"] = server
    except (PgUnavailable, OSError, subprocess.SubprocessError) as e:
        server.stop()
        state["error"] = str(e)
    yield state
    server.stop()


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest, _pg_state: dict[str, object]) -> PgServer:
    """The session's throwaway PostgreSQL server; fails (CI, or asked for) or skips the test
    when none could be started."""
    if "server" not in _pg_state:
        why = f"PostgreSQL unavailable: {_pg_state['error']}"
        if _pg_required(request.config):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    server = _pg_state["server"]
    assert isinstance(server, PgServer)
    return server


@pytest.fixture(scope="session")
def _pg_database(pg_server: PgServer) -> str:
    """URL of the session's test database, migrated to alembic head once."""
    url = pg_server.create_database(PG_DATABASE)
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    return url


def _empty_pg_database(url: str) -> None:
    """Delete every row of the app's tables (ids restart at 1), as a fresh database."""
    from sqlmodel import SQLModel

    from pifecacheta import models  # noqa: F401  (registers the tables)

    names = ", ".join(f'"{t.name}"' for t in SQLModel.metadata.sorted_tables)
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("SET LOCAL lock_timeout = '20s'")  # a leftover transaction: fail, not hang
            conn.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY")
    finally:
        engine.dispose()


# --- the fixtures tests use -----------------------------------------------------------


@pytest.fixture(scope="session")
def _migrated_template(tmp_path_factory) -> Path:
    """One SQLite file migrated to alembic head, copied by each test (migrating takes ~0.3 s)."""
    path = tmp_path_factory.mktemp("db-template") / "template.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # closing the last connection checkpoints the WAL into the file
    return path


@pytest.fixture
def db_url(request: pytest.FixtureRequest, db_backend: str, tmp_path: Path) -> str:
    """URL of a fresh database whose schema is at alembic head: a copy of a migrated SQLite
    file in the test's tmp_path, or the emptied session PostgreSQL database."""
    if db_backend == "postgresql":
        url = str(request.getfixturevalue("_pg_database"))
        _empty_pg_database(url)
        return url
    path = tmp_path / "test.db"
    shutil.copyfile(request.getfixturevalue("_migrated_template"), path)
    return f"sqlite:///{path}"


@pytest.fixture
def empty_db_url(request: pytest.FixtureRequest, db_backend: str, tmp_path: Path) -> Iterator[str]:
    """URL of a database with no tables at all (to test migrations): a new SQLite file, or a
    new PostgreSQL database dropped after the test."""
    if db_backend != "postgresql":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = f"empty_{os.getpid()}_{abs(hash(request.node.nodeid)) % 10**9}"
    url = server.create_database(name)
    try:
        yield url
    finally:
        forget_engine(url)  # an init_db engine of this test
        server.drop_database(name)


@pytest.fixture
def db_engine(db_url: str) -> Iterator[sa.Engine]:
    """An engine (``pifecacheta.db.make_engine``) on a fresh migrated database."""
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock starting 2026-01-05 12:00 UTC."""
    return FakeClock()
