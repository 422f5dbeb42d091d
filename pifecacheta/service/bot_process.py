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
- the child exits when the parent dies, and the parent stops it at its own exit; a child that
  dies or does not answer within :data:`STEP_TIMEOUT_S` makes that step (and, until a new
  child is up, the next ones) run in the parent again: nothing is lost, and a step the child
  committed late is refused there by the version guard.

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
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..bots import offload
from .errors import StaleVersion, TableNotFound
from .store import Written

if TYPE_CHECKING:
    from .bots import BotDriver, Planned
    from .store import Store

log = logging.getLogger(__name__)

__all__ = ["STEP_TIMEOUT_S", "BotProcess", "wanted"]

#: seconds the parent waits for one step of the child (the database's busy timeout is 10 s)
STEP_TIMEOUT_S = 30.0


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
    code: str, when_due: bool, searched: Planned | None, bot_delay: float, round_over_delay: float
) -> tuple[str, bool, tuple[Written, ...]]:
    """One :meth:`BotDriver.step_planned` in the child with the parent's delays: ``(outcome,
    moved, what its transactions committed)``, outcome ``ok`` or ``not_found`` (the table is
    gone: exceptions of the service do not cross processes)."""
    driver = _driver
    assert driver is not None, "the pool's initializer makes the driver"
    driver.bot_delay, driver.round_over_delay = bot_delay, round_over_delay
    _written.clear()
    try:
        moved = driver.step_planned(code, when_due, searched)
    except StaleVersion:
        moved = False
    except TableNotFound:
        return "not_found", False, ()
    return "ok", moved, tuple(_written)


def _ready() -> bool:
    """In the child: nothing; the initializer's imports and store are the work."""
    return _driver is not None


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
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._exit_hooked = 0  # the pid whose exit stops the pool
        self.steps = 0  # steps made in the child (for tests and the bench)

    def _pool_now(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                ctx = mp.get_context("spawn")
                lock = ctx.RLock()
                self._store.share_write_lock(lock)
                self._pool = ProcessPoolExecutor(
                    1, mp_context=ctx, initializer=_child_start, initargs=(self.url, lock)
                )
                if self._exit_hooked != os.getpid():  # see offload._stop_at_exit
                    mp_util.Finalize(None, self.close, exitpriority=offload.EXIT_PRIORITY)
                    atexit.register(self.close)
                    self._exit_hooked = os.getpid()
            return self._pool

    def warm_up(self) -> bool:
        """Start the child now and wait until it is ready (about a second). Blocking."""
        try:
            return bool(self._pool_now().submit(_ready).result(timeout=STEP_TIMEOUT_S))
        except (BrokenProcessPool, FutureTimeout):
            self._forget(self._pool)
            return False

    def step(self, code: str, when_due: bool, searched: Planned | None, driver: BotDriver) -> bool | None:
        """``driver.step_planned(code, when_due, searched)`` made in the child; what it
        committed is adopted by ``driver``'s store before this returns. True if a bot moved;
        None when the child could not answer (died, or no answer in :data:`STEP_TIMEOUT_S`):
        the caller then steps in the parent. Raises TableNotFound."""
        pool = self._pool_now()
        try:
            fut: Future[tuple[str, bool, tuple[Written, ...]]] = pool.submit(
                _child_step, code, when_due, searched, driver.bot_delay, driver.round_over_delay
            )
            outcome, moved, written = fut.result(timeout=STEP_TIMEOUT_S)
        except (BrokenProcessPool, FutureTimeout) as exc:
            log.error("the bots' process gave no step at %s (%r): stepping here", code, exc)
            self._forget(pool)
            return None
        if outcome == "not_found":
            raise TableNotFound(f"no table {code!r}")
        for w in written:
            driver.adopt(w)
        self.steps += 1
        return moved

    def _forget(self, pool: ProcessPoolExecutor | None) -> None:
        """Drop ``pool`` (broken or stuck): the next step starts a new child."""
        with self._lock:
            if pool is None or self._pool is not pool:
                return
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the child (a later step starts a new one)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
