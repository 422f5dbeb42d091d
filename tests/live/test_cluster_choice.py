"""``live/cluster.py``: one process without a Redis URL, the Redis feed and the lease with one;
a change heard from another process reaches this process's listeners but is not published
again."""

from __future__ import annotations

import asyncio

from pifecacheta.live import LocalFeed, service_link
from pifecacheta.live.cluster import build_feed, hear_remote_change, run_background, run_once_per_cluster
from pifecacheta.live.redis_feed import RedisFeed
from pifecacheta.state.table import TableState


class _Store:
    def __init__(self) -> None:
        self.notified: list[tuple[str, bool]] = []

    def notify(self, code: str) -> None:
        self.notified.append((code, service_link.IN_HANDLER.get()))


class _Service:
    def __init__(self) -> None:
        self.store = _Store()


def test_without_a_redis_url_the_feed_is_local_and_the_job_just_runs() -> None:
    svc = _Service()
    assert type(build_feed(None, TableState, svc, url="")) is LocalFeed
    ran: list[int] = []

    async def job() -> None:
        ran.append(1)

    asyncio.run(run_once_per_cluster(job, url=""))
    assert ran == [1]

    async def never(*_args: object) -> None:
        raise AssertionError("one process runs the whole sweeper, neither bot shards nor a lease")

    asyncio.run(run_background(job, never, never, url=""))
    assert ran == [1, 1]


def test_with_a_redis_url_remote_changes_reach_the_listeners_marked_as_already_published() -> None:
    svc = _Service()
    feed = build_feed(None, TableState, svc, url="redis://127.0.0.1:1/0")
    assert isinstance(feed, RedisFeed) and feed.on_remote is not None
    feed.on_remote("T1")
    hear_remote_change(svc, "T2")
    # IN_HANDLER: the service link skips them (the publishing process already told the cluster)
    assert svc.store.notified == [("T1", True), ("T2", True)]
    assert not service_link.IN_HANDLER.get()
    feed.close()
