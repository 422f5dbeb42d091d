"""Background driver: bots' moves when they fall due, FIM DA RODADA closing by itself, 7-day expiry.

Nothing that must last lives here: deadlines are timestamps in the database and every change
goes through :class:`~pifecacheta.service.TableService` with its version check, so several
workers (or processes) may drive the same tables at once (one of two racing bot steps is
refused; the loser looks at the table again).

Bots are scheduled, not polled: :class:`BotScheduler` keeps each table's next bot move in a
due-time priority queue. After a change (the service's ``on_change``) a table's next due time
comes from the commit itself (``schedule_after_commit``); a table is read again only at
start-up, at a slow safety scan (``SCAN_EVERY_SECONDS``, which also catches changes by another
process), after a due move that did not happen, or when the commit cannot tell. Due moves start
as they fall due in the scheduler's own worker threads, side by side, each through the
service's version-guarded ``bot_step``, never before ``PIFECACHETA_BOT_DELAY``.

In a cluster the bots are shared out by table (``live/shards.py``): the scheduler is given
``owns(code)``, True for the tables of the bot shards this process holds, and drives only
those: it neither schedules nor plays another table, and it scans at once when its held
shards change (a shard just taken has its tables read at once, so a dead backend's bots move
again within the lease's TTL and one round). Expiry (``sweeps``) runs in one process of the
cluster (``live/cluster.py``). Without ``owns`` (one process) every table is driven here.

Wire it into the Reflex app as a lifespan task::

    app.register_lifespan_task(sweeper_task)

Blocking database work runs in worker threads, so ``on_change`` listeners fire from them.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from .live.service_link import REMOTE_CHANGE
from .service import TableNotFound, TableService, get_service

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25  # the longest the loop sleeps between two looks at its queue (no DB work)
SCAN_EVERY_SECONDS = 30.0  # how often every table with a bot is read again (safety scan)
SWEEP_EVERY_SECONDS = 60.0  # how often expiry is checked
RETRY_SECONDS = 0.25  # a due bot that could not move is tried again this much later
WORKERS = 4  # due bot moves run side by side in at most this many threads
BOTLESS_KEPT = 100_000  # tables remembered as having no bot seat (forgotten all at once beyond)


def drive_once(service: TableService) -> list[str]:
    """One full pass: every table with a bot whose delay has passed gets ONE bot action.

    Reads every bot table (``bot_tables`` + ``pending_bot_delay`` each); for tests and tools
    that drive bots by hand, the app's loop uses :class:`BotScheduler`. Returns the codes that
    changed, in ``bot_tables`` order. Blocking (database + engine): call it from a thread.
    """
    changed = []
    for code in service.bot_tables():
        try:
            delay = service.pending_bot_delay(code)
            if delay is not None and delay <= 0 and service.bot_step(code):
                changed.append(code)
        except Exception:  # one broken table must not stop the others
            log.exception("bot step failed at table %s", code)
    return changed


class BotScheduler:
    """When each table's next bot move falls due, and running those that are due.

    Keeps, per table code, the service-clock time (aware UTC) its bot may act, in a heap. A
    table marked by :meth:`mark` (the service's ``on_change`` once :meth:`attach`-ed: it just
    changed) gets its due time from the service's ``schedule_after_commit`` (this process's
    commit, no read), or one ``bot_schedule`` read when that cannot tell. A table is read
    (``bot_schedule``) after :meth:`scan` (every table with a bot in play), when the
    service's ``bot_delay`` / ``round_over_delay`` changed, or after a due move did not
    happen. A table found in play without a bot seat is not read again
    (seats are fixed once a match starts) unless a scan lists it. Thread-safe: listeners may
    mark from any thread while one thread runs :meth:`run_due`.

    Args:
        service: the service whose tables are driven.
        owns: ``owns(code)`` is True for the tables this process drives (its bot shards); the
            others are never scheduled nor played here. None: every table.
        workers: due moves run side by side in at most this many threads (1: one by one).
        retry_after: seconds before a due bot that could not move (its policy gave nothing,
            another writer won, the step failed) is tried again.

    Attributes:
        on_mark: called (from the marking thread) after each :meth:`mark` and each move
            :meth:`start_due` handed over; the async loop uses it to wake up.
        on_move: called with the table's code (from a worker thread) after each bot move
            :meth:`step` applied (the cluster counts each backend's moves with it).
    """

    def __init__(
        self,
        service: TableService,
        *,
        owns: Callable[[str], bool] | None = None,
        workers: int = WORKERS,
        retry_after: float = RETRY_SECONDS,
    ) -> None:
        self._service = service
        self._owns = owns
        self._workers = max(1, workers)
        self._retry = timedelta(seconds=retry_after)
        self._lock = threading.Lock()
        self._marked: set[str] = set()  # to read again (bot_schedule)
        self._committed: set[str] = set()  # changed by a commit: schedule_after_commit first
        self._failed: set[str] = set()  # due, yet no move: if still due, wait retry_after
        self._botless: set[str] = set()  # in play without a bot seat: never marked
        self._due: dict[str, datetime] = {}
        self._heap: list[tuple[datetime, int, str]] = []
        self._seq = itertools.count()  # heap tie-break: first scheduled, first run
        self._delays = (service.bot_delay, service.round_over_delay)
        self._pool: ThreadPoolExecutor | None = None
        self._running: set[str] = set()  # tables whose move start_due handed to a thread
        self._after_run: set[str] = set()  # fell due again during their move: mark when done
        self.on_mark: Callable[[], None] | None = None
        self.on_move: Callable[[str], None] | None = None

    def owns(self, code: str) -> bool:
        """True when this scheduler drives table ``code`` (always without ``owns``)."""
        return self._owns is None or self._owns(code)

    # --- feeding ---------------------------------------------------------------------------

    def attach(self) -> None:
        """Mark each table the service reports changed (``on_change``) from now on."""
        self._service.on_change(self.mark)

    def detach(self, *, wait: bool = True) -> None:
        """Stop listening to the service and stop the worker threads (``wait``: until the
        moves under way are done)."""
        self._service.off_change(self.mark)
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait)

    def mark(self, code: str) -> None:
        """Table ``code`` changed: schedule it again at the next :meth:`refresh` (from its
        commit, else by a read). A change another process made (heard inside
        ``live.service_link.remote_change``) is always read: this process's latest commit of
        the table is older than it."""
        if not self.owns(code):
            return
        remote = REMOTE_CHANGE.get()
        with self._lock:
            if code in self._botless:
                return
            (self._marked if remote else self._committed).add(code)
            hook = self.on_mark
        if hook is not None:
            hook()

    def scan(self) -> None:
        """Mark every table in play that has a bot seat and that this scheduler drives
        (start-up, the safety scan, a change of the held shards); forget the scheduled tables
        it no longer drives."""
        codes = [c for c in self._service.bot_tables() if self.owns(c)]
        with self._lock:
            for code in [c for c in self._due if not self.owns(c)]:
                del self._due[code]  # its heap entry is skipped as superseded
            if len(self._botless) > BOTLESS_KEPT:
                self._botless.clear()
            self._botless.difference_update(codes)
            self._marked.update(codes)

    def refresh(self) -> None:
        """Put each marked table's due time into the queue: from its commit
        (``schedule_after_commit``) for a table that just changed, else one ``bot_schedule``
        read. A table whose bots have nothing to do leaves it; a due table whose last due move
        did not happen waits ``retry_after``. All scheduled tables are re-read when the
        service's delays changed."""
        svc = self._service
        delays = (svc.bot_delay, svc.round_over_delay)
        after_commit = getattr(svc, "schedule_after_commit", None)
        with self._lock:
            if delays != self._delays:
                self._delays = delays
                self._marked.update(self._due)
            codes, self._marked = self._marked, set()
            committed, self._committed = self._committed - codes, set()
            codes |= committed
            if self._owns is not None:
                codes = {c for c in codes if self._owns(c)}
            failed, self._failed = self._failed & codes, self._failed - codes
        for code in sorted(codes):
            try:
                plan = after_commit(code) if code in committed and after_commit is not None else None
                if plan is None:
                    plan = svc.bot_schedule(code)
            except TableNotFound:
                self._set(code, None)
                continue
            except Exception:  # one broken table must not stop the others
                log.exception("bot schedule failed at table %s", code)
                self._set(code, svc.now() + self._retry)
                continue
            at = plan.at
            if plan.no_bots:
                with self._lock:
                    self._botless.add(code)
            if at is not None and code in failed:
                at = max(at, svc.now() + self._retry)
            self._set(code, at)

    def _set(self, code: str, at: datetime | None) -> None:
        with self._lock:
            if at is None:
                self._due.pop(code, None)
                return
            self._due[code] = at
            heapq.heappush(self._heap, (at, next(self._seq), code))

    # --- the queue -------------------------------------------------------------------------

    def next_due(self) -> datetime | None:
        """The earliest due time in the queue (service clock), or None when it is empty."""
        with self._lock:
            while self._heap and self._due.get(self._heap[0][2]) != self._heap[0][0]:
                heapq.heappop(self._heap)  # superseded by a later schedule of that table
            return self._heap[0][0] if self._heap else None

    def take_due(self, now: datetime) -> list[str]:
        """Remove and return the tables due at ``now`` (service clock), earliest first."""
        out: list[str] = []
        with self._lock:
            while self._heap and self._heap[0][0] <= now:
                at, _, code = heapq.heappop(self._heap)
                if self._due.get(code) == at:
                    del self._due[code]
                    out.append(code)
        return out

    def pending(self) -> dict[str, datetime]:
        """A copy of the queue: table code -> due time."""
        with self._lock:
            return dict(self._due)

    # --- running ---------------------------------------------------------------------------

    def step(self, code: str) -> bool:
        """Play table ``code``'s due bot move if it is still due (``bot_step(when_due=True)``:
        the delay is checked against the database in the move's own transaction): True if one
        was applied. Otherwise the table is read again at the next :meth:`refresh` (another
        process moved, no bot has to act, or the bot could not move: then it waits
        ``retry_after``). A table this scheduler no longer drives is left alone (False). Never
        raises: a failure is logged and retried."""
        if not self.owns(code):
            return False
        try:
            if self._service.bot_step(code, when_due=True):
                hook = self.on_move
                if hook is not None:
                    hook(code)
                self.mark(code)  # its next move (the service's on_change marks it too)
                return True
        except TableNotFound:
            return False
        except Exception:
            log.exception("bot step failed at table %s", code)
        with self._lock:
            self._failed.add(code)
            self._marked.add(code)
        return False

    def run_due(self) -> list[str]:
        """:meth:`refresh`, then play every due table's bot move, side by side (``workers``
        threads). Returns the codes that changed, in due order. Blocking: call it from a thread.
        """
        self.refresh()
        codes = self.take_due(self._service.now())
        if len(codes) <= 1 or self._workers == 1:
            return [c for c in codes if self.step(c)]
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="bot")
            pool = self._pool
        return [c for c, ok in zip(codes, pool.map(self.step, codes), strict=True) if ok]

    def start_due(self) -> list[str]:
        """:meth:`refresh`, then hand each due table's bot move to the worker threads without
        waiting for it: a move that falls due while others are under way starts as soon as a
        thread is free, not after the slowest of a batch. A table whose move is still under
        way is scheduled again once that move is done. Each finished move calls ``on_mark``.
        Returns the codes handed over, in due order. Blocking (the refresh reads): call it from
        a thread."""
        self.refresh()
        codes = self.take_due(self._service.now())
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="bot")
            pool = self._pool
            busy = [c for c in codes if c in self._running]
            self._after_run.update(busy)  # scheduled again once that move is done
            codes = [c for c in codes if c not in self._running]
            self._running.update(codes)
        for code in codes:
            pool.submit(self._step_started, code)
        return codes

    def _step_started(self, code: str) -> None:
        """:meth:`step` for a move handed over by :meth:`start_due`, then free the table and
        wake the loop (its next move may be due at once)."""
        try:
            self.step(code)
        finally:
            with self._lock:
                self._running.discard(code)
                if code in self._after_run:
                    self._after_run.discard(code)
                    self._committed.add(code)
                hook = self.on_mark
            if hook is not None:
                hook()


