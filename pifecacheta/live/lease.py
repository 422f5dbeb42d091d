"""One holder per cluster: a lease in Redis, and a job that runs only while it is held.

The bots and the sweeper must run in ONE process of a cluster. :class:`Lease` is a Redis key
(``pifecacheta:lease:sweeper``) set with ``SET key <holder> NX PX <ttl>`` and renewed every
``ttl / 3`` by its holder; renewing and releasing check the stored value is still this
holder's (redis-py's :class:`redis.asyncio.lock.Lock`, whose Lua scripts compare the token).
When the holder dies its key lapses after ``ttl`` and another process takes it over.

:func:`hold_and_run` is the loop a lifespan task runs: it tries to take the lease every
``ttl / 3`` seconds, starts the job (the sweeper) once it holds it, and cancels the job as
soon as a renewal fails - the lease taken by another holder, or Redis unreachable (then this
process cannot know whether its lease still stands, so it stops before the key could lapse).

A lease does not fence writes by itself: a paused holder may wake and write after its lease
went to another process. Every bot move and sweep is a version-guarded write
(``TableService.bot_step``/``sweep``), so such a late write is refused and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.lock import Lock
from redis.exceptions import LockError, RedisError

log = logging.getLogger(__name__)

LEASE_KEY = "pifecacheta:lease:sweeper"
DEFAULT_TTL = 5.0  # seconds; a dead holder's bots resume within about this long


def lease_ttl_from_env(env: Mapping[str, str] | None = None) -> float:
    """``PIFECACHETA_LEASE_TTL`` of ``env`` (default ``os.environ``) in seconds: default 5;
    a value below 0.3 or one that does not parse gives the default.

    >>> lease_ttl_from_env({}), lease_ttl_from_env({"PIFECACHETA_LEASE_TTL": "2"})
    (5.0, 2.0)
    """
    text = (os.environ if env is None else env).get("PIFECACHETA_LEASE_TTL", "")
    try:
        ttl = float(text) if text else DEFAULT_TTL
    except ValueError:
        return DEFAULT_TTL
    return ttl if ttl >= 0.3 else DEFAULT_TTL


def holder_name() -> str:
    """A name for this process as a lease holder: ``<host>:<pid>:<random>`` (unique)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Lease:
    """A lease on the Redis key ``key``, held by at most one :class:`Lease` at a time.

    Args:
        client: an async Redis client.
        key: the Redis key (all processes of a cluster use the same).
        ttl: seconds the lease lasts after each take or renewal.
        holder: this holder's value in the key (default :func:`holder_name`).
    """

    def __init__(
        self, client: aioredis.Redis, key: str = LEASE_KEY, *, ttl: float = DEFAULT_TTL, holder: str = ""
    ) -> None:
        self.client = client
        self.key = key
        self.ttl = ttl
        self.holder = holder or holder_name()
        self._lock = Lock(client, key, timeout=ttl, thread_local=False, raise_on_release_error=False)

    async def acquire(self) -> bool:
        """Take the lease if nobody holds it (``SET NX PX``), or renew it if this holder still
        does; True when this holder holds it now. Raises ``RedisError`` when unreachable."""
        if await self._lock.acquire(blocking=False, token=self.holder):
            return True
        if await self.current() == self.holder:  # ours from before a failed renewal
            self._lock.local.token = self.holder.encode()
            return await self.renew()
        return False

    async def renew(self) -> bool:
        """Reset the lease's time to ``ttl`` if this holder still holds it (a token-checked
        script): False when it lapsed or another holder has it. Raises ``RedisError``."""
        try:
            return bool(await self._lock.reacquire())
        except LockError:  # LockNotOwnedError too: not (or no longer) ours
            return False

    async def release(self) -> None:
        """Give the lease up if this holder still holds it (nothing otherwise)."""
        try:
            await self._lock.release()
        except LockError:
            pass

    async def current(self) -> str | None:
        """The holder stored in the key now, or None when nobody holds the lease."""
        raw = await self.client.get(self.key)
        return raw.decode() if isinstance(raw, bytes) else raw


async def hold_and_run(
    lease: Lease,
    job: Callable[[], Coroutine[Any, Any, None]],
    *,
    every: float | None = None,
    on_change: Callable[[bool], None] | None = None,
) -> None:
    """Run ``job()`` in this process only while it holds ``lease``; loop until cancelled.

    Every ``every`` seconds (default ``lease.ttl / 3``): take or renew the lease. On taking it
    ``job()`` starts as a task; when a renewal fails (lost, or Redis unreachable) the job is
    cancelled at once. A job that ends by itself while the lease is held is started again at
    the next round. ``on_change(held)`` is called at each start and stop. On cancellation the
    job is cancelled and the lease released.
    """
    every = lease.ttl / 3 if every is None else every
    task: asyncio.Task[None] | None = None

    async def stop(reason: str) -> None:
        nonlocal task
        if task is None:
            return
        log.warning("lease %s: %s; stopping the job", lease.key, reason)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        task = None
        if on_change is not None:
            on_change(False)

    try:
        while True:
            try:
                held = await (lease.renew() if task is not None else lease.acquire())
            except (RedisError, OSError) as exc:
                held = False
                if task is not None:
                    await stop(f"Redis unreachable ({exc!r})")
            else:
                if not held and task is not None:
                    await stop("held by another process now")
            if held and (task is None or task.done()):
                if task is not None and task.done() and not task.cancelled() and task.exception():
                    log.error(
                        "lease %s: the job failed; starting it again", lease.key, exc_info=task.exception()
                    )
                log.info("lease %s: held by %s; starting the job", lease.key, lease.holder)
                task = asyncio.create_task(job())
                if on_change is not None:
                    on_change(True)
            await asyncio.sleep(every)
    finally:
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        try:
            await asyncio.shield(lease.release())
        except (RedisError, OSError):
            pass
