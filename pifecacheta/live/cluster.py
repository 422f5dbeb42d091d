"""One process or a cluster: which live feed, and where the bots and the sweeper run.

Without ``REFLEX_REDIS_URL`` (``scripts/run.sh``) nothing changes: a
:class:`~pifecacheta.live.local.LocalFeed`, and the background job (the sweeper: every
table's bots and the expiry) runs in the one process. With it, several backend processes
share one Redis and one database:

* :func:`build_feed` gives a :class:`~pifecacheta.live.redis_feed.RedisFeed` whose changes
  heard from other processes are handed to :func:`hear_remote_change`;
* :func:`run_background` shares the bots out (``live/shards.py``): when every backend knows
  its address in the proxy (``PIFECACHETA_PROXY_ADDRESS``), each plays the bots of the tables
  nginx sends it the tabs of (``live/ring.py``, nginx's consistent hash over the live
  backends), so a bot move is made where the table's tabs are; otherwise each holds some of
  the ``PIFECACHETA_BOT_SHARDS`` bot shards (about ``S / backends`` each) and plays the bots
  of their tables only; expiry runs in the one process holding the sweeper lease
  (``live/lease.py``, :func:`run_once_per_cluster`).
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
from pifecacheta.live.shards import BotShards, bot_shards_from_env, keep_shards, proxy_address_from_env

BotsJob = Callable[[Callable[[str], bool], asyncio.Event, Callable[[str], None]], Coroutine[Any, Any, None]]


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
    """What the feed needs while the app runs, until cancelled: its open tabs' states kept
    alive (``keep_alive_loop``), and a Redis feed's subscriber."""
    if isinstance(feed, RedisFeed):
        try:
            await asyncio.gather(feed.listen(), feed.keep_alive_loop())
        finally:
            await feed.aclose()
    elif isinstance(feed, LocalFeed):
        await feed.keep_alive_loop()


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


async def run_background(
    everything: Callable[[], Coroutine[Any, Any, None]],
    bots: BotsJob,
    sweeps: Callable[[], Coroutine[Any, Any, None]],
    url: str | None = None,
) -> None:
    """The background work of this process. Without a Redis URL: ``everything()`` (the
    sweeper: every table's bots and the expiry). With one, until cancelled, side by side:

    * :func:`~pifecacheta.live.shards.keep_shards` on a
      :class:`~pifecacheta.live.shards.BotShards` of ``PIFECACHETA_BOT_SHARDS`` shards (lease
      TTL ``PIFECACHETA_LEASE_TTL``, address ``PIFECACHETA_PROXY_ADDRESS``): the tables nginx
      routes to this backend when every live backend has an address, else its fair share of
      the bot shards;
    * ``bots(owns, reshard, on_move)``: the bots of the tables ``owns(code)`` gives, ``reshard``
      set each time the held shards or the ring change, ``on_move`` counting this backend's
      moves;
    * ``sweeps()`` only while this process holds the sweeper lease (:func:`hold_and_run`).
    """
    url = redis_url() if url is None else url
    if not url:
        await everything()
        return
    client = aioredis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
    ttl = lease_ttl_from_env()
    shards = BotShards(client, bot_shards_from_env(), ttl=ttl, address=proxy_address_from_env())
    reshard = asyncio.Event()
    try:
        async with asyncio.TaskGroup() as group:  # one failing cancels the others
            group.create_task(keep_shards(shards, on_change=lambda _held: reshard.set()))
            group.create_task(bots(shards.owns, reshard, shards.count_move))
            group.create_task(hold_and_run(Lease(client, ttl=ttl, holder=shards.holder), sweeps))
    finally:
        await client.aclose()