async def run_sweeper(
    service: TableService | None = None,
    *,
    tick: float = TICK_SECONDS,
    sweep_every: float = SWEEP_EVERY_SECONDS,
    scan_every: float = SCAN_EVERY_SECONDS,
    stop: asyncio.Event | None = None,
    sweeps: bool = True,
    owns: Callable[[str], bool] | None = None,
    reshard: asyncio.Event | None = None,
    on_move: Callable[[str], None] | None = None,
) -> None:
    """Loop until ``stop`` is set (or the task is cancelled): play bot moves as they fall due
    (:class:`BotScheduler`, fed by ``on_change``; every table with a bot read at start and
    every ``scan_every`` seconds), expire idle matches every ``sweep_every`` seconds
    (``TableService.sweep``; not at all when ``sweeps`` is False). Between two passes it
    sleeps until the next due move, a change, or at most ``tick`` seconds (a look at the
    queue, no database work).

    In a cluster: only the tables for which ``owns(code)`` is True are driven (see
    :class:`BotScheduler`); setting ``reshard`` (the held shards changed) wakes the loop and
    scans at once. ``on_move(code)`` is called after each bot move played here."""
    service = service or get_service()
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def on_mark() -> None:
        try:
            loop.call_soon_threadsafe(wake.set)
        except RuntimeError:  # the loop is closed: nobody to wake
            pass

    sched = BotScheduler(service, owns=owns)
    sched.on_mark = on_mark
    sched.on_move = on_move
    sched.attach()
    # its own thread: the scheduler's reads never queue behind the pages' work in the
    # event loop's default pool (and the moves run in the scheduler's own threads)
    own = ThreadPoolExecutor(1, thread_name_prefix="sweeper")
    last_sweep = last_scan = float("-inf")
    try:
        while stop is None or not stop.is_set():
            wake.clear()
            if reshard is not None and reshard.is_set():
                reshard.clear()
                last_scan = float("-inf")  # a shard just taken: read its tables now
            try:
                if time.monotonic() - last_scan >= scan_every:
                    last_scan = time.monotonic()
                    await loop.run_in_executor(own, sched.scan)
                await loop.run_in_executor(own, sched.start_due)
                if sweeps and time.monotonic() - last_sweep >= sweep_every:
                    last_sweep = time.monotonic()
                    await loop.run_in_executor(own, service.sweep)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweeper pass failed")
            await _sleep(wake, stop, _timeout(sched, service, tick), reshard)
    finally:
        sched.detach(wait=False)
        own.shutdown(wait=False)


