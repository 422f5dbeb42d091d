"""The cluster's lease (``live/lease.py``) against a real ``redis-server``: one holder at a
time, a lapsed lease is taken over, a stale holder can neither renew nor release it, and
``hold_and_run`` runs its job only while its lease is held."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from pifecacheta.live.lease import LEASE_KEY, Lease, hold_and_run


def test_one_holder_then_takeover_after_the_lease_lapses(redis_url: str) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        a = Lease(client, ttl=0.4, holder="a")
        b = Lease(client, ttl=0.4, holder="b")
        assert await a.acquire() and not await b.acquire()
        assert await a.current() == "a"
        assert await a.acquire()  # taking it again while holding it renews it
        for _ in range(4):  # renewed every 0.2 s, it outlives its ttl
            await asyncio.sleep(0.2)
            assert await a.renew() and not await b.acquire()
        await asyncio.sleep(0.5)  # a stops renewing (it died, or paused): the lease lapses
        assert await b.acquire() and await b.current() == "b"
        assert not await a.renew()  # the stale holder's renew fails ...
        await a.release()  # ... and its release leaves b's lease alone
        assert await b.current() == "b"
        await b.release()
        assert await b.current() is None
        await client.aclose()

    asyncio.run(main())


def test_hold_and_run_runs_the_job_in_one_holder_and_moves_it_when_the_holder_goes(redis_url: str) -> None:
    running: dict[str, bool] = {"a": False, "b": False}
    at_once: list[int] = []

    def job_of(name: str):  # noqa: ANN202
        async def job() -> None:
            running[name] = True
            try:
                while True:
                    at_once.append(sum(running.values()))
                    await asyncio.sleep(0.02)
            finally:
                running[name] = False

        return job

    async def until(check, timeout: float = 5.0) -> None:  # noqa: ANN001
        deadline = asyncio.get_running_loop().time() + timeout
        while not check():
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.02)

    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url)
        a = asyncio.create_task(hold_and_run(Lease(client, ttl=0.6, holder="a"), job_of("a")))
        await until(lambda: running["a"])
        b = asyncio.create_task(hold_and_run(Lease(client, ttl=0.6, holder="b"), job_of("b")))
        await asyncio.sleep(1.5)  # several rounds of renewals: b never starts
        assert running == {"a": True, "b": False}
        a.cancel()  # a stops: its job is cancelled, its lease released
        await asyncio.gather(a, return_exceptions=True)
        assert not running["a"]
        await until(lambda: running["b"])
        # someone else takes the lease from b (b's key deleted, another holder set): b's
        # next renewal fails and its job stops
        await client.set(LEASE_KEY, "intruder", px=60_000)
        await until(lambda: not running["b"])
        await asyncio.sleep(0.5)
        assert not running["b"] and await client.get(LEASE_KEY) == b"intruder"
        b.cancel()
        await asyncio.gather(b, return_exceptions=True)
        assert await client.get(LEASE_KEY) == b"intruder"  # b's release did not delete it
        await client.aclose()

    asyncio.run(main())
    assert max(at_once) == 1  # never two jobs at once


def test_hold_and_run_stops_the_job_when_redis_is_unreachable(redis_url: str) -> None:
    """A holder that cannot renew cannot know whether its lease stands: it stops its job."""
    running = asyncio.Event()
    stopped = asyncio.Event()

    async def job() -> None:
        running.set()
        try:
            await asyncio.Event().wait()
        finally:
            stopped.set()

    async def main() -> None:
        client = aioredis.Redis.from_url(redis_url, socket_timeout=0.5)
        lease = Lease(client, ttl=0.6, holder="a")
        task = asyncio.create_task(hold_and_run(lease, job))
        await asyncio.wait_for(running.wait(), 5)
        admin = aioredis.Redis.from_url(redis_url)
        await admin.client_pause(3000)  # Redis answers nobody for 3 s: the renewal times out
        await asyncio.wait_for(stopped.wait(), 2.5)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await admin.aclose()
        await client.aclose()

    asyncio.run(main())
