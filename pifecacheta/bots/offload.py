"""Bot decisions run away from the server's threads: one small pool of child processes.

Luna's search (:mod:`.luna`) is pure Python CPU for about ``PIFECACHETA_LUNA_MS`` per
decision. Run in one of the server's threads it would hold the GIL for that long in 5 ms
slices, and the event loop, which handles people's clicks, would queue behind it (and behind
every other bot thread doing the same). :func:`decide` instead sends the bot's own
:class:`~pifecacheta.rules.views.PlayerView` (a small picklable value: never the Match) to a
child process and waits for the answer without holding the GIL:

- ``PIFECACHETA_BOT_PROCESSES`` (default 1) child processes, started on first use with the
  ``spawn`` method (no fork of a threaded server) and lowered to ``nice`` 10, so a busy
  server's own work (people's moves, the pages' updates) wins the CPU over the bots; ``0``
  runs the decision in the calling thread (tests, tools);
- **the budget shrinks with the queue**: a decision asked while ``k`` others wait gets
  ``PIFECACHETA_LUNA_MS / (1 + k)`` (at least Luna's minimum of samples), so at many busy
  tables Luna plays faster and a little weaker instead of falling behind: the processes'
  CPU stays bounded by their number;
- **a child exits when its parent dies**, even when the parent's ``atexit`` never runs
  (SIGKILL, SIGTERM to a server worker, a test harness): a daemon thread in each child
  (:func:`_watch_parent`) waits on multiprocessing's parent sentinel and exits the child
  when it fires; with the children gone, multiprocessing's resource tracker exits too;
- **a parent that exits stops its pool first**, also when it is itself a ``multiprocessing``
  process such as a granian worker, whose exit would otherwise wait for the children
  forever (:func:`_stop_at_exit`).

Only bots that search go through the pool (:data:`SEARCHING`); Carmen and Tito decide in a
millisecond in the caller's thread.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import multiprocessing.util as mp_util
import os
import random
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from pifecacheta.rules.actions import Action
from pifecacheta.rules.views import PlayerView

from . import bot_action, luna

__all__ = ["EXIT_PRIORITY", "SEARCHING", "decide", "exit_with_parent", "processes", "shutdown", "warm_up"]

#: bots whose decisions go to the pool
SEARCHING = frozenset({"Luna"})

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_waiting = 0
_exit_hooked = 0  # the pid of the process whose exit already stops the pool (_stop_at_exit)


def processes() -> int:
    """``PIFECACHETA_BOT_PROCESSES`` (default 1; 0: no pool; bad values: 1)."""
    raw = os.environ.get("PIFECACHETA_BOT_PROCESSES", "1").strip()
    return int(raw) if raw.isdigit() else 1


#: the exit priority of the pool's stop (:func:`_stop_at_exit`): before multiprocessing's
#: queues close theirs (priority 10)
EXIT_PRIORITY = 100

#: seconds between two checks of the parent's pid in a child (:func:`_watch_parent`)
PARENT_CHECK_S = 1.0


def _watch_parent(parent: mp.process.BaseProcess, ppid: int) -> None:
    """In the child, a daemon thread: end this process at once (``os._exit(0)``) when the
    parent process dies.

    It blocks on ``parent``'s sentinel (the read end of the pipe the parent spawned the child
    through; it turns readable when the parent's end closes, i.e. when the parent dies), so it
    wakes without delay and costs no CPU while the parent lives; every
    :data:`PARENT_CHECK_S` it also compares ``os.getppid()`` with ``ppid``, for a parent whose
    end of the pipe is still held by a process it forked. Never returns while the parent
    lives.
    """
    while True:
        parent.join(PARENT_CHECK_S)
        if not parent.is_alive() or os.getppid() != ppid:
            os._exit(0)


def exit_with_parent() -> None:
    """In a child process started by ``multiprocessing``: end it as soon as its parent dies
    (a daemon thread running :func:`_watch_parent`); nothing in a process with no parent."""
    parent = mp.parent_process()
    if parent is not None:
        watcher = threading.Thread(
            target=_watch_parent, args=(parent, parent.pid), name="parent-watch", daemon=True
        )
        watcher.start()


def _child_start() -> None:
    """Pool initializer: the children yield the CPU to the server's own process (``nice``
    10) and exit by themselves when the server dies (:func:`exit_with_parent`)."""
    try:
        os.nice(10)
    except OSError:  # not allowed here: run at the same priority
        pass
    exit_with_parent()


def _run(name: str, view: PlayerView, rng: random.Random, limit: luna.Budget | None) -> Action | None:
    """In the child: the bot's action (Luna with the given budget)."""
    if name == "Luna":
        return luna.choose_action(view, rng=rng, limit=limit)
    return bot_action(name, view, rng)


