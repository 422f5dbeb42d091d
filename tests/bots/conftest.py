"""The bots' tests run the search Luna on a few samples per decision (fast, deterministic)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _small_luna_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIFECACHETA_LUNA_SAMPLES", "2")
