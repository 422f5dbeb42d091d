"""The backend process's garbage collector, set for a server whose objects mostly live long.

CPython's cyclic collector runs its young generation every 700 net allocations and now and
then walks every tracked object. Once the app is loaded, most objects (modules, Reflex's state
classes and compiled pages, SQLAlchemy's metadata) live as long as the process, and at 200
active tables the collector took about 12% of the worker's CPU (``gc.callbacks`` timed with
``time.thread_time``; bench/README.md). :func:`tune_gc` moves what is alive at start-up out of
the collector's sight (``gc.freeze``) and lets the young generation grow to
:data:`GEN0_THRESHOLD` objects before a pass: about 4% then. Cycles are still collected;
memory is bounded as before (the state manager and the caches bound what is kept).

Off with ``PIFECACHETA_GC_TUNING=0`` (e.g. ``bench_load.py --compare-env PIFECACHETA_GC_TUNING=0``).

The same task sets the interpreter's thread switch interval (``sys.setswitchinterval``) to
``PIFECACHETA_SWITCH_MS`` milliseconds (:data:`SWITCH_MS` when unset). Every database call of a
worker thread (a move, a snapshot read, a bot's step) releases the GIL and must get it back;
while the event loop runs Python code, a thread asking for it waits until the holder is asked
to drop it, which CPython does after the switch interval (5 ms by default). A bot step makes
a few dozen such calls, so on a busy server it waited a few dozen intervals.
"""

from __future__ import annotations

import gc
import logging
import os
import sys

log = logging.getLogger(__name__)

GEN0_THRESHOLD = 10_000  # allocations (less deallocations) between two young collections
OLDER_THRESHOLDS = (20, 20)  # young passes per middle pass, middle passes per full pass
SWITCH_MS = 5.0  # ms: CPython's own default thread switch interval


def switch_ms() -> float:
    """``PIFECACHETA_SWITCH_MS`` (milliseconds, > 0 and at most 100), else :data:`SWITCH_MS`."""
    try:
        value = float(os.environ.get("PIFECACHETA_SWITCH_MS", "").strip() or SWITCH_MS)
    except ValueError:
        return SWITCH_MS
    return value if 0 < value <= 100 else SWITCH_MS


def tune_gc(gen0: int = GEN0_THRESHOLD, older: tuple[int, int] = OLDER_THRESHOLDS) -> None:
    """Collect once, freeze every object alive now (``gc.freeze``: never walked again, nor
    freed: call it once the app is loaded) and set the thresholds to ``(gen0, *older)``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(gen0, *older)


async def gc_tuning_task() -> None:
    """The lifespan task for ``app.register_lifespan_task``: the switch interval
    (:func:`switch_ms`), then :func:`tune_gc` once the backend has loaded the app, unless env
    ``PIFECACHETA_GC_TUNING`` is ``0``."""
    sys.setswitchinterval(switch_ms() / 1000)
    if os.environ.get("PIFECACHETA_GC_TUNING", "1").strip() == "0":
        return
    tune_gc()
    log.info("gc: %d objects frozen, thresholds %s", gc.get_freeze_count(), gc.get_threshold())
