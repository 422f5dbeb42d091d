"""The live feed over Redis (``live/redis_feed.py``) against a real ``redis-server``.

Two feeds stand for two backend processes (each its own Redis connections and its own tabs);
one test publishes from a real second Python process. Each feed's Reflex app is a stand-in
whose ``modify_state`` records the pushes (the push itself is LocalFeed's, tested in
tests/live/test_local_feed.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import redis
import redis.asyncio as aioredis
import reflex as rx

from pifecacheta.live import Tab
from pifecacheta.live.redis_feed import RedisFeed, count_key
from pifecacheta.state.table import TableState


class _Tab:
    def __init__(self, code: str) -> None:
        self.table_code, self.table_version = code, 0


class _Root:
    def __init__(self, tab: _Tab) -> None:
        self.tab = tab

    async def get_state(self, cls: type) -> Any:
        return self.tab


class _App:
    """``modify_state`` of a Reflex app; ``pushed`` lists the tokens modified, in order."""

    def __init__(self, tabs: dict[str, _Tab]) -> None:
        self.tabs = tabs
        self.pushed: list[str] = []

    @contextlib.asynccontextmanager
    async def modify_state(self, token: Any) -> AsyncIterator[_Root]:
        assert isinstance(token, rx.BaseStateToken) and token.cls is TableState
        self.pushed.append(token.ident)
        yield _Root(self.tabs[token.ident])


def _feed(url: str, tabs: dict[str, _Tab], heard: list[str]) -> RedisFeed:
    return RedisFeed(url, _App(tabs), TableState, on_remote=heard.append, is_open=lambda _s: True)


async def _until(check: Any, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def _listening(*feeds: RedisFeed) -> AsyncIterator[None]:
    tasks = [asyncio.create_task(f.listen()) for f in feeds]
    try:
        for f in feeds:
            assert await f.subscribed(5.0)
        yield
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for f in feeds:
            f.close()


def test_a_change_reaches_the_other_process_tabs_with_a_cluster_wide_count(redis_url: str) -> None:
    a_tabs, b_tabs = {"a1": _Tab("T1")}, {"b1": _Tab("T1"), "b2": _Tab("T2")}
    heard_a: list[str] = []
    heard_b: list[str] = []
    a, b = _feed(redis_url, a_tabs, heard_a), _feed(redis_url, b_tabs, heard_b)

    async def main() -> None:
        async with _listening(a, b):
            assert a.watch("T1", Tab("a1", "s")) == 0
            b.watch("T1", Tab("b1", "s"))
            b.watch("T2", Tab("b2", "s"))
            first = a.publish("T1", skip="a1")  # a1 made the change: its own delta has the count
            assert first.count == 1 and first.pushes == ()
            await _until(lambda: b_tabs["b1"].table_version == 1)
            second = b.publish("T1")
            assert second.count == 2  # one counter for the cluster, not one per process
            await second.delivered()
            await _until(lambda: a_tabs["a1"].table_version == 2)
            assert a.changes("T1") == b.changes("T1") == 2 and a.changes("T9") == 0

    asyncio.run(main())
    assert heard_b == ["T1"] and heard_a == ["T1"]  # each heard the OTHER's change only
    assert b_tabs["b2"].table_version == 0 and "b2" not in b.app.pushed  # another table


def test_apublish_counts_and_tells_the_other_process_without_the_blocking_client(redis_url: str) -> None:
    """The event loop's publish: one asyncio round trip (the blocking client is not used),
    the same cluster-wide count, the other process's tabs told; apublish_many numbers each
    key in order in one script call."""
    a_tabs, b_tabs = {"a1": _Tab("T1")}, {"b1": _Tab("T1")}
    a, b = _feed(redis_url, a_tabs, []), _feed(redis_url, b_tabs, [])

    class _NoSync:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"blocking Redis call {name} on the loop")

    async def main() -> None:
        async with _listening(a, b):
            a.watch("T1", Tab("a1", "s"))
            b.watch("T1", Tab("b1", "s"))
            real = a._sync, a._script
            a._sync, a._script = _NoSync(), _NoSync()  # type: ignore[assignment]
            first = await a.apublish("T1", skip="a1")
            assert first.count == 1 and first.pushes == ()
            await _until(lambda: b_tabs["b1"].table_version == 1)
            many = await a.apublish_many(["T1", "T2", "T1"])
            assert [d.count for d in many] == [2, 1, 3]
            await asyncio.gather(*(d.delivered() for d in many))
            assert a_tabs["a1"].table_version == 3
            await _until(lambda: b_tabs["b1"].table_version == 3)
            a._sync, a._script = real
            await a.aclose()

    asyncio.run(main())


def test_a_change_published_by_another_python_process_reaches_a_tab_here(redis_url: str) -> None:
    tabs = {"t": _Tab("T7")}
    heard: list[str] = []
    feed = _feed(redis_url, tabs, heard)
    script = (
        "import sys; from pifecacheta.live.redis_feed import RedisFeed\n"
        "f = RedisFeed(sys.argv[1]); print(f.publish('T7').count, f.publish('T7').count); f.close()\n"
    )

    async def main() -> None:
        async with _listening(feed):
            feed.watch("T7", Tab("t", "s"))
            out = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-c", script, redis_url],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert out.returncode == 0, out.stderr
            assert out.stdout.split() == ["1", "2"]
            await _until(lambda: tabs["t"].table_version == 2)

    asyncio.run(main())
    assert heard == ["T7", "T7"]


def test_a_dropped_subscription_resubscribes_and_refreshes_every_watching_tab(redis_url: str) -> None:
    """A change whose message is lost (here: counted in Redis, never published) is caught up
    when the subscriber's connection drops and it subscribes again: every watched table is
    read again, handed to on_remote and pushed to each of its tabs."""
    tabs = {"x": _Tab("T1"), "y": _Tab("T2")}
    heard: list[str] = []
    feed = _feed(redis_url, tabs, heard)
    admin = redis.Redis.from_url(redis_url)
    other = RedisFeed(redis_url)

    async def main() -> None:
        async with _listening(feed):
            feed.watch("T1", Tab("x", "s"))
            feed.watch("T2", Tab("y", "s"))
            assert feed.resyncs == 1
            admin.set(count_key("T1"), 5)  # five changes whose messages never came
            assert admin.client_kill_filter(_type="pubsub") >= 1
            await _until(lambda: feed.resyncs == 2)
            await _until(lambda: tabs["x"].table_version == 5 and sorted(set(feed.app.pushed)) == ["x", "y"])
            assert sorted(heard) == ["T1", "T2"]  # both tables re-read (the cache drops them)
            assert other.publish("T1").count == 6  # and the new subscription hears new changes
            await _until(lambda: tabs["x"].table_version == 6)

    asyncio.run(main())
    admin.close()
    other.close()


def test_without_redis_a_publish_still_tells_this_process_and_never_raises() -> None:
    tabs = {"t": _Tab("T1")}
    feed = RedisFeed("redis://127.0.0.1:1/0", _App(tabs), TableState, is_open=lambda _s: True)

    async def main() -> None:
        assert feed.watch("T1", Tab("t", "s")) == 0
        first = feed.publish("T1")
        await first.delivered()
        assert (first.count, feed.publish("T1").count) == (1, 2)
        assert (await feed.apublish("T1")).count == 3  # the asyncio client falls back alike
        await feed.aclose()

    asyncio.run(main())
    assert tabs["t"].table_version >= 1


def test_keep_alive_renews_every_state_key_of_each_open_watching_tab(redis_url: str) -> None:
    """Reflex renews a stored state's TTL only when it writes that state: the feed renews
    all of them for the tabs it serves, and only while their socket is open."""
    feed = RedisFeed(redis_url, _App({}), TableState, is_open=lambda socket: socket == "open")
    admin = redis.Redis.from_url(redis_url)
    classes = feed._state_classes()
    names = {c.get_full_name() for c in classes}
    assert TableState.get_full_name() in names and rx.State.get_full_name() in names
    keys = {t: [str(rx.BaseStateToken(ident=t, cls=c)) for c in classes] for t in ("live", "gone")}
    for token_keys in keys.values():
        for k in token_keys:
            admin.set(k, b"state", ex=5)
    feed.watch("T1", Tab("live", "open"))
    feed.watch("T1", Tab("gone", "closed"))

    async def main() -> int:
        client = aioredis.Redis.from_url(redis_url)
        try:
            return await feed.renew_states(client, 3600)
        finally:
            await client.aclose()

    assert asyncio.run(main()) == 1
    assert all(3500 < admin.ttl(k) <= 3600 for k in keys["live"])
    assert all(admin.ttl(k) <= 5 for k in keys["gone"])
    admin.close()
    feed.close()
