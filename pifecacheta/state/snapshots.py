"""Fast per-viewer snapshots for the live table: a short-lived cache and off-loop reads.

Why: Reflex re-evaluates ``TableState.ui`` for every delta of a tab (the push of a change, and
every event of the tab - a card click, a dblclick - re-resolves it once more). Each evaluation used to
call ``TableService.snapshot`` (4 SQLite queries + ``player_view``) synchronously on the
backend's event loop, so the tabs' updates queued behind each other.

:class:`SnapshotCache` keeps each viewer's ``TableSnapshot`` for ONE table state, keyed by

* the table code,
* the table's change counter (``state/tabs.py``, ``TableState.table_version``),
* this process's change generation of the table (bumped by ``service.on_change`` right after
  each commit, chat included, so a change can never be served from an older entry),
* the viewer's player id AND secret (a forged id never reads the owner's entry: the service
  verifies the secret, and the key differs).

Entries live at most ``ttl`` seconds (the time-dependent ``absence_claimable``, seed 000
line 72, stays fresh) and the cache holds at most ``max_entries``. A snapshot is one viewer's
projection only (``player_view``: its own hand, never another's); the cache is backend memory,
never a Reflex var, so nothing in it reaches another browser.

:func:`snapshot_for` reads through the cache and runs a miss in a worker thread
(``asyncio.to_thread``), so the event loop keeps serving the other tabs meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from pifecacheta.rules import Action, Discard, GoOut, Phase, PlayerView, go_out_with_discard
from pifecacheta.rules.cards import Card

log = logging.getLogger(__name__)

DEFAULT_TTL = 10.0  # seconds; one version's burst of re-evaluations takes well under a second
READ_RETRIES = (0.05, 0.2)  # seconds to wait before each new try of a failed read (not refusals)
DEFAULT_MAX_ENTRIES = 1024  # 4 players + spectators per table: hundreds of live tables
VIEWER_TTL = 120.0  # seconds a viewer stays in its table's batch reads after its last read
MAX_BATCH = 16  # viewers per batch read (4 seats + spectators)


class SnapshotCache:
    """A bounded, thread-safe, time-limited map ``key -> snapshot`` with per-table generations.

    Args:
        ttl: seconds an entry stays valid.
        max_entries: size bound; the least recently stored entries go first.
        clock: monotonic seconds (tests inject one).
        viewer_ttl: seconds a viewer is kept for batch reads after its last read.
        max_batch: at most this many other viewers join one batch read.
    """

    def __init__(
        self,
        ttl: float = DEFAULT_TTL,
        max_entries: int = DEFAULT_MAX_ENTRIES,
        clock: Callable[[], float] = time.monotonic,
        viewer_ttl: float = VIEWER_TTL,
        max_batch: int = MAX_BATCH,
    ) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self._generation: dict[str, int] = {}
        # code -> (player id, secret) -> (last read, Identity): whom a batch read serves
        self._viewers: dict[str, dict[Hashable, tuple[float, Any]]] = {}
        self.viewer_ttl = viewer_ttl
        self.max_batch = max_batch
        # (code, table version, generation) -> the batch read running for that table state
        self.inflight: dict[tuple[str, int, int], asyncio.Future[None]] = {}
        # (code, player id, secret) -> the newest snapshot read for that viewer (any version)
        self._last_good: OrderedDict[Hashable, Any] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def generation(self, code: str) -> int:
        """This process's change counter of table ``code`` (0 until its first change)."""
        with self._lock:
            return self._generation.get(code, 0)

    def table_changed(self, code: str) -> None:
        """``service.on_change`` listener: every entry of ``code`` is outdated from now on.

        Called in the committing thread, after the commit; entries read before it keep the old
        generation in their key and are never served again.
        """
        with self._lock:
            self._generation[code] = self._generation.get(code, 0) + 1
            for key in [k for k in self._entries if isinstance(k, tuple) and k and k[0] == code]:
                del self._entries[key]

    def forget_viewer(self, code: str, who: Any) -> None:
        """Drop ``who``'s entries of table ``code``: its next read goes to the database.

        A page load calls it: a reload must show the table as it is now even when nothing
        went through the service (e.g. the 48 hours of ENCERRAR POR AUSÊNCIA, seed 000 line 72,
        passing). Other viewers' entries stay.
        """
        ident = viewer_key(code, 0, 0, who)[3:]
        with self._lock:
            for key in [k for k in self._entries if isinstance(k, tuple) and k[0] == code and k[3:] == ident]:
                del self._entries[key]

    def get(self, key: Hashable) -> Any | None:
        """The stored value for ``key``, or None when absent or older than ``ttl``."""
        now = self._clock()
        with self._lock:
            item = self._entries.get(key)
            if item is None or now - item[0] > self.ttl:
                if item is not None:
                    del self._entries[key]
                self.misses += 1
                return None
            self.hits += 1
            return item[1]

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` under ``key`` (evicting the oldest entries beyond ``max_entries``).

        A viewer key (``viewer_key``) also becomes that viewer's :meth:`last_good` snapshot,
        unless a newer table version is already kept there.
        """
        with self._lock:
            self._entries[key] = (self._clock(), value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
            if isinstance(key, tuple) and len(key) == 5:
                ident = (key[0], *key[3:])
                old = self._last_good.get(ident)
                if old is None or _table_version(old) <= _table_version(value):
                    self._last_good[ident] = value
                    self._last_good.move_to_end(ident)
                    while len(self._last_good) > self.max_entries:
                        self._last_good.popitem(last=False)

    def last_good(self, code: str, who: Any) -> Any | None:
        """The newest snapshot of table ``code`` read for viewer ``who`` (its own projection,
        keyed by player id AND secret like every entry), whatever its age; None if never read.

        For a viewer whose read just failed: its page keeps showing the table as it last was
        instead of going blank (``TableState.ui``). Not dropped by :meth:`table_changed`.
        """
        ident = (code, *viewer_key(code, 0, 0, who)[3:])
        with self._lock:
            return self._last_good.get(ident)

    def clear(self) -> None:
        """Forget every entry, viewer and last good snapshot (generations are kept)."""
        with self._lock:
            self._entries.clear()
            self._viewers.clear()
            self._last_good.clear()

    def saw(self, code: str, key: Hashable, who: Any) -> None:
        """Remember that viewer ``who`` (its cache ``key``) watches table ``code`` now."""
        if who is None:
            return
        ident = key[3:] if isinstance(key, tuple) else key
        now = self._clock()
        with self._lock:
            self._viewers.setdefault(code, {})[ident] = (now, who)

    def viewers(self, code: str, exclude: Hashable = None) -> list[Any]:
        """The identities that read table ``code`` in the last ``viewer_ttl`` seconds
        (except the one whose key is ``exclude``); older ones are forgotten."""
        skip = exclude[3:] if isinstance(exclude, tuple) else exclude
        now = self._clock()
        with self._lock:
            seen = self._viewers.get(code, {})
            for ident in [i for i, (t, _) in seen.items() if now - t > self.viewer_ttl]:
                del seen[ident]
            if not seen:
                self._viewers.pop(code, None)
            return [who for ident, (_, who) in seen.items() if ident != skip][: self.max_batch]


CACHE = SnapshotCache()


def _table_version(snap: Any) -> int:
    """The table version a snapshot was read at (-1 when it has none)."""
    try:
        return int(getattr(snap, "version", -1))
    except (TypeError, ValueError):
        return -1


def is_refusal(exc: BaseException) -> bool:
    """True for an error the service gives on purpose (``ServiceError`` and the engine's
    ``IllegalActionError`` carry a ``code``): the same answer on a retry, so never retried."""
    return isinstance(exc, ValueError) and hasattr(exc, "code")


def viewer_key(code: str, table_version: int, generation: int, who: Any) -> tuple[Hashable, ...]:
    """The cache key of one viewer's snapshot: ``(code, table_version, generation, id, secret)``.

    ``who``: a service ``Identity`` (or None for an anonymous viewer).
    """
    pid = getattr(who, "player_id", "") if who is not None else ""
    secret = getattr(who, "secret", "") if who is not None else ""
    return (code, int(table_version), int(generation), pid, secret)


async def snapshot_for(
    service: Any, code: str, who: Any, table_version: int, cache: SnapshotCache = CACHE
) -> Any:
    """``service.snapshot(code, who)`` for the table state ``table_version``, cached.

    The generation is read BEFORE the database, so a snapshot that raced a commit is stored
    under the old generation and the commit's ``on_change`` makes the next read miss.

    A miss runs in a worker thread. When the service has ``snapshots(code, whos)`` (one read
    of the table for several viewers), the first miss of a table state reads it for every
    viewer seen at the table in the last ``VIEWER_TTL`` seconds, and the other tabs' misses of
    that state wait for that one read instead of starting their own.

    A batch read that failed (or was cancelled) never fails the tabs waiting for it: each
    then reads its own snapshot. An own read that fails with anything but a refusal
    (:func:`is_refusal`, e.g. ``ServiceError("table_not_found")``) - a locked or busy
    database, a dropped connection - is tried again after each delay of ``READ_RETRIES``.

    Raises whatever ``service.snapshot`` raises on the last try; refusals are not cached.
    """
    gen = cache.generation(code)
    key = viewer_key(code, table_version, gen, who)
    snap = cache.get(key)
    if snap is not None:
        cache.saw(code, key, who)
        return snap
    batch = getattr(service, "snapshots", None)
    if batch is not None:
        state = (code, int(table_version), gen)
        task = cache.inflight.get(state)
        if task is None:
            whos = cache.viewers(code, exclude=key)
            cache.saw(code, key, who)
            task = asyncio.ensure_future(_read_batch(batch, code, [who, *whos], state, cache))
            cache.inflight[state] = task
            task.add_done_callback(lambda _t: cache.inflight.pop(state, None))
        else:
            cache.saw(code, key, who)
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.cancelled():
                raise  # this evaluation itself was cancelled, not the shared read
        except Exception:  # noqa: BLE001 - this viewer's own read below reports it
            pass
        snap = cache.get(key)
        if snap is not None:
            return snap
    else:
        cache.saw(code, key, who)
    snap = await _read_own(service, code, who)
    cache.put(key, snap)
    return snap


async def _read_own(service: Any, code: str, who: Any) -> Any:
    """``service.snapshot(code, who)`` in a worker thread, tried again after each delay of
    ``READ_RETRIES`` when it fails with anything but a refusal (logged each time)."""
    for delay in (*READ_RETRIES, None):
        try:
            return await asyncio.to_thread(service.snapshot, code, who)
        except Exception as exc:
            if delay is None or is_refusal(exc):
                raise
            log.warning("snapshot of table %s failed (%r); trying again in %.2f s", code, exc, delay)
        await asyncio.sleep(delay)
    raise AssertionError("unreachable")  # pragma: no cover


async def _read_batch(
    batch: Callable[[str, list[Any]], list[Any]],
    code: str,
    whos: list[Any],
    state: tuple[str, int, int],
    cache: SnapshotCache,
) -> None:
    """One ``service.snapshots`` call in a worker thread; stores each viewer's snapshot."""
    snaps = await asyncio.to_thread(batch, code, whos)
    for who, snap in zip(whos, snaps, strict=True):
        cache.put(viewer_key(*state, who), snap)


def discard_action(view: PlayerView | None, card: Card) -> Action:
    """What dropping ``card`` on the pile means for this viewer: a go-out or a plain discard.

    Decided on the viewer's own ``PlayerView`` with the engine's ``go_out_with_discard`` (the
    same check ``apply`` makes for ``GoOut(discard=card)``, seed 000 line 56: dragging the
    leftover to the pile goes out; a card taken from the pile cannot be the discard, seed 000
    line 54). Returns ``GoOut(discard=card)`` when that is a valid go-out, else ``Discard(card)``
    (the engine refuses it when it is not this seat's discard turn). Never raises.
    """
    if (
        view is None
        or view.seat is None
        or view.turn != view.seat
        or view.phase is not Phase.DISCARD
        or card not in view.hand
    ):
        return Discard(card)
    taken = view.taken
    forbidden = frozenset() if taken is None else frozenset({taken.face})
    try:
        plan = go_out_with_discard(
            view.hand,
            card,
            wilds=frozenset(view.wilds),
            plain=frozenset(view.plain),
            forbidden_discards=forbidden,
            must_meld=taken if taken in view.hand else None,
            rules=view.rules,
        )
    except ValueError:
        plan = None
    return GoOut(discard=card) if plan is not None else Discard(card)
