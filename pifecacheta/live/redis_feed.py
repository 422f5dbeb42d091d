"""The live feed of a cluster: backend processes sharing one Redis (``REFLEX_REDIS_URL``).

Each process keeps the registry of its OWN tabs (the tabs whose websocket it serves:
:func:`~pifecacheta.live.local.socket_open` sees only local sockets) and pushes only to them,
exactly as :class:`~pifecacheta.live.local.LocalFeed` does. What is shared goes through Redis:

* the change count of each table is the Redis counter ``pifecacheta:changes:<code>``
  (``INCR``), so it means the same on every process; :meth:`RedisFeed.changes` reads it.
* every published change is ONE message on the channel ``pifecacheta:feed``, a JSON object
  ``{"code": <table code>, "count": <count after it>, "from": <publishing feed's id>}``, sent
  in the same Lua script as the ``INCR`` (one round trip; messages leave in count order). One
  script call publishes any number of keys (a table's players' MINHAS MESAS keys at once).
* every process subscribes to the channel. A change heard from another process is first
  handed to ``on_remote(code)`` (the app invalidates this process's snapshot cache and wakes
  its bot scheduler there), then pushed to this process's tabs of the table. A push with a
  new count makes the tab's next snapshot read miss the cache and read the database, so a tab
  that skipped counts (a message lost) shows the table as it is now.
* Redis pub/sub drops the messages sent while a subscriber reconnects. Each subscription
  confirmation (the first one, one after redis-py's own reconnect, one after this module's
  resubscribe) therefore *resyncs*: every table with a tab here is read again from Redis's
  counters, handed to ``on_remote`` and pushed to each of its tabs, whose view then re-reads.

:meth:`RedisFeed.apublish` and :meth:`RedisFeed.apublish_many` (what the app calls on its
event loop) make ONE round trip on an asyncio client, so the loop serves other tabs while Redis
answers. :meth:`RedisFeed.publish` and :meth:`RedisFeed.changes` make ONE blocking round trip
(a synchronous client with a 1 s socket timeout), for callers outside the loop; on the loop
they stall every tab of the process for that round trip (under load the profile showed ~18%
of the loop's wall time there). All of them, when Redis cannot be reached, fall back to this
process's last known count (+1 for a publish) and log a warning; the other processes catch up
at their resync once Redis is back.

Reflex's Redis state manager gives each stored state of a tab the TTL
``REFLEX_REDIS_TOKEN_EXPIRATION`` (1 h by default) and renews it only when that state is
written, so the state of a tab left open on a table where nothing happens (or the parts of it
no event touches, e.g. ``ViewerState``) would expire under a connected tab: its next push would
find an empty state and stop watching. :meth:`RedisFeed.renew_states` therefore renews, every
quarter of that TTL, the TTL of every state key of each tab watching here whose socket is open
(``PEXPIRE`` on ``str(rx.BaseStateToken(token, cls))`` for each state class of the app).

Only table codes, counts and feed ids travel: no cards, no tokens.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from typing import Any, cast

import redis
import redis.asyncio as aioredis
import reflex as rx
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

from pifecacheta.live.feed import Delivery, Tab
from pifecacheta.live.local import LocalFeed

log = logging.getLogger(__name__)

CHANNEL = "pifecacheta:feed"
COUNT_PREFIX = "pifecacheta:changes:"
COUNT_TTL_MS = 30 * 24 * 3600 * 1000  # a table idle for 7 days expires: 30 days is plenty
SOCKET_TIMEOUT = 1.0  # seconds a blocking round trip may take before the fallback
POLL_SECONDS = 1.0  # the subscriber's longest wait for a message (then a health check)
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0)  # waits before each new subscription after a failure

# For each key i: INCR its counter, keep it 30 days, publish the change; returns the new
# counts in KEYS order. ARGV: channel, feed id, TTL ms, then the codes in KEYS order.
_PUBLISH_LUA = """
local out = {}
for i = 1, #KEYS do
    local n = redis.call('INCR', KEYS[i])
    redis.call('PEXPIRE', KEYS[i], ARGV[3])
    redis.call('PUBLISH', ARGV[1], cjson.encode({code = ARGV[i + 3], count = n, from = ARGV[2]}))
    out[i] = n