def _timeout(sched: BotScheduler, service: TableService, tick: float) -> float:
    """Seconds until the next due move, at most ``tick``."""
    at = sched.next_due()
    if at is None:
        return tick
    return min(tick, max(0.0, (at - service.now()).total_seconds()))


async def _sleep(
    wake: asyncio.Event, stop: asyncio.Event | None, timeout: float, reshard: asyncio.Event | None = None
) -> None:
    """Wait until ``wake``, ``stop`` or ``reshard`` is set, or ``timeout`` seconds."""
    waits = [asyncio.ensure_future(wake.wait())]
    for event in (stop, reshard):
        if event is not None:
            waits.append(asyncio.ensure_future(event.wait()))
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


async def sweeper_task() -> None:
    """The lifespan task for ``app.register_lifespan_task`` in one process: :func:`run_sweeper`
    on the process-wide service, every table's bots and the expiry."""
    await run_sweeper(get_service())


async def bots_task(
    owns: Callable[[str], bool], reshard: asyncio.Event, on_move: Callable[[str], None] | None = None
) -> None:
    """The bots of the tables ``owns`` gives (this backend's bot shards) on the process-wide
    service, no expiry: :func:`run_sweeper` with ``sweeps=False``."""
    await run_sweeper(get_service(), sweeps=False, owns=owns, reshard=reshard, on_move=on_move)


async def sweeps_task(every: float = SWEEP_EVERY_SECONDS) -> None:
    """Expiry alone (``TableService.sweep`` every ``every`` seconds, in a worker thread) on the
    process-wide service, until cancelled: the job of the cluster's one sweeper lease."""
    service = get_service()
    while True:
        try:
            await asyncio.to_thread(service.sweep)
        except Exception:
            log.exception("sweep failed")
        await asyncio.sleep(every)
