"""The bots of a cluster shared by its backends: by nginx's ring, or by S shard leases.

**The ring (every live backend has a proxy address).** A backend started with
``PIFECACHETA_PROXY_ADDRESS`` (:func:`proxy_address_from_env`: its name in the proxy's
``server`` lines, e.g. ``127.0.0.1:8001``; ``scripts/cluster.sh`` sets it) announces that
address beside its member entry (the hash ``pifecacheta:bots:addresses``, member -> address).
When every live member has one, each backend plays the bots of exactly the tables that nginx's
consistent hash over the live members' addresses (``live/ring.py``, :class:`~.ring.Ring`)
maps to its own address: the backend nginx sends the table's tabs to (``proxy_conf.py``), so
a bot move is read, made and projected in the process that shows it, not relayed. It holds no
shard lease then. A backend killed with SIGKILL: its member entry lapses after ``ttl``, the
survivors' next round drops its address from their ring, and each of its tables goes to the
backend nginx now fails over to (nginx skips a dead server's points: the ring without them).

**The shard leases (otherwise: one backend without an address, an old backend, a mix).** A
table belongs to bot shard :func:`shard_of` ``(code, S)`` = ``crc32(code) % S`` (stable
across processes and runs, unlike Python's salted ``hash``); ``S`` is
``PIFECACHETA_BOT_SHARDS`` (:func:`bot_shards_from_env`, default 16) and must be the same in
every backend of a cluster. Shard ``k`` is held through the Redis key
``pifecacheta:lease:bots:<k>`` (:func:`shard_key`), a lease as in ``live/lease.py``: set with
``SET key <holder> NX PX <ttl>``, renewed and released only while it still holds this
holder's value. Only the holder of a table's shard plays that table's bots.

Each backend announces itself in the sorted set ``pifecacheta:bots:members`` (score: the
Redis clock, in ms, of its last round; members silent for ``ttl`` are dropped, and their
addresses with them) and, in lease mode, aims at its fair share ``ceil(S / live members)``.
One round (:meth:`BotShards.round`, one Lua script, so atomic and one round trip) decides the
mode from the live members it sees; in lease mode it renews the shards it holds up to its
share, releases those beyond it (the other backends take them at their next round) and takes
free shards up to it; in ring mode it releases every shard it holds. Each member prefers the
shards from ``rank * S // members`` on (its rank among the members' names), so two backends
settle on halves without fighting over the same keys. A backend killed with SIGKILL stops
renewing: its leases and its member entry lapse after ``ttl``, and the survivors' next round
shares its shards out. Since the shares add up to at least S, a free shard is taken by
someone at the next round.

**Switching modes.** The members see a join or a leave at their own next rounds (every
``ttl / 3``), so for up to one round some are in one mode and some in the other. A table is
then driven by two backends at worst (the version guard below refuses the second move), and
driven by none for at most one round: a backend that switches to leases takes its share of
free shards at once, and the ones still on the ring keep driving their ring tables until their
round switches them too (those in lease mode cover the shards they hold, and shards released
by ring-mode backends are free for the next lease round). A backend that joins the ring only
takes tables from the others (consistent hashing), who drop them at their next round.

A lease or a ring does not fence writes: a paused holder may still play a bot after its
table went to another backend. Every bot move is a version-guarded write
(``TableService.bot_step``), so the late one is refused and changes nothing.

The moves each backend played are counted in the hash ``pifecacheta:bots:moves`` (holder ->
moves), and the shards it holds in ``pifecacheta:bots:held`` (holder -> count; 0 on the
ring), for the benchmarks' notes.
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
from pifecacheta.live.ring import Ring

log = logging.getLogger(__name__)

DEFAULT_SHARDS = 16
MAX_SHARDS = 1024
MEMBERS_KEY = "pifecacheta:bots:members"
ADDRESSES_KEY = "pifecacheta:bots:addresses"
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


# KEYS[1]: the members' sorted set, KEYS[2]: the members' proxy addresses (hash), KEYS[3],
# KEYS[4], ...: the shards' lease keys (shard 0 first). ARGV: holder, ttl (ms), its proxy address
# ('' for none). Returns {live members, 1, address, address, ...} when every live member has an
# address (the ring: this holder's leases released), else {live members, 0, shard held, ...}.
_ROUND = """
local token, ttl, addr = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('ZADD', KEYS[1], now, token)
redis.call('PEXPIRE', KEYS[1], ttl * 4)
if addr ~= '' then
  redis.call('HSET', KEYS[2], token, addr)
