"""``publish_player_changes`` (live/service_link.py): after every commit at a table, the
``player:<id>`` key of each of its people is published (MINHAS MESAS follows), a handler's
change too; a failing read of the people is logged, not raised."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from pifecacheta.live import Delivery
from pifecacheta.live.service_link import handler_call, player_key, publish_player_changes


class _Service:
    def __init__(self) -> None:
        self.listeners: list[Any] = []

    def on_change(self, cb: Any) -> None:
        self.listeners.append(cb)


class _Feed:
    def __init__(self) -> None:
        self.published: list[str] = []
        self.calls = 0  # apublish_many calls: one per change, all its people's keys at once

    def publish(self, code: str, *, skip: str = "") -> Delivery:
        self.published.append(code)
        return Delivery(len(self.published))

    async def apublish_many(self, codes: list[str]) -> list[Delivery]:
        self.calls += 1
        return [self.publish(code) for code in codes]


def _run(people: Any, *calls: tuple[str, bool], feed: _Feed | None = None) -> list[str]:
    svc, feed = _Service(), feed if feed is not None else _Feed()

    async def main() -> None:
        publish_player_changes(svc, feed, people)
        (listener,) = svc.listeners
        for code, in_handler in calls:
            if in_handler:
                with handler_call():
                    listener(code)
            else:
                t = threading.Thread(target=listener, args=(code,))
                t.start()
                t.join()
        await asyncio.sleep(0.2)

    asyncio.run(main())
    return feed.published


def test_each_persons_key_is_published_for_a_handlers_change_and_a_bots():
    people = {"T1": ["p-ana", "p-bia"], "T2": ["p-ana"]}
    published = _run(lambda code: people[code], ("T1", True), ("T2", False))
    assert sorted(published) == sorted([player_key("p-ana"), player_key("p-bia"), player_key("p-ana")])
    assert player_key("p-ana") == "player:p-ana"


def test_a_changes_people_keys_go_out_in_one_call():
    feed = _Feed()
    published = _run(lambda code: ["p-ana", "p-bia"], ("T1", True), feed=feed)
    assert published == [player_key("p-ana"), player_key("p-bia")] and feed.calls == 1


def test_a_failing_read_is_logged(caplog):
    def broken(code: str) -> list[str]:
        raise RuntimeError("database is locked")

    with caplog.at_level(logging.ERROR, logger="pifecacheta.live.service_link"):
        assert _run(broken, ("T1", False)) == []
    assert [r.getMessage() for r in caplog.records] == ["live update of the players' lists failed"]


def test_a_change_heard_from_another_process_is_not_published_again():
    """Another backend made the change and published its players' keys on the shared feed:
    hearing it (``remote_change``) publishes nothing here; a player key is no table."""
    from pifecacheta.live.service_link import remote_change

    svc, feed = _Service(), _Feed()

    async def main() -> None:
        publish_player_changes(svc, feed, lambda code: ["p-ana"])
        (listener,) = svc.listeners
        with remote_change():
            listener("T1")
        listener(player_key("p-ana"))
        await asyncio.sleep(0.2)

    asyncio.run(main())
    assert feed.published == []


def test_hearing_a_remote_player_key_wakes_no_table_listener():
    from pifecacheta.live.cluster import hear_remote_change

    heard: list[str] = []

    class _Store:
        def notify(self, code: str) -> None:
            heard.append(code)

    class _Svc:
        store = _Store()

    hear_remote_change(_Svc(), player_key("p-ana"))
    hear_remote_change(_Svc(), "T1")
    assert heard == ["T1"]
