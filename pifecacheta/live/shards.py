"""The bots of a cluster shared by its backends: S shards, one Redis lease each.

A table belongs to bot shard :func:`shard_of` ``(code, S)`` = ``crc32(code) % S`` (stable
across processes and runs, unlike Python's salted ``hash``); ``S`` is
``PIFECACHETA_BOT_SHARDS`` (:func:`bot_shards_from_env`, default 16) and must be the same in
every backend of a cluster. Shard ``k`` is held through the Redis key
``pifecacheta:lease:bots:<k>`` (:func:`shard_key`), a lease as in ``live/lease.py``: set with
``SET key <holder> NX PX <ttl>``, renewed and released only while it still holds this
holder's value. Only the holder of a table's shard plays that table's bots.

Each backend announces itself in the sorted set ``pifecacheta:bots:members`` (score: the
Redis clock, in ms, of its last round; members silent for ``ttl`` are dropped) and aims at
its fair share ``ceil(S / live members)``. One round (:meth:`BotShards.round`, one Lua script,
so atomic and one round trip) renews the shards it holds up to its share, releases those
beyond it (the other backends take them at their next round) and takes free shards up to it.
Each member prefers the shards from ``rank * S // members`` on (its rank among the members'
names), so two backends settle on halves without fighting over the same keys. A backend
killed with SIGKILL stops renewing: its leases and its member entry lapse after ``ttl``, and
the survivors' next round shares its shards out. Since the shares add up to at least S, a
free shard is taken by someone at the next round.

A lease does not fence writes: a paused holder may still play a bot after its shard went to
another backend. Every bot move is a version-guarded write (``TableService.bot_step``), so
the late one is refused and changes nothing.

The moves each backend played are counted in the hash ``pifecacheta:bots:moves`` (holder ->
moves), and the shards it holds in ``pifecacheta:bots:held`` (holder -> count), for the
benchmarks' notes.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import threading
import zlib
from collections.abc import Callable, Mapping

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from pifecacheta.live.lease import DEFAULT_TTL, holder_name

log = logging.getLogger(__name__)

DEFAULT_SHARDS = 16
MAX_SHARDS = 1024
MEMBERS_KEY = "pifecacheta:bots:members"
MOVES_KEY = "pifecacheta:bots:moves"
HELD_KEY = "pifecacheta:bots:held"
SHARD_KEY_PREFIX = "pifecacheta:lease:bots:"


def shard_of(code: str, shards: int) -> int:
    """The bot shard of table ``code`` among ``shards``: ``crc32(code) % shards``, the same in
    every process (an integer in ``range(shards)``).

    >>> shard_of("ABC123", 16), shard_of("ABC123", 16) == shard_of("ABC123", 16), shard_of("X", 1)
    (0, True, 0)
    """
    return zlib.crc32(code.encode()) % shards


def shard_key(k: int) -> str:
    """The Redis key of bot shard ``k``'s lease.

    >>> shard_key(3)
    'pifecacheta:lease:bots:3'
    """
    return f"{SHARD_KEY_PREFIX}{k}"


def bot_shards_from_env(env: Mapping[str, str] | None = None) -> int:
    """``PIFECACHETA_BOT_SHARDS`` of ``env`` (default ``os.environ``): how many bot shards the
    cluster's tables are split into; default 16, a value that does not parse or lies outside
    1..1024 gives the default.

    >>> bot_shards_from_env({}), bot_shards_from_env({"PIFECACHETA_BOT_SHARDS": "4"})
    (16, 4)
    >>> bot_shards_from_env({"PIFECACHETA_BOT_SHARDS": "0"})
    16
    """
    text = (os.environ if env is None else env).get("PIFECACHETA_BOT_SHARDS", "")
    try:
        n = int(text) if text else DEFAULT_SHARDS
    except ValueError:
        return DEFAULT_SHARDS
    return n if 1 <= n <= MAX_SHARDS else DEFAULT_SHARDS


def fair_share(shards: int, members: int) -> int:
    """How many of ``shards`` one of ``members`` live backends aims to hold: ``ceil(S / n)``.

    >>> fair_share(16, 1), fair_share(16, 2), fair_share(16, 3)
    (16, 8, 6)
    """
    return math.ceil(shards / max(1, members))


# KEYS[1]: the members' sorted set, KEYS[2], KEYS[3], ...: the shards' lease keys (shard 0 first).
# ARGV: holder, ttl (ms). Returns {live members, shard held, shard held, ...}.
_ROUND = """
local token, ttl = ARGV[1], tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('ZADD', KEYS[1], now, token)
redis.call('PEXPIRE', KEYS[1], ttl * 4)
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
table.sort(members)
local n, rank = #members, 0
for i, m in ipairs(members) do
  if m == token then rank = i - 1 end
