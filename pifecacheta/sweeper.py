"""Background driver: bots' moves, FIM DA RODADA closing by itself, 7-day expiry.

Nothing that must last lives here: deadlines are timestamps in the database and every change
goes through :class:`~pifecacheta.service.TableService` with its version check, so several
workers may run this loop at once (one of two racing bot steps is refused and retried).

Wire it into the Reflex app as a lifespan task::

    app.register_lifespan_task(sweeper_task)

Blocking database work runs in a worker thread (``asyncio.to_thread``), so ``on_change``
listeners fire from that thread.
"""

from __future__ import annotations

import asyncio
import logging
import time

from .service import TableService, get_service

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25  # how often tables with bots are polled
SWEEP_EVERY_SECONDS = 60.0  # how often expiry is checked


def drive_once(service: TableService) -> list[str]:
    """One pass: every table with a bot whose delay has passed gets ONE bot action.

    Returns the codes that changed. Blocking (database + engine): call it from a thread.
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


async def run_sweeper(
    service: TableService | None = None,
    *,
    tick: float = TICK_SECONDS,
    sweep_every: float = SWEEP_EVERY_SECONDS,
    stop: asyncio.Event | None = None,
) -> None:
    """Loop until ``stop`` is set (or the task is cancelled): drive bots every ``tick`` seconds,
    expire idle matches every ``sweep_every`` seconds (``TableService.sweep``)."""
    service = service or get_service()
    last_sweep = float("-inf")
    while stop is None or not stop.is_set():
        try:
            await asyncio.to_thread(drive_once, service)
            if time.monotonic() - last_sweep >= sweep_every:
                last_sweep = time.monotonic()
                await asyncio.to_thread(service.sweep)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sweeper pass failed")
        if stop is None:
            await asyncio.sleep(tick)
        else:
            try:
                await asyncio.wait_for(stop.wait(), timeout=tick)
            except TimeoutError:
                pass


async def sweeper_task() -> None:
    """The lifespan task for ``app.register_lifespan_task``: :func:`run_sweeper` on the
    process-wide service."""
    await run_sweeper(get_service())
