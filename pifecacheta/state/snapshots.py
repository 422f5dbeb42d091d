"""Per-viewer snapshots for the live table: a short-lived cache and off-loop reads.

Reflex evaluates ``TableState.ui`` for every delta of a tab (each push of a change, and every
event of the tab: a card click, a double click). :func:`snapshot_for` serves those evaluations
from :class:`SnapshotCache`, so one table state costs one read per viewer (or one batch read
for all the table's viewers), and runs each database read in a worker thread, so the event
loop keeps serving the other tabs meanwhile; a table state the service derives from its own
last commit (``snapshots_known``) is built on the loop, with no thread.

Three numbers of a table meet here; each counts something else:

* ``GameTable.version`` (the database, ``snapshot.version``): committed writes of the table's
  match, the optimistic-concurrency check of ``TableService.act``. :meth:`SnapshotCache.last_good`
  keeps each viewer's snapshot of the highest one.
* the live feed's **change count** (``LiveFeed.changes``, held by each tab in
  ``TableState.table_version``): changes published to the table's tabs.
* the cache's **commits heard** (:meth:`SnapshotCache.commits_heard`): commits of the table
  this process heard through ``service.on_change`` (chat included), right after each commit,
  so a change can never be served from an entry read before it.

An entry's key is ``(code, change count, commits heard, player id, secret)``: a forged id
never reads the owner's entry (the service verifies the secret, and the key differs).
Entries live at most ``ttl`` seconds (the time-dependent ``absence_claimable``, seed 000
line 72, stays fresh) and the cache holds at most ``max_entries``. A snapshot is one viewer's
projection only (``player_view``: its own hand, never another's); the cache is backend memory,
never a Reflex var, so nothing in it reaches another browser.
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
    """A bounded, thread-safe, time-limited map ``key -> snapshot``, with the commits heard
    of each table, the viewers each table was read for, and each viewer's last good snapshot.

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
        self._keys_of: dict[str, set[Hashable]] = {}  # code -> its keys in _entries (viewer keys)
        self._commits_heard: dict[str, int] = {}  # code -> commits heard through on_change
        # code -> (player id, secret) -> (last read, Identity): whom a batch read serves
        self._viewers: dict[str, dict[Hashable, tuple[float, Any]]] = {}
        self.viewer_ttl = viewer_ttl
        self.max_batch = max_batch
        # (code, change count, commits heard) -> the batch read running for that table state
        self.inflight: dict[tuple[str, int, int], asyncio.Future[None]] = {}
        # (code, player id, secret) -> the newest snapshot read for that viewer (any version)
        self._last_good: OrderedDict[Hashable, Any] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def commits_heard(self, code: str) -> int:
        """How many commits of table ``code`` this process heard (:meth:`table_changed`; 0
        before the first). Not the database's ``GameTable.version`` nor the feed's change count."""
        with self._lock:
            return self._commits_heard.get(code, 0)

    def table_changed(self, code: str) -> None:
        """``service.on_change`` listener: every entry of ``code`` is outdated from now on.

        Called in the committing thread, after the commit; entries read before it keep the old
        commits-heard number in their key and are never served again.
        """
        with self._lock:
            self._commits_heard[code] = self._commits_heard.get(code, 0) + 1
            for key in self._keys_of.pop(code, ()):  # the table's own keys, not a scan of all
                self._entries.pop(key, None)

    def forget_viewer(self, code: str, who: Any) -> None:
        """Drop ``who``'s entries of table ``code``: its next read goes to the database.

        A page load calls it: a reload must show the table as it is now even when nothing
        went through the service (e.g. the 48 hours of ENCERRAR POR AUSÊNCIA, seed 000 line 72,
        passing). Other viewers' entries stay.
        """
        ident = _viewer(who)
        with self._lock:
            for key in [k for k in self._keys_of.get(code, ()) if isinstance(k, tuple) and k[3:] == ident]:
                self._drop(key)

    def get(self, key: Hashable) -> Any | None:
        """The stored value for ``key``, or None when absent or older than ``ttl``."""
        now = self._clock()
        with self._lock:
            item = self._entries.get(key)
            if item is None or now - item[0] > self.ttl:
                if item is not None:
                    self._drop(key)
                self.misses += 1
                return None
            self.hits += 1
            return item[1]

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` under ``key`` (evicting the oldest entries beyond ``max_entries``).

        A viewer key (``viewer_key``) also becomes that viewer's :meth:`last_good` snapshot,
        unless one of a higher ``GameTable.version`` is already kept there.
        """
        with self._lock:
            self._entries[key] = (self._clock(), value)
            self._entries.move_to_end(key)
            if isinstance(key, tuple) and key and isinstance(key[0], str):
                self._keys_of.setdefault(key[0], set()).add(key)
            while len(self._entries) > self.max_entries:
                self._drop(next(iter(self._entries)))
            if isinstance(key, tuple) and len(key) == 5:
                ident = (key[0], *key[3:])
                old = self._last_good.get(ident)
                if old is None or _db_version(old) <= _db_version(value):
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
        with self._lock:
            return self._last_good.get((code, *_viewer(who)))

    def clear(self) -> None:
        """Forget every entry, viewer and last good snapshot (the commits heard are kept)."""
        with self._lock:
            self._entries.clear()
            self._keys_of.clear()
            self._viewers.clear()
            self._last_good.clear()

    def _drop(self, key: Hashable) -> None:
        """Remove entry ``key`` and its place in its table's keys (the lock is held)."""
        self._entries.pop(key, None)
        if isinstance(key, tuple) and key and isinstance(key[0], str):
            keys = self._keys_of.get(key[0])
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._keys_of[key[0]]

    def saw(self, code: str, who: Any) -> None:
        """Remember that viewer ``who`` (a service ``Identity``; None: nobody) reads table
        ``code`` now: the table's next batch reads serve it too."""
        if who is None:
            return
        now = self._clock()
        with self._lock:
            self._viewers.setdefault(code, {})[_viewer(who)] = (now, who)

    def viewers(self, code: str, exclude: Any = None) -> list[Any]:
        """The identities that read table ``code`` in the last ``viewer_ttl`` seconds
        (but ``exclude``, an identity), at most ``max_batch``; older ones are forgotten."""
        skip = None if exclude is None else _viewer(exclude)
        now = self._clock()
        with self._lock:
            seen = self._viewers.get(code, {})
            for ident in [i for i, (t, _) in seen.items() if now - t > self.viewer_ttl]:
                del seen[ident]
            if not seen:
                self._viewers.pop(code, None)
            return [who for ident, (_, who) in seen.items() if ident != skip][: self.max_batch]


CACHE = SnapshotCache()


def _db_version(snap: Any) -> int:
    """The ``GameTable.version`` a snapshot was read at (-1 when it has none)."""
    try:
        return int(getattr(snap, "version", -1))
    except (TypeError, ValueError):
        return -1


def is_refusal(exc: BaseException) -> bool:
    """True for an error the service gives on purpose (``Refusal`` and the engine's
    ``IllegalActionError`` carry a ``code``): the same answer on a retry, so never retried."""
    return isinstance(exc, ValueError) and hasattr(exc, "code")


def _viewer(who: Any) -> tuple[str, str]:
    """``(player id, secret)`` of a service ``Identity``; ``("", "")`` for None (anonymous)."""
    if who is None:
        return ("", "")
    return (getattr(who, "player_id", ""), getattr(who, "secret", ""))


def viewer_key(code: str, change_count: int, commits_heard: int, who: Any) -> tuple[Hashable, ...]:
    """The cache key of one viewer's snapshot: ``(code, change_count, commits_heard, id, secret)``.

    ``change_count``: the live feed's change count of the table (``TableState.table_version``);
    ``commits_heard``: :meth:`SnapshotCache.commits_heard`; ``who``: a service ``Identity``
    (or None for an anonymous viewer).
    """
    return (code, int(change_count), int(commits_heard), *_viewer(who))


async def snapshot_for(
    service: Any, code: str, who: Any, change_count: int, cache: SnapshotCache = CACHE
) -> Any:
    """``service.snapshot(code, who)`` at the live feed's change count ``change_count`` of the
    table (``TableState.table_version``), cached.

    The commits heard are read BEFORE the database, so a snapshot that raced a commit is stored
    under the old number and the commit's ``on_change`` makes the next read miss.

    A miss runs in a worker thread. When the service has ``snapshots(code, whos)`` (one read
    of the table for several viewers), the first miss of a table state reads it for every
    viewer seen at the table in the last ``VIEWER_TTL`` seconds, and the other tabs' misses of
    that state wait for that one read instead of starting their own. When the service also
    has ``snapshots_known(code, whos)`` and it answers (this process's own last commit gives
    the table: no database), that first miss is answered on the event loop at once, with no
    thread and no wait behind the service threads' writes.

    A batch read that failed (or was cancelled) never fails the tabs waiting for it: each
    then reads its own snapshot. An own read that fails with anything but a refusal
    (:func:`is_refusal`, e.g. ``Refusal("table_not_found")``) - a locked or busy
    database, a dropped connection - is tried again after each delay of ``READ_RETRIES``.

    Raises whatever ``service.snapshot`` raises on the last try; refusals are not cached.
    """
    heard = cache.commits_heard(code)
    key = viewer_key(code, change_count, heard, who)
    snap = cache.get(key)
    if snap is not None:
        cache.saw(code, who)
        return snap
    batch = getattr(service, "snapshots", None)
    if batch is not None:
        state = (code, int(change_count), heard)
        task = cache.inflight.get(state)
        if task is None:
            whos = cache.viewers(code, exclude=who)
            cache.saw(code, who)
            snaps = _known(service, code, [who, *whos])
            if snaps is not None:
                _keep(cache, state, [who, *whos], snaps)
                return snaps[0]
            task = asyncio.ensure_future(_read_batch(batch, code, [who, *whos], state, cache))
            cache.inflight[state] = task
            task.add_done_callback(lambda _t: cache.inflight.pop(state, None))
        else:
            cache.saw(code, who)
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
        cache.saw(code, who)
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


def _known(service: Any, code: str, whos: list[Any]) -> list[Any] | None:
    """``service.snapshots_known(code, whos)`` on the event loop itself (no database: this
    process's own last commit gives the table), or None when the service has no such method,
    cannot answer so, or fails (logged): then the caller reads in a worker thread."""
    known = getattr(service, "snapshots_known", None)
    if known is None:
        return None
    try:
        snaps: list[Any] | None = known(code, whos)
    except Exception:  # noqa: BLE001 - the thread's read below answers, or reports it
        log.exception("snapshots of table %s from the last commit failed; reading them", code)
        return None
    return snaps


def _keep(cache: SnapshotCache, state: tuple[str, int, int], whos: list[Any], snaps: list[Any]) -> None:
    """Store each of ``whos``' snapshot of table state ``state`` (``snaps``, in order)."""
    for who, snap in zip(whos, snaps, strict=True):
        cache.put(viewer_key(*state, who), snap)


async def _read_batch(
    batch: Callable[[str, list[Any]], list[Any]],
    code: str,
    whos: list[Any],
    state: tuple[str, int, int],
    cache: SnapshotCache,
) -> None:
    """One ``service.snapshots`` call in a worker thread; stores each viewer's snapshot."""
    _keep(cache, state, whos, await asyncio.to_thread(batch, code, whos))


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
