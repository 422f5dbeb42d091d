"""The live feed of one backend process: an in-process registry and one push per tab.

:class:`Watchers` is the bookkeeping (which tab watches which table, each table's change
count); :class:`LocalFeed` tells a table's watching tabs of a change through the public
``app.modify_state(rx.BaseStateToken(...))`` of the Reflex app the lifespan task receives:
the push sets the tab's ``table_version`` to the new count, under that tab's own lock only,
and the resulting delta re-evaluates the tab's ``ui`` (sent only if it changed). A slow tab
delays nobody else, and a card click of one tab takes no lock of the others.

A tab stops being told when its socket is gone (:func:`socket_open`: the Socket.IO session
it watched from is no longer known to ``app.sio``), or when its state shows another table;
its page's on_load (run again by Reflex on every reconnect) makes it watch again.

Reflex's memory state manager drops a tab's state after ``REFLEX_REDIS_TOKEN_EXPIRATION``
seconds (1 h by default) with neither an event nor a ``modify_state`` of it, even while the tab
is connected; the next push would then find an empty state and stop watching, and a page left
open for a friend's next move (seed 000: a match is played over days) would stop updating.
:meth:`LocalFeed.keep_alive` therefore renews, every quarter of that time, the state of every
tab watching here whose socket is open (Reflex's public ``app.state_manager.get_state``, which
restarts the state's expiry).

Only tokens, socket ids (random, not secret from the server) and counts live here: no cards.
Without Redis one backend process serves the tables, so an in-process registry sees every
tab. With Redis (``live/redis_feed.py``) each process keeps this registry of its own tabs and
the counts come from Redis.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import reflex as rx

from pifecacheta.live.feed import Delivery, Tab

log = logging.getLogger(__name__)


class Watchers:
    """Thread-safe ``table code -> watching tabs`` and ``table code -> change count``.

    >>> w = Watchers()
    >>> w.watch("T1", Tab("tab-a")), w.watch("T1", Tab("tab-b"))
    (0, 0)
    >>> w.count("T1"), w.count("T1"), w.changes("T2")
    (1, 2, 0)
    >>> w.watch("T2", Tab("tab-b"))  # the tab went to another table
    0
    >>> w.tokens("T1"), w.tokens("T2")
    (['tab-a'], ['tab-b'])
    >>> w.unwatch("tab-a", "T1"); w.tokens("T1")
    []
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, set[str]] = {}  # code -> tokens
        self._tab_of: dict[str, tuple[str, Tab]] = {}  # token -> (code, tab)
        self._changes: dict[str, int] = {}  # code -> changes published

    def watch(self, code: str, tab: Tab) -> int:
        """``tab`` watches table ``code`` from now on; returns the table's change count."""
        with self._lock:
            old = self._tab_of.get(tab.token)
            if old is not None and old[0] != code:
                self._drop(tab.token, old[0])
            if tab.token:
                self._tab_of[tab.token] = (code, tab)
                self._tokens.setdefault(code, set()).add(tab.token)
            return self._changes.get(code, 0)

    def unwatch(self, token: str, code: str | None = None) -> None:
        """Tab ``token`` watches no table (only if it watches ``code``, when given)."""
        with self._lock:
            current = self._tab_of.get(token)
            if current is not None and (code is None or current[0] == code):
                self._drop(token, current[0])

    def _drop(self, token: str, code: str) -> None:
        self._tab_of.pop(token, None)
        left = self._tokens.get(code)
        if left is not None:
            left.discard(token)
            if not left:
                del self._tokens[code]

    def tokens(self, code: str) -> list[str]:
        """The tokens of the tabs watching table ``code`` (sorted, for a stable order)."""
        with self._lock:
            return sorted(self._tokens.get(code, ()))

    def codes(self) -> list[str]:
        """The codes of the tables watched by at least one tab (sorted)."""
        with self._lock:
            return sorted(self._tokens)

    def tabs(self, code: str) -> list[Tab]:
        """The tabs watching table ``code`` (sorted by token)."""
        with self._lock:
            return [self._tab_of[t][1] for t in sorted(self._tokens.get(code, ()))]

    def changes(self, code: str) -> int:
        """How many changes of table ``code`` were counted (0 before the first)."""
        with self._lock:
            return self._changes.get(code, 0)

    def count(self, code: str) -> int:
        """Count one change of table ``code``; returns the new count."""
        with self._lock:
            n = self._changes.get(code, 0) + 1
            self._changes[code] = n
            return n


class WatchingState(Protocol):
    """The two fields of a tab's state the push reads and sets (``TableState``). A state
    that also has ``async _hear(count)`` (``TableView._hear``) is told the count through it,
    and sets ``table_version`` itself; one with ``async _catch_up()`` runs it in
    :meth:`LocalFeed.refresh`."""

    table_code: str
    table_version: int


def socket_open(app: Any, socket: str) -> bool:
    """True while the Socket.IO session ``socket`` is connected to ``app``'s event namespace.

    Public API only: ``app.sio`` (the ``socketio.AsyncServer`` field of ``rx.App``),
    ``app.event_namespace.namespace`` and ``AsyncServer.get_environ(sid, namespace)``, which
    gives None once the session has disconnected. Checked against Reflex 0.10.1 with
    python-socketio 5.18.1 (tests/live/test_socket_open.py fails if that changes).
    """
    sio = getattr(app, "sio", None)
    namespace = getattr(getattr(app, "event_namespace", None), "namespace", None)
    if not socket or sio is None or namespace is None:
        return False
    return sio.get_environ(socket, namespace) is not None


