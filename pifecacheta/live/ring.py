"""nginx's ``hash <key> consistent`` in Python: which backend nginx sends a table's tabs to.

A replica of nginx's consistent hashing (``src/http/modules/ngx_http_upstream_hash_module.c``,
read at nginx commit 3f6f782, the same algorithm as Debian's nginx 1.22), so a backend can
compute, for a table code, the upstream server the cluster's proxy (``proxy_conf.py``:
``hash $pc_route consistent`` on the ``pc_table`` cookie) routes that table's websockets to:

* the ring (``ngx_http_upstream_update_chash``, called by ``ngx_http_upstream_init_chash``):
  for each server, its name as written in the ``server`` line (``peer->server`` is
  ``server[i].name`` = ``u.url`` = the config's text, e.g. ``127.0.0.1:8001``) is split at
  its last ``:`` when only digits follow (``unix:`` names: no port); ``base`` = CRC-32 of
  ``host + b"\\0" + port``; then ``160 * weight`` points, point ``j``'s hash = the CRC-32
  continued from ``base`` over the previous point's hash as 4 little-endian bytes (0 for the
  first). The points are sorted by hash; points with equal hashes are merged (nginx keeps one
  of them, the order ``qsort`` left: a collision among a cluster's few hundred points is a
  ~1e-5 event, where this replica keeps the first server in config order);
* a key (``ngx_http_upstream_init_chash_peer``): ``ngx_crc32_long(key)``, the first point
  whose hash is >= it (``ngx_http_upstream_find_chash_point``), wrapping to point 0 past the
  last (``point[hp->hash % points->number]``);
* a server that is down or failed (``ngx_http_upstream_get_chash_peer``): nginx goes on to the
  next point, and the next, up to 20 tries, then falls back to round robin. The ring over the
  live servers only (:meth:`Ring.without`) gives the same server as long as the key's run of
  consecutive dead servers' points is shorter than 20 (with 1 of 2 servers dead: 2^-20 odds).

nginx with a single server does not hash at all (``peers->single``): that one server.
"""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Iterable, Sequence

POINTS_PER_WEIGHT = 160  # ngx_http_upstream_update_chash: npoints = peer->weight * 160


def split_server(name: str) -> tuple[bytes, bytes]:
    """``(host, port)`` of a ``server`` name as nginx splits it for the ring: at the last
    ``:`` if only digits follow it (``unix:/path``: the path, no port; no such ``:``: the
    whole name, no port).

    >>> split_server("127.0.0.1:8001"), split_server("unix:/tmp/b.sock"), split_server("backend")
    ((b'127.0.0.1', b'8001'), (b'/tmp/b.sock', b''), (b'backend', b''))
    >>> split_server("[::1]:8001")
    (b'[::1]', b'8001')
    """
    data = name.encode()
    if data[:5].lower() == b"unix:":
        return data[5:], b""
    for j in range(len(data)):
        c = data[len(data) - j - 1]
        if c == ord(":"):
            return data[: len(data) - j - 1], data[len(data) - j :]
        if not ord("0") <= c <= ord("9"):
            break
    return data, b""


def server_points(name: str, weight: int = 1) -> list[int]:
    """The ``160 * weight`` ring points (unsigned 32-bit hashes) of server ``name``, in the
    order nginx makes them.

    >>> pts = server_points("127.0.0.1:8001")
    >>> len(pts), pts[0] == zlib.crc32(bytes(4), zlib.crc32(b"127.0.0.1\\x008001"))
    (160, True)
    """
    host, port = split_server(name)
    base = zlib.crc32(host + b"\0" + port)
    out: list[int] = []
    prev = 0
    for _ in range(POINTS_PER_WEIGHT * weight):
        prev = zlib.crc32(prev.to_bytes(4, "little"), base)
        out.append(prev)
    return out


def key_hash(key: str) -> int:
    """nginx's hash of a key (``ngx_crc32_long``): the CRC-32 of its UTF-8 bytes."""
    return zlib.crc32(key.encode())


class Ring:
    """The consistent-hash ring of ``servers`` (names as in nginx's ``server`` lines, in
    config order; a name given twice counts once), each of weight 1 (what ``proxy_conf.py``
    writes). Immutable once built: :meth:`server` is safe from any thread.

    >>> r = Ring(["127.0.0.1:8001", "127.0.0.1:8002"])
    >>> r.server("ABC123") in r.servers, r.server("ABC123") == r.server("ABC123")
    (True, True)
    >>> Ring(["127.0.0.1:8001"]).server("x"), Ring([]).server("x")
    ('127.0.0.1:8001', None)
    """

    def __init__(self, servers: Iterable[str]) -> None:
        self.servers: tuple[str, ...] = tuple(dict.fromkeys(servers))
        merged: dict[int, str] = {}
        for name in self.servers:
            for h in server_points(name):
                merged.setdefault(h, name)
        self._hashes: list[int] = sorted(merged)
        self._names: list[str] = [merged[h] for h in self._hashes]

    def server(self, key: str) -> str | None:
        """The server nginx picks for ``key`` when all of :attr:`servers` are up (None: no
        server). Cost: one CRC-32 of ``key`` and one bisect over ``160 * len(servers)``."""
        if not self._hashes:
            return None
        if len(self.servers) == 1:
            return self.servers[0]
        i = bisect.bisect_left(self._hashes, key_hash(key))
        return self._names[i % len(self._hashes)]

    def without(self, down: Sequence[str]) -> Ring:
        """The ring of the servers not in ``down``: what nginx picks while those are down or
        failed (see the module's note on its 20 tries)."""
        return Ring(s for s in self.servers if s not in set(down))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ring) and self.servers == other.servers

    def __hash__(self) -> int:
        return hash(self.servers)

    def __repr__(self) -> str:
        return f"Ring({list(self.servers)!r})"
