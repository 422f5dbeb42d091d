"""The backend's garbage-collector settings (pifecacheta/gc_tuning.py)."""

from __future__ import annotations

import asyncio
import gc
import sys

import pytest

from pifecacheta.gc_tuning import GEN0_THRESHOLD, OLDER_THRESHOLDS, gc_tuning_task


@pytest.fixture
def restore_gc():
    before, interval = gc.get_threshold(), sys.getswitchinterval()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)
    sys.setswitchinterval(interval)


def test_the_task_freezes_what_is_loaded_and_raises_the_thresholds(restore_gc, monkeypatch) -> None:
    monkeypatch.delenv("PIFECACHETA_GC_TUNING", raising=False)
    gc.unfreeze()
    asyncio.run(gc_tuning_task())
    assert gc.get_freeze_count() > 1000
    assert gc.get_threshold() == (GEN0_THRESHOLD, *OLDER_THRESHOLDS)


def test_the_task_can_be_turned_off(restore_gc, monkeypatch) -> None:
    monkeypatch.setenv("PIFECACHETA_GC_TUNING", "0")
    gc.unfreeze()
    before = gc.get_threshold()
    asyncio.run(gc_tuning_task())
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before


@pytest.mark.parametrize(
    ("env", "seconds"),
    [("1", 0.001), ("0.5", 0.0005), (None, 0.005), ("0", 0.005), ("x", 0.005), ("500", 0.005)],
)
def test_the_task_sets_the_switch_interval(restore_gc, monkeypatch, env, seconds) -> None:
    monkeypatch.setenv("PIFECACHETA_GC_TUNING", "0")
    if env is None:
        monkeypatch.delenv("PIFECACHETA_SWITCH_MS", raising=False)
    else:
        monkeypatch.setenv("PIFECACHETA_SWITCH_MS", env)
    sys.setswitchinterval(0.02)
    asyncio.run(gc_tuning_task())
    assert sys.getswitchinterval() == pytest.approx(seconds)
