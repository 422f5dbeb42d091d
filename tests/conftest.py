"""Shared fixtures: a migrated SQLite database in tmp_path and a clock tests can move.

Browser fixtures live in tests/browser/conftest.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from pifecacheta.db import make_engine, migrate


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


@pytest.fixture(scope="session")
def _migrated_template(tmp_path_factory) -> Path:
    """One SQLite file migrated to alembic head, copied by each test (migrating takes ~0.3 s)."""
    path = tmp_path_factory.mktemp("db-template") / "template.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # closing the last connection checkpoints the WAL into the file
    return path


@pytest.fixture
def db_url(tmp_path, _migrated_template: Path) -> str:
    """URL of a fresh SQLite file (schema at alembic head) in the test's tmp_path."""
    path = tmp_path / "test.db"
    shutil.copyfile(_migrated_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def db_engine(db_url: str) -> Iterator[sa.Engine]:
    """An engine on a fresh migrated SQLite file (WAL, busy_timeout)."""
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock starting 2026-01-05 12:00 UTC."""
    return FakeClock()
