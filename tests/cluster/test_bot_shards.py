"""The bots' shards (``live/shards.py``) against a real ``redis-server``: a table's shard is
the same in every process and the shards spread the tables; two backends on one Redis settle
on disjoint halves covering every shard; a backend that stops renewing (SIGKILL: no release)
has its shards taken by the other within the TTL and one round; a rejoining backend gets its
share back; a backend that cannot reach Redis drops its shards; a clean stop hands them over
at once. With proxy addresses (``PIFECACHETA_PROXY_ADDRESS``) the backends share the tables by
nginx's ring instead (``live/ring.py``), go back to the leases while one has no address, and a
killed one's tables go where nginx fails over to."""

from __future__ import annotations

import asyncio
import base64
import os
import random
import subprocess
import sys
from collections import Counter

import redis.asyncio as aioredis

from pifecacheta.live.cluster import run_background
from pifecacheta.live.ring import Ring
from pifecacheta.live.shards import (
    ADDRESSES_KEY,
    HELD_KEY,
    MOVES_KEY,
    BotShards,
    keep_shards,
    proxy_address_from_env,
    shard_key,
    shard_of,
)

S = 16
TTL = 0.6


def _codes(n: int) -> list[str]:
    """``n`` table codes shaped as the lobby makes them (``token_urlsafe(12)``), reproducible."""
    rng = random.Random(14)
    return [base64.urlsafe_b64encode(rng.randbytes(12)).decode().rstrip("=") for _ in range(n)]