class LocalFeed:
    """The :class:`~pifecacheta.live.feed.LiveFeed` of one process.

    Args:
        app: the Reflex app (``rx.App``: ``modify_state``, ``sio``); None counts and
            registers but pushes nothing (unit tests, a process without a running app).
        state_cls: the tab state class pushed to (``TableState``: ``table_code``,
            ``table_version``).
        is_open: ``is_open(socket)`` says whether a tab's socket is still connected
            (default: :func:`socket_open` on ``app``).
    """

    def __init__(
        self,
        app: Any = None,
        state_cls: type[Any] | None = None,
        *,
        is_open: Callable[[str], bool] | None = None,
    ) -> None:
        self.app = app
        self.state_cls = state_cls
        self.registry = Watchers()
        self._is_open = is_open if is_open is not None else (lambda socket: socket_open(self.app, socket))
        self._pushes: set[asyncio.Task[None]] = set()  # a reference keeps each running push alive

    def watch(self, code: str, tab: Tab) -> int:
        """See :meth:`LiveFeed.watch`."""
        return self.registry.watch(code, tab)

    def unwatch(self, token: str, code: str | None = None) -> None:
        """See :meth:`LiveFeed.unwatch`."""
        self.registry.unwatch(token, code)

    def watchers(self, code: str) -> list[str]:
        """See :meth:`LiveFeed.watchers`."""
        return self.registry.tokens(code)

    def changes(self, code: str) -> int:
        """See :meth:`LiveFeed.changes`."""
        return self.registry.changes(code)

    def publish(self, code: str, *, skip: str = "") -> Delivery:
        """See :meth:`LiveFeed.publish`: counts the change here, then :meth:`push_tabs`."""
        count = self.registry.count(code)
        return Delivery(count, self.push_tabs(code, count, skip=skip))

    async def apublish(self, code: str, *, skip: str = "") -> Delivery:
        """See :meth:`LiveFeed.apublish`: :meth:`publish` (nothing here blocks)."""
        return self.publish(code, skip=skip)

    async def apublish_many(self, codes: Sequence[str]) -> list[Delivery]:
        """See :meth:`LiveFeed.apublish_many`: :meth:`publish` of each code."""
        return [self.publish(code) for code in codes]

    def push_tabs(self, code: str, count: int, *, skip: str = "") -> tuple[asyncio.Future[None], ...]:
        """Start one push of ``count`` (:meth:`_push`) per tab of this process watching table
        ``code`` but ``skip``; returns the running pushes (none without an app or a running
        event loop). A failed push is logged (and raised by :meth:`Delivery.delivered`)."""
        if self.app is None or self.state_cls is None:
            return ()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return ()
        pushes: list[asyncio.Future[None]] = []
        for tab in self.registry.tabs(code):
            if tab.token == skip:
                continue
            task = loop.create_task(self._push(code, tab, count))
            self._pushes.add(task)
            task.add_done_callback(self._pushed)
            pushes.append(task)
        return tuple(pushes)

    def _pushed(self, task: asyncio.Task[None]) -> None:
        self._pushes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("live update of a tab failed", exc_info=task.exception())

    async def _push(self, code: str, tab: Tab, count: int) -> None:
        """Set ``table_version`` of ``tab`` to ``count`` (through its ``_hear`` when it has one)
        if it still shows table ``code``.

        A tab whose socket is gone stops watching (it watches again on its reconnect); so
        does a tab whose state shows another table. A later count is never wound back.
        """
        if not self._is_open(tab.socket):
            log.debug("tab %s: its socket is gone; it stops watching table %s", tab.token, code)
            self.registry.unwatch(tab.token, code)
            return
        assert self.state_cls is not None
        async with self.app.modify_state(rx.BaseStateToken(ident=tab.token, cls=self.state_cls)) as root:
            state: WatchingState = await root.get_state(self.state_cls)
            if state.table_code != code:
                self.registry.unwatch(tab.token, code)
            elif state.table_version < count:
                hear = getattr(state, "_hear", None)
                if hear is None:
                    state.table_version = count
                else:
                    await hear(count)

    def open_tabs(self) -> list[Tab]:
        """The tabs watching a table here whose socket is open (by table code, then token)."""
        tabs = (t for code in self.registry.codes() for t in self.registry.tabs(code))
        return [t for t in tabs if self._is_open(t.socket)]

    async def keep_alive(self) -> int:
        """Restart the expiry of the Reflex state of every open tab watching here (one
        ``app.state_manager.get_state`` each: the memory manager tracks the token again; the
        state is not locked, read or changed). Returns how many tabs were kept (0 without an
        app). :class:`~pifecacheta.live.redis_feed.RedisFeed` renews its states in Redis instead."""
        if self.app is None or self.state_cls is None:
            return 0
        tabs = self.open_tabs()
        for tab in tabs:
            await self.app.state_manager.get_state(rx.BaseStateToken(ident=tab.token, cls=self.state_cls))
        return len(tabs)

    async def keep_alive_loop(self, ttl: float | None = None) -> None:
        """:meth:`keep_alive` every ``ttl / 4`` seconds until cancelled (``ttl``: default
        Reflex's ``redis_token_expiration``, the memory manager's expiry too); a failure is
        logged and tried next time."""
        if ttl is None:
            from reflex.config import get_config

            ttl = float(get_config().redis_token_expiration)
        while True:
            await asyncio.sleep(max(0.25, ttl / 4))
            try:
                await self.keep_alive()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.warning("live feed: could not keep the open tabs' states alive", exc_info=True)

    async def refresh(self, token: str) -> bool:
        """See :meth:`LiveFeed.refresh`."""
        if self.app is None or self.state_cls is None:
            return False
        async with self.app.modify_state(rx.BaseStateToken(ident=token, cls=self.state_cls)) as root:
            catch_up = getattr(await root.get_state(self.state_cls), "_catch_up", None)
            if catch_up is not None:
                await catch_up()
        return True
