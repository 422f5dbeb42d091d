"""A flood of events from one tab is slowed down: a token bucket per tab (Reflex middleware).

A person's clicks come a few a second at most; a script sending events as fast as it can
(thousands a second) would hold the tab's state lock and the event loop for everyone. Each
tab (Reflex client token) gets a bucket of :data:`BURST` events refilled at :data:`RATE` per
second; an event beyond it is dropped before its handler runs (nothing changes, the tab is
sent nothing for it), and the first drop of each :data:`LOG_EVERY` seconds is logged as one
warning line. A page's own load and reconnect (``hydrate``, the on_load events) are never
dropped. Even dropped, each event costs the server its parsing and the tab's state lock (at
thousands a second, a core); a tab that keeps flooding, :data:`CUT_OFF` events dropped within
one :data:`LOG_EVERY` window, has its socket closed by the server (one more warning line). A
Reflex page does not reconnect after the server closed it, and a script that reconnects meets
the per-address connection limit (``connlimit.py``).

``Middleware`` and ``StateUpdate`` are Reflex's public middleware API (``rx.App.add_middleware``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from reflex.middleware.middleware import Middleware
from reflex.state import StateUpdate

log = logging.getLogger(__name__)

RATE = 50.0  # events per second a tab may keep sending (a page also sends some by itself)
BURST = 200  # events a tab may send at once (a quick turn, a reconnect, a burst of pushes)
LOG_EVERY = 60.0  # seconds between two warnings about one tab
CUT_OFF = 3000  # events of one tab dropped within LOG_EVERY after which its socket is closed
TABS_KEPT = 20_000  # buckets kept (least recently used dropped: a new bucket is a full one)
# a page's load and reconnect: never dropped
EXEMPT_SUFFIXES = (
    ".hydrate",
    ".hydrate_and_load",
    ".on_load_internal",
    ".set_is_hydrated",
    ".update_vars_internal",
)


class TokenBuckets:
    """Token buckets by key: :meth:`take` answers whether one more event of ``key`` is allowed
    now (``RATE`` per second, up to ``BURST`` at once). Thread-safe; ``clock`` in seconds."""

    def __init__(
        self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, float(burst), clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        """Spend one token of ``key``; False (nothing spent) when its bucket is empty."""
        now = self.clock()
        with self._lock:
            tokens, at = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            allowed = tokens >= 1.0 - 1e-9  # a whole token, give or take float rounding
            self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
            while len(self._buckets) > TABS_KEPT:
                self._buckets.popitem(last=False)
        return allowed


class FloodGuard(Middleware):
    """Drops a tab's events beyond its :class:`TokenBuckets` share (see the module docstring)."""

    def __init__(self, buckets: TokenBuckets | None = None) -> None:
        self.buckets = buckets or TokenBuckets()
        self._warned: dict[str, float] = {}
        self._dropped: dict[str, tuple[float, int]] = {}  # token -> (window start, drops in it)
        self._closing: set[asyncio.Task[None]] = set()
        self.cut_off = 0  # sockets closed so far

    async def preprocess(self, app: Any, state: Any, event: Any) -> StateUpdate | None:
        """An empty update (the event is not processed) for an event over the tab's share;
        None (processed as usual) otherwise."""
        name = str(getattr(event, "name", ""))
        if name.endswith(EXEMPT_SUFFIXES):
            return None
        session = getattr(getattr(state, "router", None), "session", None)
        token = str(getattr(session, "client_token", "") or "")
        if not token or self.buckets.take(token):
            return None
        now = self.buckets.clock()
        if now - self._warned.get(token, -LOG_EVERY) >= LOG_EVERY:
            if len(self._warned) > TABS_KEPT:
                self._warned.clear()
            self._warned[token] = now
            log.warning(
                "tab %s sends events faster than %g/s: dropping the excess", token[:12], self.buckets.rate
            )
        start, drops = self._dropped.get(token, (now, 0))
        if now - start >= LOG_EVERY:
            start, drops = now, 0
        if len(self._dropped) > TABS_KEPT:
            self._dropped.clear()
        self._dropped[token] = (start, drops + 1)
        if drops + 1 == CUT_OFF:
            self._close(app, session, token)
        return StateUpdate()

    def _close(self, app: Any, session: Any, token: str) -> None:
        """Close the tab's socket (``app.sio``, the app's socket.io server), after this event:
        the state lock it holds is released first."""
        sid, sio = str(getattr(session, "session_id", "") or ""), getattr(app, "sio", None)
        if not sid or sio is None:
            return
        self.cut_off += 1
        log.warning("tab %s kept flooding (%d events dropped): closing its connection", token[:12], CUT_OFF)
        from reflex.config import get_config

        task = asyncio.get_running_loop().create_task(
            sio.disconnect(sid, namespace=get_config().get_event_namespace())
        )
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