end
local s = #KEYS - 1
local share = math.ceil(s / n)
local start = math.floor(rank * s / n)
local out, count = {n}, 0
for j = 0, s - 1 do
  local k = (start + j) % s
  local key = KEYS[k + 2]
  if redis.call('GET', key) == token then
    if count < share then
      redis.call('PEXPIRE', key, ttl)
      count = count + 1
      out[#out + 1] = k
    else
      redis.call('DEL', key)
    end
  end
end
for j = 0, s - 1 do
  if count >= share then break end
  local k = (start + j) % s
  if redis.call('SET', KEYS[k + 2], token, 'NX', 'PX', ttl) then
    count = count + 1
    out[#out + 1] = k
  end
end
return out
"""

# KEYS as for _ROUND; ARGV: holder. Gives up every shard still held by it and leaves the members.
_LEAVE = """
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
redis.call('ZREM', KEYS[1], ARGV[1])
return 0
"""


class BotShards:
    """This backend's part of the bot shards: which it holds, and the rounds that keep them.

    Args:
        client: an async Redis client (the cluster's Redis).
        shards: S, the number of bot shards (the same in every backend).
        ttl: seconds a shard lease and a member entry last after each round.
        holder: this backend's name in the keys (default :func:`~.lease.holder_name`).

    Attributes:
        held: the shards this backend holds now (a frozenset, replaced as a whole: safe to
            read from any thread).
        members: the live members seen at the last round (0 before the first).
    """

    def __init__(
        self, client: aioredis.Redis, shards: int, *, ttl: float = DEFAULT_TTL, holder: str = ""
    ) -> None:
        self.client = client
        self.shards = max(1, shards)
        self.ttl = ttl
        self.holder = holder or holder_name()
        self.held: frozenset[int] = frozenset()
        self.members = 0
        self._keys = [MEMBERS_KEY, *(shard_key(k) for k in range(self.shards))]
        self._round = client.register_script(_ROUND)
        self._leave = client.register_script(_LEAVE)
        self._moves = 0
        self._moves_lock = threading.Lock()

    def owns(self, code: str) -> bool:
        """True when this backend holds table ``code``'s shard (it plays that table's bots)."""
        return shard_of(code, self.shards) in self.held

    def count_move(self, code: str = "") -> None:
        """Count one bot move played here (thread-safe); added to ``pifecacheta:bots:moves``
        at the next round."""
        with self._moves_lock:
            self._moves += 1

    async def round(self) -> frozenset[int]:
        """Announce this backend, renew its shards up to its fair share, give up the ones
        beyond it, take free ones up to it; returns (and stores in ``held``) the shards held
        now. Raises ``RedisError``/``OSError`` when Redis is unreachable (``held`` unchanged:
        the caller decides)."""
        ttl_ms = max(1, int(self.ttl * 1000))
        out = await self._round(keys=self._keys, args=[self.holder, ttl_ms])
        self.members = int(out[0])
        self.held = frozenset(int(k) for k in out[1:])
        with self._moves_lock:
            moves, self._moves = self._moves, 0
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                if moves:
                    pipe.hincrby(MOVES_KEY, self.holder, moves)
                pipe.hset(HELD_KEY, self.holder, str(len(self.held)))
                await pipe.execute()
        except (RedisError, OSError):
            with self._moves_lock:
                self._moves += moves
        return self.held

    async def leave(self) -> None:
        """Give up every shard this backend still holds and leave the members (a clean stop:
        the others take its shards at their next round, without waiting for the TTL)."""
        self.held = frozenset()
        await self._leave(keys=self._keys, args=[self.holder])
        async with self.client.pipeline(transaction=False) as pipe:  # typed as awaitable, unlike hdel
            pipe.hdel(HELD_KEY, self.holder)
            await pipe.execute()


async def keep_shards(
    shards: BotShards,
    *,
    every: float | None = None,
    on_change: Callable[[frozenset[int]], None] | None = None,
) -> None:
    """Run :meth:`BotShards.round` every ``every`` seconds (default ``ttl / 3``) until
    cancelled; ``on_change(held)`` after each round that changed the held set. When Redis is
    unreachable this backend cannot know whether its leases still stand: it drops them all at
    once (held empty) and tries again at the next round. On cancellation it leaves
    (:meth:`BotShards.leave`)."""
    every = shards.ttl / 3 if every is None else every
    try:
        while True:
            before = shards.held
            try:
                now = await shards.round()
            except (RedisError, OSError) as exc:
                if before:
                    log.warning("bot shards: Redis unreachable (%r); dropping %d shards", exc, len(before))
                shards.held = now = frozenset()
            if now != before:
                log.info(
                    "bot shards: %s holds %d of %d (%d live members)",
                    shards.holder,
                    len(now),
                    shards.shards,
                    shards.members,
                )
                if on_change is not None:
                    on_change(now)
            await asyncio.sleep(every)
    finally:
        try:
            await asyncio.shield(shards.leave())
        except (RedisError, OSError):
            pass
