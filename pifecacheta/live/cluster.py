"""One process or a cluster: which live feed, and where the bots and the sweeper run.

Without ``REFLEX_REDIS_URL`` (``scripts/run.sh``) nothing changes: a
:class:`~pifecacheta.live.local.LocalFeed`, and the background job (the sweeper) runs in the
one process. With it, several backend processes share one Redis and one database:

* :func:`build_feed` gives a :class:`~pifecacheta.live.redis_feed.RedisFeed` whose changes
  heard from other processes are handed to :func:`hear_remote_change`;
* :func:`run_once_per_cluster` runs the background job only while this process holds the
  Redis lease (``live/lease.py``), so the bots move and tables expire in one process at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import redis.asyncio as aioredis

from pifecacheta.live.feed import LiveFeed
from pifecacheta.live.lease import Lease, hold_and_run, lease_ttl_from_env
from pifecacheta.live.local import LocalFeed
from pifecacheta.live.redis_feed import RedisFeed, redis_url
from pifecacheta.live.service_link import is_player_key, remote_change


class NotifyingService(Protocol):
    """What :func:`hear_remote_change` needs of ``TableService``: its store's ``notify``."""

    @property
    def store(self) -> Any: ...


def hear_remote_change(service: NotifyingService, code: str) -> None:
    """Tell this process's ``on_change`` listeners that another process changed table
    ``code``: the snapshot cache drops the table's entries, the bot scheduler (if it runs
    here) reads the table again. Marked as a remote change (``remote_change``), so the
    service link publishes neither the table nor its players' keys a second time. A lobby
    tab's ``player:<id>`` key names no table: the feed has pushed it to its tabs already."""
    if is_player_key(code):
        return
    with remote_change():
        service.store.notify(code)


def build_feed(app: Any, state_cls: type[Any], service: NotifyingService, url: str | None = None) -> LiveFeed:
    """The live feed of this process: a :class:`RedisFeed` on ``url`` (default
    :func:`~pifecacheta.live.redis_feed.redis_url`) when there is one, else a
    :class:`LocalFeed`."""
    url = redis_url() if url is None else url
    if not url:
        return LocalFeed(app, state_cls)
    return RedisFeed(url, app, state_cls, on_remote=lambda code: hear_remote_change(service, code))


async def run_feed(feed: LiveFeed) -> None:
    """What the feed needs while the app runs: a Redis feed's subscriber and the renewal of
    its tabs' state TTL (until cancelled); nothing for a local feed."""
    if isinstance(feed, RedisFeed):
        try:
            await asyncio.gather(feed.listen(), feed.keep_alive_loop())
        finally:
            feed.close()


async def run_once_per_cluster(job: Callable[[], Coroutine[Any, Any, None]], url: str | None = None) -> None:
    """Run ``job()`` here when this is the only process (no Redis URL), else only while this
    process holds the cluster's lease (:func:`~pifecacheta.live.lease.hold_and_run`, TTL
    ``PIFECACHETA_LEASE_TTL``). Returns when the job returns (one process) or never (cluster)."""
    url = redis_url() if url is None else url
    if not url:
        await job()
        return
    client = aioredis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
    try:
        await hold_and_run(Lease(client, ttl=lease_ttl_from_env()), job)
    finally:
        await client.aclose()
