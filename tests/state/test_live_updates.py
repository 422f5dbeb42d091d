"""``live_updates`` (pifecacheta.py): every change not made by an event handler bumps the
table's open tabs; a bump that fails is logged and tried once more, so one failure does
not leave every open tab showing the table as it was until the next change."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import pytest

from pifecacheta import pifecacheta as app_module


class _Service:
    def __init__(self) -> None:
        self.listeners: list[Any] = []

    def on_change(self, cb: Any) -> None:
        self.listeners.append(cb)


@pytest.fixture
def wired(monkeypatch):
    svc = _Service()
    bumps: list[str] = []
    failures = {"left": 0}

    async def bump_table(app: Any, code: str) -> None:
        bumps.append(code)
        if failures["left"] > 0:
            failures["left"] -= 1
            raise RuntimeError("state lock lost")

    monkeypatch.setattr(app_module, "get_service", lambda: svc)
    monkeypatch.setattr(app_module, "bump_table", bump_table)
    monkeypatch.setattr(app_module, "BUMP_RETRY_DELAY", 0.01)
    return svc, bumps, failures


def _run(svc: _Service, *calls: tuple[str, bool]) -> None:
    """Start live_updates, fire ``on_change(code)`` for each (code, from_a_thread), settle."""

    async def main() -> None:
        await app_module.live_updates(object())
        (listener,) = svc.listeners
        for code, from_thread in calls:
            if from_thread:
                t = threading.Thread(target=listener, args=(code,))
                t.start()
                t.join()
            else:
                listener(code)
        await asyncio.sleep(0.1)

    asyncio.run(main())


def test_each_change_bumps_once_from_the_loop_or_a_thread(wired):
    svc, bumps, _ = wired
    _run(svc, ("A", False), ("B", True))
    assert sorted(bumps) == ["A", "B"]


def test_a_failed_bump_is_logged_and_tried_once_more(wired, caplog):
    svc, bumps, failures = wired
    failures["left"] = 1
    with caplog.at_level(logging.ERROR, logger="pifecacheta.pifecacheta"):
        _run(svc, ("A", True))
    assert bumps == ["A", "A"]
    assert [r.getMessage() for r in caplog.records] == ["live update of table A failed"]


def test_a_bump_failing_twice_is_not_retried_forever(wired, caplog):
    svc, bumps, failures = wired
    failures["left"] = 5
    with caplog.at_level(logging.ERROR, logger="pifecacheta.pifecacheta"):
        _run(svc, ("A", False))
    assert bumps == ["A", "A"] and len(caplog.records) == 2


def test_changes_made_by_an_event_handler_are_left_to_it(wired):
    from pifecacheta.state.table import IN_HANDLER

    svc, bumps, _ = wired

    async def main() -> None:
        await app_module.live_updates(object())
        token = IN_HANDLER.set(True)
        try:
            svc.listeners[0]("A")  # the handler bumps the version itself
        finally:
            IN_HANDLER.reset(token)
        await asyncio.sleep(0.05)

    asyncio.run(main())
    assert bumps == []
