"""Connection churn from one address is slowed, then refused: a token bucket per client address.

Every new websocket (a socket.io session: a request to ``/_event`` without a ``sid``) costs the
server a handshake, a hydrate of the page's state and a new tab's state kept for later; a
script opening and closing connections in a loop would spend a core on it. Each client
address gets a bucket of :data:`BURST` new connections refilled at :data:`RATE` per second
(:class:`~pifecacheta.ratelimit.TokenBuckets`); an attempt beyond it is held :data:`HOLD`
seconds (so a loop of attempts is slowed to that pace at no cost to the server) and then
refused: a websocket handshake with HTTP 403 (the ASGI close before accept), a polling request
with HTTP 429. The first refusal of each :data:`LOG_EVERY` seconds of an address is logged as
one warning line. A person's pages never meet the limit: a reconnect after a server restart
is one connection per tab, and :data:`BURST` covers every tab of a household (or a class behind
one address) reconnecting at once.

The client address is the peer's, or, when the peer is a trusted proxy (on this machine, as
the cluster's nginx of ``scripts/cluster.sh``, or in ``PIFECACHETA_TRUSTED_PROXIES``), the
rightmost address of ``X-Forwarded-For`` that is not one. A client on this machine itself (no
such address: the developer's browser, the tests, the benches) is not limited.

``ChurnGuard`` wraps the backend's ASGI app through Reflex's public ``rx.App(api_transformer=)``.
Settings: ``PIFECACHETA_CONN_RATE`` and ``PIFECACHETA_CONN_BURST`` change :data:`RATE` and
:data:`BURST` (a number that does not parse keeps the default); ``PIFECACHETA_TRUSTED_PROXIES``
names the proxies on other machines, comma-separated addresses or networks (``10.0.0.5,
10.1.0.0/16``; an entry that does not parse is left out): without it, every player behind a
proxy on another machine would share the proxy's bucket.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os

from starlette.types import ASGIApp, Receive, Scope, Send

from pifecacheta.ratelimit import TABS_KEPT, TokenBuckets

log = logging.getLogger(__name__)

RATE = 2.0  # new connections per second an address may keep opening
BURST = 60  # new connections an address may open at once
HOLD = 1.0  # seconds a refused attempt waits for its answer
HELD_MAX = 256  # refused attempts waiting at once (beyond: answered at once)
LOG_EVERY = 60.0  # seconds between two warnings about one address
EVENT_PATH = "/_event"  # Reflex's socket.io endpoint (reflex_base.constants.Endpoint.EVENT)


Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def trusted_proxies(text: str | None = None) -> Networks:
    """The networks of ``PIFECACHETA_TRUSTED_PROXIES`` (or ``text``), comma-separated; an entry
    that does not parse is left out.

    >>> [str(n) for n in trusted_proxies("10.0.0.5, 10.1.0.0/16, nonsense")]
    ['10.0.0.5/32', '10.1.0.0/16']
    """
    text = os.environ.get("PIFECACHETA_TRUSTED_PROXIES", "") if text is None else text
    nets = []
    for entry in text.split(","):
        try:
            nets.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue
    return tuple(nets)


def _is_proxy(address: str, proxies: Networks) -> bool:
    """On this machine (loopback) or in ``proxies``; False for what is not an address."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return ip.is_loopback or any(ip in net for net in proxies)


def client_address(scope: Scope, proxies: Networks = ()) -> str | None:
    """The address an ASGI connection ``scope`` comes from (see the module docstring): the
    peer's; for a peer on this machine or in ``proxies``, the rightmost ``X-Forwarded-For``
    entry that is neither; None when there is none (a client on this machine)."""
    peer = (scope.get("client") or ("", 0))[0]
    if peer and not _is_proxy(peer, proxies):
        return str(peer)
    forwarded = b",".join(v for k, v in scope.get("headers") or [] if k.lower() == b"x-forwarded-for")
    for entry in reversed(forwarded.decode("latin-1").split(",")):
        if entry.strip() and not _is_proxy(entry, proxies):
            return entry.strip()[:64]
    return None


def opens_session(scope: Scope) -> bool:
    """True for a request that opens a new socket.io session: ``/_event`` (any prefix) with no
    ``sid`` in its query (a request with one belongs to a session already open)."""
    if scope.get("type") not in ("http", "websocket"):
        return False
    path = str(scope.get("path", "")).rstrip("/")
    query = bytes(scope.get("query_string", b"")).split(b"&")
    return path.endswith(EVENT_PATH) and not any(q.startswith(b"sid=") for q in query)


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


class ChurnGuard:
    """ASGI middleware: refuses a client address's new connections beyond its bucket's share
    (see the module docstring). ``refused`` counts the refusals so far."""

    def __init__(self, app: ASGIApp, buckets: TokenBuckets | None = None, hold: float = HOLD) -> None:
        self.app, self.hold = app, hold
        self.buckets = buckets or TokenBuckets(
            rate=_env_number("PIFECACHETA_CONN_RATE", RATE),
            burst=int(_env_number("PIFECACHETA_CONN_BURST", BURST)),
        )
        self.proxies = trusted_proxies()
        self.refused = 0
        self._held = 0
        self._warned: dict[str, tuple[float, int]] = {}  # address -> (last warning, refusals since)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or hold and refuse a new connection over its address's share."""
        address = client_address(scope, self.proxies) if opens_session(scope) else None
        if address is None or self.buckets.take(address):
            await self.app(scope, receive, send)
            return
        self.refused += 1
        self._warn(address)
        if self._held < HELD_MAX:
            self._held += 1
            try:
                await asyncio.sleep(self.hold)
            finally:
                self._held -= 1
        await _refuse(scope, receive, send)

    def _warn(self, address: str) -> None:
        now = self.buckets.clock()
        last, count = self._warned.get(address, (-LOG_EVERY, 0))
        if now - last < LOG_EVERY:
            self._warned[address] = (last, count + 1)
            return
        if len(self._warned) > TABS_KEPT:
            self._warned.clear()
        self._warned[address] = (now, 0)
        since = f" ({count} refused since the previous warning)" if count else ""
        log.warning(
            "address %s opens connections faster than %g/s (burst %d): refusing the excess%s",
            address,
            self.buckets.rate,
            int(self.buckets.burst),
            since,
        )


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    """Answer a refused request: HTTP 429 for polling, 403 (close before accept) for a websocket."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 1008, "reason": "too many connections"})
        return
    body = b"too many connections from this address"
    headers = [(b"content-type", b"text/plain"), (b"retry-after", b"1")]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