else
  redis.call('HDEL', KEYS[2], token)
end
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
table.sort(members)
local live = {}
for _, m in ipairs(members) do live[m] = true end
for _, m in ipairs(redis.call('HKEYS', KEYS[2])) do
  if not live[m] then redis.call('HDEL', KEYS[2], m) end
end
redis.call('PEXPIRE', KEYS[2], ttl * 4)
local n, rank = #members, 0
local addrs = redis.call('HMGET', KEYS[2], unpack(members))
local ring = true
for i, m in ipairs(members) do
  if m == token then rank = i - 1 end
  if not addrs[i] then ring = false end
end
local s = #KEYS - 2
if ring then
  for k = 0, s - 1 do
    if redis.call('GET', KEYS[k + 3]) == token then redis.call('DEL', KEYS[k + 3]) end
  end
  local out = {n, 1}
  for _, a in ipairs(addrs) do out[#out + 1] = a end
  return out
end
local share = math.ceil(s / n)
local start = math.floor(rank * s / n)
local out, count = {n, 0}, 0
for j = 0, s - 1 do
  local k = (start + j) % s
  local key = KEYS[k + 3]
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
  if redis.call('SET', KEYS[k + 3], token, 'NX', 'PX', ttl) then
    count = count + 1
    out[#out + 1] = k
  end
end
return out
"""

# KEYS as for _ROUND; ARGV: holder. Gives up every shard still held by it and leaves the members.
_LEAVE = """
for i = 3, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 0
"""


def proxy_address_from_env(env: Mapping[str, str] | None = None) -> str:
    """``PIFECACHETA_PROXY_ADDRESS`` of ``env`` (default ``os.environ``), stripped: this
    backend's name in the proxy's ``server`` lines (e.g. ``127.0.0.1:8001``, exactly as
    ``proxy_conf.py`` wrote it), or ``""`` when it has none (then it takes shard leases).

    >>> proxy_address_from_env({"PIFECACHETA_PROXY_ADDRESS": " 127.0.0.1:8001 "}), proxy_address_from_env({})
    ('127.0.0.1:8001', '')
    """
    return (os.environ if env is None else env).get("PIFECACHETA_PROXY_ADDRESS", "").strip()


class BotShards:
    """This backend's part of the bots: the shards it holds or the ring it shares, and the
    rounds that keep them.

    Args:
        client: an async Redis client (the cluster's Redis).
        shards: S, the number of bot shards (the same in every backend).
        ttl: seconds a shard lease and a member entry last after each round.
        holder: this backend's name in the keys (default :func:`~.lease.holder_name`).
        address: this backend's name in the proxy's ``server`` lines (``""``: none; it then
            plays the tables of the shard leases it holds).

    Attributes:
        held: the shards this backend holds now (a frozenset, replaced as a whole: safe to
            read from any thread); empty while the ring decides.
        ring: the :class:`~.ring.Ring` of the live members' addresses when every live member
            has one (this backend plays the tables it maps to :attr:`address`), else None.
        members: the live members seen at the last round (0 before the first).
    """

    def __init__(
        self,
        client: aioredis.Redis,
        shards: int,
        *,
        ttl: float = DEFAULT_TTL,
        holder: str = "",
        address: str = "",
    ) -> None:
        self.client = client
        self.shards = max(1, shards)
        self.ttl = ttl
        self.holder = holder or holder_name()
        self.address = address
        self.held: frozenset[int] = frozenset()
        self.ring: Ring | None = None
        self.members = 0
        # what owns() reads, replaced as a whole (one attribute read: thread-safe)
        self._view: tuple[frozenset[int], Ring | None] = (frozenset(), None)
        self._keys = [MEMBERS_KEY, ADDRESSES_KEY, *(shard_key(k) for k in range(self.shards))]
        self._round = client.register_script(_ROUND)
        self._leave = client.register_script(_LEAVE)
        self._moves = 0
        self._moves_lock = threading.Lock()

    def owns(self, code: str) -> bool:
        """True when this backend plays table ``code``'s bots: the ring maps ``code`` to its
        address (ring mode), or it holds ``code``'s shard (lease mode). Any thread; one CRC-32
        and a bisect (ring) or a set lookup (leases)."""
        held, ring = self._view
        if ring is not None:
            return ring.server(code) == self.address
        return shard_of(code, self.shards) in held

    def drop(self) -> None:
        """Play no table's bots until the next good round (Redis unreachable)."""
        self.held, self.ring = frozenset(), None
        self._view = (self.held, None)

    def count_move(self, code: str = "") -> None:
        """Count one bot move played here (thread-safe); added to ``pifecacheta:bots:moves``
        at the next round."""
        with self._moves_lock:
            self._moves += 1

    async def round(self) -> frozenset[int]:
        """Announce this backend (and its address), then: when every live member has an
        address, give up any shard lease and share the tables by the ring of their addresses
        (``ring`` set, ``held`` empty); else renew its shards up to its fair share, give up the
        ones beyond it, take free ones up to it (``ring`` None). Returns (and stores in
        ``held``) the shards held now. Raises ``RedisError``/``OSError`` when Redis is
        unreachable (nothing changed: the caller decides)."""
        ttl_ms = max(1, int(self.ttl * 1000))
        out = await self._round(keys=self._keys, args=[self.holder, ttl_ms, self.address])
        self.members = int(out[0])
        if int(out[1]) == 1:
            named = [a.decode() if isinstance(a, bytes) else str(a) for a in out[2:]]
            addresses = sorted(set(named))
            if len(addresses) < len(named):  # both would drive the same tables (fenced, wasteful)
                log.warning("bot shards: two live backends give one proxy address: %s", sorted(named))
            ring = (
                self.ring
                if self.ring is not None and list(self.ring.servers) == addresses
                else Ring(addresses)
            )
            held: frozenset[int] = frozenset()
        else:
            ring, held = None, frozenset(int(k) for k in out[2:])
        self.held, self.ring = held, ring
        self._view = (held, ring)
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
        the others take its shards, or its part of the ring, at their next round, without
        waiting for the TTL)."""
        self.drop()
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
    cancelled; ``on_change(held)`` after each round that changed the held set or the ring.
    When Redis is unreachable this backend cannot know whether its leases (or the members
    behind its ring) still stand: it drops them all at once (:meth:`BotShards.drop`: it
    plays no table) and tries again at the next round. On cancellation it leaves
    (:meth:`BotShards.leave`)."""
    every = shards.ttl / 3 if every is None else every
    try:
        while True:
            before = (shards.held, shards.ring)
            try:
                await shards.round()
            except (RedisError, OSError) as exc:
                if before != (frozenset(), None):
                    log.warning(
                        "bot shards: Redis unreachable (%r); dropping %d shards / the ring",
                        exc,
                        len(before[0]),
                    )
                shards.drop()
            now = (shards.held, shards.ring)
            if now != before:
                if shards.ring is not None:
                    log.info(
                        "bot shards: %s plays the tables nginx routes to %s (ring of %s)",
                        shards.holder,
                        shards.address,
                        ", ".join(shards.ring.servers),
                    )
                else:
                    log.info(
                        "bot shards: %s holds %d of %d (%d live members)",
                        shards.holder,
                        len(shards.held),
                        shards.shards,
                        shards.members,
                    )
                if on_change is not None:
                    on_change(shards.held)
            await asyncio.sleep(every)
    finally:
        try:
            await asyncio.shield(shards.leave())
        except (RedisError, OSError):
            pass