end
return out
"""


def redis_url() -> str:
    """The Redis URL Reflex uses (``REFLEX_REDIS_URL``, read through ``rx.config``), or ""."""
    from reflex.config import get_config

    return str(get_config().redis_url or "")


def count_key(code: str) -> str:
    """The Redis key of table ``code``'s change count.

    >>> count_key("ABC123")
    'pifecacheta:changes:ABC123'
    """
    return COUNT_PREFIX + code


class RedisFeed(LocalFeed):
    """The :class:`~pifecacheta.live.feed.LiveFeed` of one process of a cluster (see the
    module docstring). Run :meth:`listen` as a task for as long as the feed is installed.

    Args:
        url: the Redis URL (``redis://host:port/db``).
        app: the Reflex app (``modify_state``, ``sio``); None registers, counts and
            publishes but pushes nothing.
        state_cls: the tab state class pushed to (``TableState``).
        on_remote: ``on_remote(code)``, called on the event loop for each change of table
            ``code`` made by another process (and for every watched table at a resync),
            before its tabs here are pushed. Exceptions are logged.
        is_open: as for :class:`LocalFeed` (default: the socket is on ``app``).
    """

    def __init__(
        self,
        url: str,
        app: Any = None,
        state_cls: type[Any] | None = None,
        *,
        on_remote: Callable[[str], None] | None = None,
        is_open: Callable[[str], bool] | None = None,
    ) -> None:
        super().__init__(app, state_cls, is_open=is_open)
        self.url = url
        self.feed_id = uuid.uuid4().hex
        self.on_remote = on_remote
        self.resyncs = 0  # subscriptions confirmed (each one resyncs the watched tables)
        self._sync = redis.Redis.from_url(
            url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT
        )
        self._script = self._sync.register_script(_PUBLISH_LUA)
        self._aio: tuple[asyncio.AbstractEventLoop, aioredis.Redis, AsyncScript] | None = None
        self._counts: dict[str, int] = {}  # code -> highest count known here
        self._counts_lock = threading.Lock()
        self._subscribed = asyncio.Event()  # set while a subscription is confirmed

    # --- counts ----------------------------------------------------------------------

    def _known(self, code: str, count: int | None = None) -> int:
        """Raise the count known here for ``code`` to ``count`` (if given); returns it."""
        with self._counts_lock:
            best = max(self._counts.get(code, 0), count or 0)
            self._counts[code] = best
            return best

    def changes(self, code: str) -> int:
        """See :meth:`LiveFeed.changes`: the cluster-wide count (Redis ``GET``), or the last
        count known here when Redis cannot be reached."""
        try:
            raw = cast(bytes | None, self._sync.get(count_key(code)))
        except RedisError as exc:
            log.warning("live feed: Redis unreachable for the count of table %s (%r)", code, exc)
            return self._known(code)
        return self._known(code, int(raw) if raw is not None else 0)

    def watch(self, code: str, tab: Tab) -> int:
        """See :meth:`LiveFeed.watch`: registers ``tab`` here; returns :meth:`changes`."""
        self.registry.watch(code, tab)
        return self.changes(code)

    def _args(self, codes: list[str]) -> tuple[list[str], list[Any]]:
        return [count_key(c) for c in codes], [CHANNEL, self.feed_id, COUNT_TTL_MS, *codes]

    def _published(self, codes: list[str], raw: Any, skip: str) -> list[Delivery]:
        """The deliveries of ``codes`` from the script's reply ``raw`` (None: Redis was
        unreachable, the counts known here + 1), each with its pushes started."""
        out = []
        for i, code in enumerate(codes):
            if raw is None:
                with self._counts_lock:
                    count = self._counts.get(code, 0) + 1
            else:
                count = int(raw[i])
            self._known(code, count)
            out.append(Delivery(count, self.push_tabs(code, count, skip=skip)))
        return out

    def publish(self, code: str, *, skip: str = "") -> Delivery:
        """See :meth:`LiveFeed.publish`: ``INCR`` + ``PUBLISH`` in one blocking script call,
        then the pushes to this process's watching tabs but ``skip`` (the other processes push
        to theirs when the message reaches them). Without Redis: the count known here + 1,
        local pushes only. On the event loop prefer :meth:`apublish`."""
        keys, args = self._args([code])
        try:
            raw = self._script(keys=keys, args=args)
        except RedisError as exc:
            log.warning("live feed: Redis unreachable, change of table %s told here only (%r)", code, exc)
            raw = None
        return self._published([code], raw, skip)[0]

    def _async_script(self) -> AsyncScript:
        """The publish script on an asyncio client of the running loop (made on first use;
        again when the loop changed)."""
        loop = asyncio.get_running_loop()
        if self._aio is None or self._aio[0] is not loop:
            client = aioredis.Redis.from_url(
                self.url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT
            )
            self._aio = (loop, client, client.register_script(_PUBLISH_LUA))
        return self._aio[2]

    async def apublish_many(self, codes: Sequence[str], *, skip: str = "") -> list[Delivery]:
        """:meth:`apublish` of each of ``codes`` in ONE script call (in that order); returns
        their deliveries in the same order ([] for no codes)."""
        codes = list(codes)
        if not codes:
            return []
        keys, args = self._args(codes)
        try:
            raw = await self._async_script()(keys=keys, args=args)
        except (RedisError, OSError) as exc:
            log.warning("live feed: Redis unreachable, changes of %s told here only (%r)", codes, exc)
            raw = None
        return self._published(codes, raw, skip)

    async def apublish(self, code: str, *, skip: str = "") -> Delivery:
        """See :meth:`LiveFeed.apublish`: :meth:`publish` without blocking the event loop (one
        round trip on an asyncio client; the same fallback when Redis cannot be reached)."""
        return (await self.apublish_many([code], skip=skip))[0]

    # --- the subscriber --------------------------------------------------------------

    async def listen(self) -> None:
        """Subscribe to the channel and handle its messages until cancelled; after a failure
        (Redis down, connection dropped) subscribe again after ``RETRY_SECONDS``. Every
        subscription confirmed resyncs (:meth:`resync`)."""
        client = aioredis.Redis.from_url(self.url, health_check_interval=5)
        failures = 0
        try:
            while True:
                try:
                    async with client.pubsub() as pubsub:
                        await pubsub.subscribe(CHANNEL)
                        while True:
                            msg = await pubsub.get_message(timeout=POLL_SECONDS)
                            if msg is not None:
                                failures = 0
                                await self._handle(msg, client)
                except (RedisError, OSError) as exc:
                    self._subscribed.clear()
                    wait = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                    failures += 1
                    log.warning("live feed: subscription lost (%r); subscribing again in %.1f s", exc, wait)
                    await asyncio.sleep(wait)
        finally:
            self._subscribed.clear()
            await client.aclose()

    async def subscribed(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the subscription to be confirmed."""
        try:
            await asyncio.wait_for(self._subscribed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def _handle(self, msg: dict[str, Any], client: aioredis.Redis) -> None:
        """One pub/sub message: a subscription confirmation resyncs, a change of another
        process is told here."""
        if msg.get("type") == "subscribe":
            self.resyncs += 1
            await self.resync(client)
            self._subscribed.set()
            return
        if msg.get("type") != "message":
            return
        try:
            data = json.loads(msg["data"])
            code, count, origin = str(data["code"]), int(data["count"]), str(data["from"])
        except (KeyError, TypeError, ValueError):
            log.warning("live feed: unreadable message %r", msg.get("data"))
            return
        self._known(code, count)
        if origin == self.feed_id:
            return  # published here: this process's listeners and tabs already know
        self._remote(code)
        self.push_tabs(code, count)

    def _remote(self, code: str) -> None:
        if self.on_remote is None:
            return
        try:
            self.on_remote(code)
        except Exception:  # noqa: BLE001 - one listener must not stop the feed
            log.exception("live feed: on_remote failed for table %s", code)

    async def resync(self, client: aioredis.Redis) -> list[str]:
        """Catch up on changes whose messages may have been lost: each table with a tab here
        gets its count from Redis, :attr:`on_remote`, and a push to each of its tabs here (a
        push re-evaluates the tab's view even when the count did not move). ``client``: an
        async Redis client. Returns the codes resynced; raises what ``MGET`` raises."""
        codes = self.registry.codes()
        if not codes:
            return []
        raws = await client.mget([count_key(c) for c in codes])
        for code, raw in zip(codes, raws, strict=True):
            count = self._known(code, int(raw) if raw is not None else 0)
            self._remote(code)
            self.push_tabs(code, count)
        log.info("live feed: resynced %d table(s) after a (re)subscription", len(codes))
        return codes

    # --- keeping the tabs' Reflex states alive ------------------------------------------

    def _state_classes(self) -> list[type[Any]]:
        """Every state class of the app's tree (the root of ``state_cls`` and all below)."""
        if self.state_cls is None:
            return []
        out: list[type[Any]] = []
        stack = [self.state_cls.get_root_state()]
        while stack:
            cls = stack.pop()
            out.append(cls)
            stack.extend(sorted(cls.get_substates(), key=lambda c: str(c.get_full_name())))
        return out

    async def renew_states(self, client: aioredis.Redis, ttl: float) -> int:
        """Renew to ``ttl`` seconds the TTL of every stored state of each tab watching a
        table here whose socket is open (one pipeline of ``PEXPIRE``; keys that do not exist
        are left alone). Returns how many tabs were kept; raises what Redis raises."""
        classes = self._state_classes()
        tabs = self.open_tabs()
        if not classes or not tabs:
            return 0
        pipe = client.pipeline(transaction=False)
        ms = int(ttl * 1000)
        for tab in tabs:
            for cls in classes:
                pipe.pexpire(str(rx.BaseStateToken(ident=tab.token, cls=cls)), ms)
        await pipe.execute()
        return len(tabs)

    async def keep_alive_loop(self, ttl: float | None = None) -> None:
        """Keep the open tabs' states alive until cancelled: with Reflex's Redis state manager,
        :meth:`renew_states` every ``ttl / 4`` seconds (``ttl``: default Reflex's
        ``redis_token_expiration``; a Redis failure is logged and tried next time); with a
        state manager in this process's memory, :meth:`LocalFeed.keep_alive_loop`."""
        if not _states_in_redis(self.app):
            await super().keep_alive_loop(ttl)
            return
        if ttl is None:
            from reflex.config import get_config

            ttl = float(get_config().redis_token_expiration)
        client = aioredis.Redis.from_url(self.url, socket_timeout=SOCKET_TIMEOUT)
        try:
            while True:
                await asyncio.sleep(max(1.0, ttl / 4))
                try:
                    await self.renew_states(client, ttl)
                except (RedisError, OSError) as exc:
                    log.warning("live feed: could not renew the tabs' state TTL (%r)", exc)
        finally:
            await client.aclose()

    def close(self) -> None:
        """Close the blocking client (the subscriber closes its own when cancelled) and drop
        the asyncio publishing client (closed by its loop's shutdown)."""
        self._sync.close()
        self._aio = None

    async def aclose(self) -> None:
        """:meth:`close`, and close the asyncio publishing client when made on this loop."""
        aio, self._aio = self._aio, None
        if aio is not None and aio[0] is asyncio.get_running_loop():
            await aio[1].aclose()
        self.close()


def _states_in_redis(app: Any) -> bool:
    """True when ``app`` keeps its tabs' states in Redis (Reflex's ``StateManagerRedis``),
    also when there is no app yet (a feed built for a Redis cluster); False for a state
    manager in this process's memory (or on its disk)."""
    from reflex.istate.manager.redis import StateManagerRedis

    try:
        manager = app.state_manager  # rx.App's public property; ValueError before it is made
    except (AttributeError, ValueError):
        return True
    return isinstance(manager, StateManagerRedis)
