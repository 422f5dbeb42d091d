"""The bots' steps made in a child process on the same SQLite file, for a one-process server.

A server process runs Python under one lock (the GIL). At a couple of hundred busy tables its
event loop holds that lock most of the time, and every bot step in its threads paid for it:
the bot's decision is Python, and its write transaction waits to get the GIL back after each
of its statements while it holds the database's write lock, so the people's moves queued
behind the bots' and the bots behind each other (bench/README.md, eighteenth pass). A
:class:`BotProcess` makes each step (:meth:`.bots.BotDriver.step_planned`: the quick bots'
decision and the version-guarded write transaction) in one child process instead, with its
own interpreter on the machine's other core:

- the child has its own :class:`~.store.Store` on the same database file; its writers and
  the parent's take turns on one lock they share (a ``multiprocessing`` RLock,
  :meth:`~.store.Store.share_write_lock`), so neither sleeps in SQLite's busy handler, and
  SQLite's own file lock still guards the file;
- what a step committed (:class:`~.store.Written`: the saved matches and the saves) comes back
  to the parent, which adopts it as its own commit (:meth:`~.store.Store.adopt`) before it
  tells the tabs, so the parent's kept rows, derived reads and history carry on from it;
- a searching bot (Luna) still decides in the parent first (:mod:`pifecacheta.bots.offload`);
  the child plays that decision only at the version it was made on, as the parent would;
- one child, one step at a time: the steps take turns as they did on the parent's gate;
- each step carries the parent's delays, clock time and dealing environment
  (:class:`StepKnobs`), so the child decides and stamps as the parent would;
- the child exits when the parent dies, and the parent stops it at its own exit; a child that
  dies or does not answer within :data:`STEP_TIMEOUT_S` is killed, the parent writes on a
  fresh lock, and that step runs in the parent (whose tabs are told in any case: the child
  may have committed): nothing is lost, and a step made twice is refused by the version
  guard.

Used only by the app's own service on a SQLite file
(:meth:`pifecacheta.service.TableService.use_bot_process`), unless env ``PIFECACHETA_BOT_STEPS``
is ``thread``. On PostgreSQL the steps' statements are
round trips to the server, which release the GIL anyway.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing as mp
import multiprocessing.util as mp_util
import os
import signal
import threading
from collections import deque
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from ..bots import offload
from .errors import StaleVersion, TableNotFound
from .store import Written

if TYPE_CHECKING:
    from .bots import BotDriver, Planned
    from .store import Store

log = logging.getLogger(__name__)

__all__ = ["STEP_ENV", "STEP_TIMEOUT_S", "BotProcess", "StepKnobs", "wanted"]

#: seconds the parent waits for one step of the child (the database's busy timeout is 10 s)
STEP_TIMEOUT_S = 30.0

#: the environment a step reads at the moment it deals (service/fair_deal.py, settings.py): the
#: parent's values are sent with each step, so a child spawned earlier deals as the parent would
STEP_ENV = ("PIFECACHETA_FIXED_SEED", "PIFECACHETA_FAIR_DEAL")


class StepKnobs(NamedTuple):
    """What the parent's driver and store say at the moment of a step: its delays (seconds),
    its clock's time (the child's ``now`` for that step) and :data:`STEP_ENV`."""

    bot_delay: float
    round_over_delay: float
    now: datetime
    env: tuple[tuple[str, str | None], ...]

    @classmethod
    def of(cls, driver: BotDriver) -> StepKnobs:
        """The knobs of ``driver`` now."""
        env = tuple((k, os.environ.get(k)) for k in STEP_ENV)
        return cls(driver.bot_delay, driver.round_over_delay, driver.now(), env)


def wanted() -> bool:
    """Env ``PIFECACHETA_BOT_STEPS``: ``process`` (the default) or ``thread`` (no child)."""
    return os.environ.get("PIFECACHETA_BOT_STEPS", "process").strip().lower() != "thread"


# --- in the child ----------------------------------------------------------------------------

_driver: BotDriver | None = None
_written: list[Written] = []


def _child_start(url: str, lock: Any) -> None:
    """Pool initializer: exit with the parent, then a store on ``url`` taking turns to write
    with the parent on ``lock``, and a bot driver."""
    global _driver
    offload.exit_with_parent()
    from ..db import make_engine
    from ..service.bots import BotDriver
    from ..service.store import Store, utcnow

    store = Store(make_engine(url), clock=utcnow, seed_source=None)
    store.share_write_lock(lock)
    store.on_written = _written.append
    _driver = BotDriver(store, bot_delay=0.0, round_over_delay=0.0)


def _child_step(
    code: str, when_due: bool, searched: Planned | None, knobs: StepKnobs
) -> tuple[str, bool, tuple[Written, ...], int]:
    """One :meth:`BotDriver.step_planned` in the child with the parent's ``knobs``: ``(outcome,
    moved, what its transactions committed, this process's pid)``, outcome ``ok`` or
    ``not_found`` (the table is gone: exceptions of the service do not cross processes)."""
    driver = _driver
    assert driver is not None, "the pool's initializer makes the driver"
    driver.bot_delay, driver.round_over_delay = knobs.bot_delay, knobs.round_over_delay
    now = knobs.now
    driver.clock_to(lambda: now)
    for key, value in knobs.env:
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    _written.clear()
    try:
        moved = driver.step_planned(code, when_due, searched)
    except StaleVersion:
        moved = False
    except TableNotFound:
        return "not_found", False, (), os.getpid()
    return "ok", moved, tuple(_written), os.getpid()


def _ready() -> int:
    """In the child: its pid (the initializer's imports and store are the work)."""
    assert _driver is not None
    return os.getpid()


# --- in the parent ---------------------------------------------------------------------------


class BotProcess:
    """The parent's side: a pool of ONE child process making the bot steps of ``url`` (a
    SQLite database file), started on first use (or by :meth:`warm_up`).

    Args:
        url: the database URL, password included (the child opens its own engine on it).
        store: the parent's store of that database: it takes turns to write with the child on
            a lock they share (:meth:`~.store.Store.share_write_lock`), a new one with each new
            child (a child that died holding it would hold it for ever).
    """

    def __init__(self, url: str, store: Store) -> None:
        self.url = url
        self._store = store
        self._ctx = mp.get_context("spawn")
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._pid = 0  # the current child's pid, once it answered
        # the shared locks of the current and the last few children: a lock's name must outlive
        # a child still starting with it
        self._shared: deque[Any] = deque(maxlen=4)
        self._exit_hooked = 0  # the pid whose exit stops the pool
        self.steps = 0  # steps made in the child (for tests and the bench)

    def _pool_now(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                lock = self._ctx.RLock()
                self._shared.append(lock)
                self._store.share_write_lock(lock)
                self._pool = ProcessPoolExecutor(
                    1, mp_context=self._ctx, initializer=_child_start, initargs=(self.url, lock)
                )
                self._pid = 0
                if self._exit_hooked != os.getpid():  # see offload._stop_at_exit
                    mp_util.Finalize(None, self.close, exitpriority=offload.EXIT_PRIORITY)
                    atexit.register(self.close)
                    self._exit_hooked = os.getpid()
            return self._pool

    def warm_up(self) -> bool:
        """Start the child now and wait until it is ready (about a second). Blocking."""
        pool = self._pool_now()
        try:
            pid = pool.submit(_ready).result(timeout=STEP_TIMEOUT_S)
        except (BrokenProcessPool, FutureTimeout, CancelledError, RuntimeError):
            self._forget(pool)
            return False
        with self._lock:
            if self._pool is pool:
                self._pid = pid
        return True

    def step(self, code: str, when_due: bool, searched: Planned | None, driver: BotDriver) -> bool | None:
        """``driver.step_planned(code, when_due, searched)`` made in the child with
        ``driver``'s knobs (:class:`StepKnobs`); what it committed is adopted by ``driver``'s
        store before this returns. True if a bot moved; None when the child could not answer
        (died, stopped, or no answer in :data:`STEP_TIMEOUT_S`; it may have committed): the
        caller then steps in the parent and tells the tabs in any case. Raises TableNotFound."""
        pool = self._pool_now()
        try:
            fut: Future[tuple[str, bool, tuple[Written, ...], int]] = pool.submit(
                _child_step, code, when_due, searched, StepKnobs.of(driver)
            )
            outcome, moved, written, pid = fut.result(timeout=STEP_TIMEOUT_S)
        except (BrokenProcessPool, FutureTimeout, CancelledError, RuntimeError) as exc:
            # RuntimeError: the pool was shut down by another thread's _forget meanwhile
            log.error("the bots' process gave no step at %s (%r): stepping here", code, exc)
            self._forget(pool)
            return None
        self._pid = pid
        if outcome == "not_found":
            raise TableNotFound(f"no table {code!r}")
        for w in written:
            driver.adopt(w)
        self.steps += 1
        return moved

    def _forget(self, pool: ProcessPoolExecutor) -> None:
        """Drop ``pool`` (broken or stuck): its child is killed (SQLite's lock dies with it),
        this process writes on a fresh lock at once (the dead child may hold the shared one),
        and the next step starts a new child."""
        with self._lock:
            if self._pool is not pool:
                return
            self._pool, pid = None, self._pid
            lock = self._ctx.RLock()
            self._shared.append(lock)
            self._store.share_write_lock(lock)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass  # gone already
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the child (a later step starts a new one)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
