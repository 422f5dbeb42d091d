"""How many threads run the pages' service calls: the event loop's default executor.

Every page event that reads or writes the database (a move, a table's snapshot, the history,
MINHAS MESAS) runs in a thread through ``asyncio.to_thread``, i.e. in the loop's default
executor (asyncio's own size: ``min(32, CPUs + 4)``, 6 on a 2-core machine).

On SQLite one process's writes take their turn on one lock (``service.store.write_lock``),
and a writer holding it gives up the GIL at each statement and must get it back. With six
executor threads, the bots' threads and the event loop all running Python, a writer waits a
switch interval (5 ms) or more for the GIL after each of its statements, and every other
writer waits behind it: at 200 active tables the lock was held 63% of the time for a median
hold of 1 ms and a p99 of 30 ms, and moves reached the other tabs with a p95 of 0.6-1.4 s
(bench/README.md, "Capacity, sixteenth pass"). More threads add no CPU (the GIL) and no
overlap of waits (SQLite's reads come from the page cache; its writes take turns). So on
SQLite the pool has :data:`SQLITE_THREADS` threads; on PostgreSQL each statement is a round
trip to the server, and asyncio's default size stays.

``PIFECACHETA_SERVICE_THREADS`` (an integer from 1 to 64) sets the size on any database.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from .service import get_service

log = logging.getLogger(__name__)

SQLITE_THREADS = 2  # threads of the default executor on SQLite (see the module docstring)
MAX_THREADS = 64


def service_threads(dialect: str, env: Mapping[str, str] | None = None) -> int | None:
    """The default executor's size for a database of SQLAlchemy ``dialect`` (``"sqlite"``,
    ``"postgresql"``): ``PIFECACHETA_SERVICE_THREADS`` when it is an integer in 1..64, else
    :data:`SQLITE_THREADS` on SQLite, else None (asyncio's own size).

    >>> service_threads("sqlite", {}), service_threads("postgresql", {})
    (2, None)
    >>> service_threads("postgresql", {"PIFECACHETA_SERVICE_THREADS": "8"})
    8
    >>> service_threads("sqlite", {"PIFECACHETA_SERVICE_THREADS": "0"})
    2
    """
    text = (os.environ if env is None else env).get("PIFECACHETA_SERVICE_THREADS", "").strip()
    if text.isdigit() and 1 <= int(text) <= MAX_THREADS:
        return int(text)
    return SQLITE_THREADS if dialect == "sqlite" else None


async def service_threads_task() -> None:
    """The lifespan task for ``app.register_lifespan_task``: give the running loop a default
    executor of :func:`service_threads` threads (named ``service_N``) for the service's
    database; nothing when that is asyncio's own size."""
    size = service_threads(get_service().store.engine.dialect.name)
    if size is None:
        return
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(size, thread_name_prefix="service"))
    log.info("service calls run in %d threads", size)
