"""``publish_service_changes`` (live/service_link.py): every change not made by an event
handler is published on the feed; a delivery that fails is logged and tried once more, so one
failure does not leave every open tab showing the table as it was until the next change."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import pytest

from pifecacheta.live import Delivery, service_link
from pifecacheta.live.service_link import handler_call, publish_service_changes


class _Service:
    def __init__(self) -> None:
        self.listeners: list[Any] = []

    def on_change(self, cb: Any) -> None:
        self.listeners.append(cb)


class _Feed:
    """A feed whose deliveries fail ``failures`` times (a push raising)."""

    def __init__(self) -> None:
        self.published: list[str] = []
        self.failures = 0
        self.on_loop = 0

    def publish(self, code: str, *, skip: str = "") -> Delivery:
        self.published.append(code)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.failures > 0:
            self.failures -= 1
            fut.set_exception(RuntimeError("state lock lost"))
        else:
            fut.set_result(None)
        return Delivery(len(self.published), (fut,))

    async def apublish(self, code: str, *, skip: str = "") -> Delivery:
        self.on_loop += 1  # the link publishes without blocking the loop (a cluster's Redis call)
        return self.publish(code, skip=skip)


@pytest.fixture
def wired(monkeypatch):
    monkeypatch.setattr(service_link, "RETRY_DELAY", 0.01)
    return _Service(), _Feed()


def _run(svc: _Service, feed: _Feed, *calls: tuple[str, bool], settled: Any = None) -> None:
    """Link the service to the feed, fire ``on_change(code)`` for each (code, from_a_thread),
    wait up to 5 s for ``settled()`` (when given), then 0.1 s more for anything further."""

    async def main() -> None:
        publish_service_changes(svc, feed)
        (listener,) = svc.listeners
        for code, from_thread in calls:
            if from_thread:
                t = threading.Thread(target=listener, args=(code,))
                t.start()
                t.join()
            else:
                listener(code)
        deadline = asyncio.get_running_loop().time() + 5
        while settled is not None and not settled() and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)

    asyncio.run(main())


def test_each_change_is_published_once_from_the_loop_or_a_thread(wired):
    svc, feed = wired
    _run(svc, feed, ("A", False), ("B", True), settled=lambda: len(feed.published) == 2)
    assert sorted(feed.published) == ["A", "B"] and feed.on_loop == 2


def test_a_failed_delivery_is_logged_and_tried_once_more(wired, caplog):
    svc, feed = wired
    feed.failures = 1
    with caplog.at_level(logging.ERROR, logger="pifecacheta.live.service_link"):
        _run(svc, feed, ("A", True), settled=lambda: len(feed.published) == 2)
    assert feed.published == ["A", "A"]
    assert [r.getMessage() for r in caplog.records] == ["live update of table A failed"]


def test_a_delivery_failing_twice_is_not_retried_forever(wired, caplog):
    svc, feed = wired
    feed.failures = 5
    with caplog.at_level(logging.ERROR, logger="pifecacheta.live.service_link"):
        _run(svc, feed, ("A", False), settled=lambda: len(caplog.records) == 2)
    assert feed.published == ["A", "A"] and len(caplog.records) == 2


def test_changes_made_by_an_event_handler_are_left_to_it(wired):
    svc, feed = wired

    async def main() -> None:
        publish_service_changes(svc, feed)
        with handler_call():
            svc.listeners[0]("A")  # the handler publishes the change itself
        await asyncio.sleep(0.05)

    asyncio.run(main())
    assert feed.published == []