def test_a_tables_shard_is_the_same_in_every_process_and_the_shards_spread_the_tables() -> None:
    codes = _codes(3200)
    here = [shard_of(c, S) for c in codes[:50]]
    script = (
        "import sys; from pifecacheta.live.shards import shard_of; "
        "print(' '.join(str(shard_of(c, 16)) for c in sys.argv[1:]))"
    )
    for seed in ("1", "2"):  # Python's own hash() of a str changes with PYTHONHASHSEED
        out = subprocess.run(
            [sys.executable, "-c", script, *codes[:50]],
            env=os.environ | {"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        )
        assert [int(x) for x in out.stdout.split()] == here
    assert shard_of("ABC123", 16) == 0 and shard_of("mesa-7", 16) == 15  # crc32, fixed forever
    per = Counter(shard_of(c, S) for c in codes)
    assert sorted(per) == list(range(S))
    assert min(per.values()) > 150 and max(per.values()) < 250  # 200 each on average


async def _rounds(*members: BotShards, times: int = 3) -> None:
    for _ in range(times):
        for m in members:
            await m.round()


def test_two_backends_settle_on_disjoint_halves_that_cover_every_shard(redis_url: str) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        a = BotShards(client, S, ttl=5, holder="a")
        await a.round()
        assert a.held == frozenset(range(S)) and a.members == 1  # alone: every shard
        b = BotShards(client, S, ttl=5, holder="b")
        await _rounds(b, a, b)  # b joins: a gives up half, b takes it at its next round
        assert a.members == b.members == 2
        assert len(a.held) == len(b.held) == S // 2
        assert a.held.isdisjoint(b.held) and a.held | b.held == frozenset(range(S))
        for k in range(S):  # each lease key holds its holder's name
            assert await client.get(shard_key(k)) == (b"a" if k in a.held else b"b")
        steady = (a.held, b.held)
        await _rounds(a, b, times=5)
        assert (a.held, b.held) == steady  # no shard changes hands while both live
        codes = _codes(400)
        assert all(a.owns(c) != b.owns(c) for c in codes)  # each table's bots in one backend
        await client.aclose()

    asyncio.run(main())


def test_three_backends_share_every_shard_once(redis_url: str) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        members = [BotShards(client, S, ttl=5, holder=name) for name in ("a", "b", "c")]
        await _rounds(*members, times=4)
        held = [m.held for m in members]
        assert sum(len(h) for h in held) == S and frozenset().union(*held) == frozenset(range(S))
        assert all(len(h) <= 6 for h in held)  # ceil(16 / 3)
        await client.aclose()

    asyncio.run(main())


def test_a_backend_that_stops_renewing_has_its_shards_taken_within_the_ttl_and_a_round(
    redis_url: str,
) -> None:
    """A SIGKILL-ed backend releases nothing: its leases and its member entry lapse after the
    TTL, and the survivor's next round takes every shard. When it comes back (a new process,
    a new name) it gets its share back."""

    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        a = BotShards(client, S, ttl=TTL, holder="a")
        b = BotShards(client, S, ttl=TTL, holder="b")
        await _rounds(a, b, a, b)
        assert len(a.held) == len(b.held) == S // 2
        loop = asyncio.get_running_loop()
        killed = loop.time()  # b stops here, without leave()
        while len(a.held) < S:
            assert loop.time() - killed < TTL + TTL / 3 + 0.3, f"a holds {sorted(a.held)}"
            await asyncio.sleep(TTL / 3)
            await a.round()
        assert a.members == 1
        # b wakes (a paused process) or comes back: its first round takes none of a's shards
        assert await b.round() == frozenset()
        await _rounds(a, b)  # a gives up half, b takes it: its share back
        assert len(a.held) == len(b.held) == S // 2 and a.held | b.held == frozenset(range(S))
        await client.aclose()

    asyncio.run(main())


def test_keep_shards_hands_over_at_once_on_a_clean_stop_and_counts_the_moves(redis_url: str) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        a = BotShards(client, S, ttl=30, holder="a")  # long TTL: only a release hands over
        b = BotShards(client, S, ttl=30, holder="b")
        seen: list[frozenset[int]] = []
        ta = asyncio.create_task(keep_shards(a, every=0.05, on_change=seen.append))
        tb = asyncio.create_task(keep_shards(b, every=0.05))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5
        # round() sets ``held`` before its pipeline's await; on_change follows after it
        while not (len(a.held) == len(b.held) == S // 2 and seen and seen[-1] == a.held):
            assert loop.time() < deadline, (sorted(a.held), sorted(b.held), seen[-1:])
            await asyncio.sleep(0.02)
        for _ in range(3):
            a.count_move()
        deadline = loop.time() + 5  # the next round of keep_shards adds the moves up in Redis
        while await client.hget(MOVES_KEY, "a") != b"3":
            assert loop.time() < deadline, await client.hget(MOVES_KEY, "a")
            await asyncio.sleep(0.02)
        assert await client.hget(HELD_KEY, "a") == str(S // 2).encode()
        tb.cancel()  # b stops cleanly: it releases its shards and leaves
        await asyncio.gather(tb, return_exceptions=True)
        assert b.held == frozenset() and await client.hget(HELD_KEY, "b") is None
        deadline = loop.time() + 2  # well under the 30 s TTL
        while len(a.held) < S:
            assert loop.time() < deadline
            await asyncio.sleep(0.02)
        ta.cancel()
        await asyncio.gather(ta, return_exceptions=True)
        assert all([await client.get(shard_key(k)) is None for k in range(S)])
        await client.aclose()

    asyncio.run(main())


def test_a_backend_that_cannot_reach_redis_drops_its_shards(redis_url: str) -> None:
    """It cannot know whether its leases still stand: it stops driving every table at once."""

    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url, socket_timeout=0.3)
        a = BotShards(client, S, ttl=TTL, holder="a")
        seen: list[frozenset[int]] = []
        task = asyncio.create_task(keep_shards(a, on_change=seen.append))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5
        while len(a.held) < S:
            assert loop.time() < deadline
            await asyncio.sleep(0.02)
        admin = aioredis.Redis.from_url(redis_url)
        await admin.client_pause(1500)  # Redis answers nobody for 1.5 s
        deadline = loop.time() + 1.2
        while a.held:
            assert loop.time() < deadline
            await asyncio.sleep(0.02)
        assert not a.owns("ABC123") and seen[-1] == frozenset()
        deadline = loop.time() + 5  # Redis answers again: it takes them back
        while len(a.held) < S:
            assert loop.time() < deadline
            await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await admin.aclose()
        await client.aclose()

    asyncio.run(main())


def test_run_background_shares_the_bots_and_runs_the_expiry_in_one_backend(
    redis_url: str, monkeypatch
) -> None:  # noqa: ANN001
    """Two backends' background work on one Redis: every table's bots in exactly one of them,
    told to re-read when their shards change; the expiry in one of them at a time."""
    monkeypatch.setenv("PIFECACHETA_BOT_SHARDS", "8")
    monkeypatch.setenv("PIFECACHETA_LEASE_TTL", "0.6")
    codes = _codes(200)
    owners: dict[str, object] = {}
    sweeping: list[str] = []
    at_once: list[int] = []

    def backend(name: str):  # noqa: ANN202
        async def everything() -> None:
            raise AssertionError("a cluster never runs the one-process job")

        async def bots(owns, reshard, on_move) -> None:  # noqa: ANN001
            owners[name] = owns
            while True:
                await reshard.wait()
                reshard.clear()

        async def sweeps() -> None:
            sweeping.append(name)
            try:
                while True:
                    at_once.append(len(sweeping))
                    await asyncio.sleep(0.02)
            finally:
                sweeping.remove(name)

        return run_background(everything, bots, sweeps, url=redis_url)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        a = asyncio.create_task(backend("a"))
        b = asyncio.create_task(backend("b"))
        deadline = loop.time() + 10
        while True:
            if len(owners) == 2:
                per = [sum(1 for c in codes if owners[n](c)) for n in ("a", "b")]  # type: ignore[operator]
                one = all(owners["a"](c) != owners["b"](c) for c in codes)  # type: ignore[operator]
                if one and min(per) > 50:
                    break
            assert loop.time() < deadline, "the two backends did not share the bots"
            await asyncio.sleep(0.05)
        assert len(sweeping) == 1
        a.cancel()
        await asyncio.gather(a, return_exceptions=True)
        deadline = loop.time() + 3
        while not all(owners["b"](c) for c in codes):  # type: ignore[operator]
            assert loop.time() < deadline, "b did not take a's shards"
            await asyncio.sleep(0.05)
        while sweeping != ["b"]:
            assert loop.time() < deadline, "b did not take the sweeper lease"
            await asyncio.sleep(0.05)
        b.cancel()
        await asyncio.gather(b, return_exceptions=True)

    asyncio.run(main())
    assert max(at_once) == 1  # never two expiry jobs at once


def _covered(members: list[BotShards], codes: list[str]) -> bool:
    """Every table of ``codes`` has at least one backend playing its bots."""
    return all(any(m.owns(c) for m in members) for c in codes)


def test_backends_with_addresses_play_the_tables_nginx_routes_to_them(redis_url: str) -> None:
    """Every live member has a proxy address: each plays exactly the tables the ring of the
    addresses (nginx's choice, ``live/ring.py``) maps to it, and holds no shard lease."""

    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        a = BotShards(client, S, ttl=5, holder="a", address="127.0.0.1:8001")
        await a.round()  # alone: the ring of one, every table
        assert a.ring == Ring(["127.0.0.1:8001"]) and a.held == frozenset()
        codes = _codes(400)
        assert all(a.owns(c) for c in codes)
        b = BotShards(client, S, ttl=5, holder="b", address="127.0.0.1:8002")
        await _rounds(b, a)
        ring = Ring(["127.0.0.1:8001", "127.0.0.1:8002"])
        assert a.ring == b.ring == ring and a.members == b.members == 2
        for c in codes:
            assert a.owns(c) == (ring.server(c) == "127.0.0.1:8001") != b.owns(c)
        assert min(sum(m.owns(c) for c in codes) for m in (a, b)) > 120  # both play
        assert all([await client.get(shard_key(k)) is None for k in range(S)])  # no lease taken
        assert await client.hgetall(ADDRESSES_KEY) == {b"a": b"127.0.0.1:8001", b"b": b"127.0.0.1:8002"}
        await client.aclose()

    asyncio.run(main())


def test_a_backend_without_an_address_puts_every_backend_on_the_leases_and_no_table_waits(
    redis_url: str,
) -> None:
    """A mix (an old backend, one started without ``PIFECACHETA_PROXY_ADDRESS``): everyone
    shares the shard leases as before. Members switch mode at their own rounds; after any
    one member's round at most a table is played twice (fenced by the version guard), and
    once each member has had its round every table is played again."""

    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        codes = _codes(300)
        a = BotShards(client, S, ttl=5, holder="a", address="127.0.0.1:8001")
        b = BotShards(client, S, ttl=5, holder="b", address="127.0.0.1:8002")
        await _rounds(a, b, times=2)
        assert a.ring is not None and _covered([a, b], codes)
        c = BotShards(client, S, ttl=5, holder="c")  # no address
        await c.round()
        assert c.ring is None and c.held  # it takes free shards (all are free) up to its share
        assert _covered([a, b, c], codes)  # a and b still on their ring until their round
        await a.round()
        assert a.ring is None
        await b.round()
        assert b.ring is None and _covered([a, b, c], codes)  # every member had its round
        await _rounds(c, a, b)  # the shares settle
        held = [m.held for m in (a, b, c)]
        assert frozenset().union(*held) == frozenset(range(S)) and sum(map(len, held)) == S
        assert all(sum(m.owns(x) for m in (a, b, c)) == 1 for x in codes)
        await c.leave()  # the one without an address stops: back to the ring
        order = [a, b]
        for m in order:
            await m.round()
        assert a.ring == b.ring == Ring(["127.0.0.1:8001", "127.0.0.1:8002"])
        assert _covered([a, b], codes) and all(a.owns(x) != b.owns(x) for x in codes)
        assert all([await client.get(shard_key(k)) is None for k in range(S)])
        await client.aclose()

    asyncio.run(main())


def test_a_killed_backends_tables_go_where_nginx_fails_over_to(redis_url: str) -> None:
    """Three backends on the ring; one stops renewing (SIGKILL): after the TTL and a round the
    survivors' ring is the ring without it, its tables spread over both (nginx's next points),
    the others' tables stay where they were."""

    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        names = ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]
        a, b, c = (
            BotShards(client, S, ttl=TTL, holder=h, address=n) for h, n in zip("abc", names, strict=True)
        )
        await _rounds(a, b, c, times=2)
        codes = _codes(300)
        before = {x: next(m.address for m in (a, b, c) if m.owns(x)) for x in codes}
        loop = asyncio.get_running_loop()
        killed = loop.time()  # c stops here, without leave()
        while not (a.members == b.members == 2):
            assert loop.time() - killed < TTL + TTL / 3 + 2.0, (a.members, b.members)  # a loaded machine
            await asyncio.sleep(TTL / 3)
            await _rounds(a, b, times=1)
        live = Ring(names).without([names[2]])
        assert a.ring == b.ring == live
        after = {x: next(m.address for m in (a, b) if m.owns(x)) for x in codes}
        assert all(after[x] == live.server(x) for x in codes)
        assert all(after[x] == before[x] for x in codes if before[x] != names[2])
        assert {after[x] for x in codes if before[x] == names[2]} == set(names[:2])
        assert all(sum(m.owns(x) for m in (a, b)) == 1 for x in codes)
        assert await client.hkeys(ADDRESSES_KEY) in ([b"a", b"b"], [b"b", b"a"])  # c's address dropped
        await client.aclose()

    asyncio.run(main())


def test_proxy_address_comes_from_the_environment() -> None:
    assert proxy_address_from_env({"PIFECACHETA_PROXY_ADDRESS": "127.0.0.1:8001"}) == "127.0.0.1:8001"
    assert proxy_address_from_env({"PIFECACHETA_PROXY_ADDRESS": "  "}) == ""
