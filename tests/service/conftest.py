"""Fixtures for the service tests: a TableService on a tmp SQLite file with a fixed seed,
a fake clock and no bot delay, plus helpers to seat players."""

from __future__ import annotations

import pytest

from pifecacheta.service import Identity, TableService


@pytest.fixture
def svc(db_engine, clock) -> TableService:
    return TableService(db_engine, clock=clock, seed_source=lambda: 12345, bot_delay=0, round_over_delay=0)


@pytest.fixture
def people(svc: TableService) -> list[Identity]:
    """Four fresh identities: Ana, Bia, Caio, Davi."""
    return [svc.identify(None, None, n) for n in ("Ana", "Bia", "Caio", "Davi")]