def _stop_at_exit() -> None:
    """Make this process's own exit stop the pool before anything waits for its children.

    A server worker started by ``multiprocessing`` (granian's workers are forked
    ``multiprocessing`` processes) never runs ``atexit``: when its server stops (SIGTERM),
    multiprocessing's exit joins the process's children, and the pool's children, waiting
    for work nobody will send, would keep it from ever exiting. A multiprocessing finalizer
    with an exit priority runs before that join (and, in a plain process, at its ``atexit``),
    so it stops the pool first; its priority, above the 10 of multiprocessing's queues, runs
    it while the queue that carries the children's stop signal still works. Registered once
    per process, in the process that owns the pool (a forked process starts with no
    finalizers)."""
    global _exit_hooked
    if _exit_hooked != os.getpid():
        mp_util.Finalize(None, shutdown, exitpriority=EXIT_PRIORITY)
        _exit_hooked = os.getpid()


def _pool_now(n: int) -> ProcessPoolExecutor:
    """The pool of ``n`` children, created on first use (call with ``_lock`` held)."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(n, mp_context=mp.get_context("spawn"), initializer=_child_start)
        _stop_at_exit()
    return _pool


def _ready() -> bool:
    """In the child: nothing to do; the import of this module (and of Luna) is the work."""
    return True


def warm_up() -> bool:
    """Start the pool's processes now and wait until each has imported the bots (about a
    second each on this machine), so that the first Luna move of a server does not pay for
    it in front of the players. Blocking: run it in a worker thread. False when there is no
    pool (``PIFECACHETA_BOT_PROCESSES=0``) or a child could not start."""
    n = processes()
    if n <= 0:
        return False
    with _lock:
        pool = _pool_now(n)
    try:
        return all(f.result() for f in [pool.submit(_ready) for _ in range(n)])
    except BrokenProcessPool:
        return False


def shutdown() -> None:
    """Stop the pool's processes (they are started again on the next :func:`decide`)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown)


def decide(name: str, view: PlayerView, rng: random.Random) -> Action | None:
    """The action of bot ``name`` for ``view`` (as :func:`pifecacheta.bots.bot_action`), a
    searching bot's in the pool with a budget that shrinks with the queue (module docstring).
    Blocking: call it from a worker thread, never from the event loop. When a child process
    has died, this decision is made in the calling thread and the next one starts a new pool.

    Raises:
        KeyError: unknown bot name.
    """
    global _pool, _waiting
    n = processes()
    if name not in SEARCHING or n <= 0:
        return bot_action(name, view, rng)
    base = luna.budget()
    with _lock:
        pool = _pool_now(n)
        queued = _waiting
        _waiting += 1
    try:
        limit = base if base.samples is not None else luna.Budget(None, base.ms / (1 + queued / n))
        try:
            return pool.submit(_run, name, view, rng, limit).result()
        except BrokenProcessPool:  # a child died (killed, out of memory): a new pool next time
            with _lock:
                if _pool is pool:
                    _pool = None
            return (
                luna.choose_action(view, rng=rng, limit=limit)
                if name == "Luna"
                else bot_action(name, view, rng)
            )
    finally:
        with _lock:
            _waiting -= 1
