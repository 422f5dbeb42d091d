"""The service's changes on the live feed: every committed change reaches the table's tabs.

An event handler that changes a table publishes the change itself, right after its service
call (so the acting tab gets the new count in its own delta): it makes that call inside
:func:`handler_call`. Every other change - a bot's move, FIM DA RODADA closing by itself,
an expiry, all driven by the sweeper - is published by :func:`publish_service_changes`'s
``service.on_change`` listener, which may be called from a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from pifecacheta.live.feed import LiveFeed

log = logging.getLogger(__name__)

# True while an event handler calls the service: the handler publishes the change itself,
# so the service's on_change listener skips it. ``asyncio.to_thread`` copies it to the thread.
IN_HANDLER: contextvars.ContextVar[bool] = contextvars.ContextVar("pifecacheta_in_handler", default=False)

# True while this process hears a change another process made (``live/cluster.py``): that
# process already published the table and its players' keys on the shared feed.
REMOTE_CHANGE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "pifecacheta_remote_change", default=False
)

RETRY_DELAY = 0.2  # seconds before a failed delivery of a change is tried once more


@contextlib.contextmanager
def handler_call() -> Iterator[None]:
    """Mark the service calls made inside as made by an event handler (which publishes)."""
    token = IN_HANDLER.set(True)
    try:
        yield
    finally:
        IN_HANDLER.reset(token)


@contextlib.contextmanager
def remote_change() -> Iterator[None]:
    """Mark the change listeners called inside as hearing another process's change: neither
    the table nor its players' keys are published again (the other process did)."""
    token, remote = IN_HANDLER.set(True), REMOTE_CHANGE.set(True)
    try:
        yield
    finally:
        REMOTE_CHANGE.reset(remote)
        IN_HANDLER.reset(token)


def is_player_key(code: str) -> bool:
    """True for a lobby tab's key (:func:`player_key`), which names no table."""
    return code.startswith("player:")


class ChangeSource(Protocol):
    """What the link needs of ``TableService``: ``on_change(callback(code))``, the callback
    called after each committed change of a table (chat too), in the committing thread."""

    def on_change(self, callback: Callable[[str], None]) -> None: ...


def publish_service_changes(service: ChangeSource, feed: LiveFeed) -> None:
    """Publish on ``feed`` every change of ``service`` not made inside :func:`handler_call`.

    Must be called on the event loop that runs the pushes (the app's lifespan task); the
    listener hands each change to that loop from whichever thread commits it. A delivery
    that fails (a push raised) is logged and the change published once more after
    ``RETRY_DELAY`` seconds: otherwise every tab would show the table as it was until the
    next change, which on a person's turn does not come (the bots wait for them).
    """
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[None]] = set()  # a reference keeps each running delivery alive

    async def deliver(code: str) -> None:
        await (await feed.apublish(code)).delivered()

    def schedule(code: str, retry: bool = True) -> None:
        task = loop.create_task(deliver(code))
        pending.add(task)
        task.add_done_callback(lambda t: delivered(t, code, retry))

    def delivered(task: asyncio.Task[None], code: str, retry: bool) -> None:
        pending.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        log.error("live update of table %s failed", code, exc_info=task.exception())
        if retry:
            loop.call_later(RETRY_DELAY, schedule, code, False)

    def on_change(code: str) -> None:
        if IN_HANDLER.get():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            schedule(code)
        else:
            loop.call_soon_threadsafe(schedule, code)

    service.on_change(on_change)


def player_key(player_id: str) -> str:
    """The live-feed key a lobby tab watches for its player's tables (MINHAS MESAS):
    ``"player:<id>"`` (the id is not secret; no table code starts with "player:")."""
    return f"player:{player_id}"


def publish_player_changes(
    service: ChangeSource, feed: LiveFeed, people: Callable[[str], Sequence[str]]
) -> None:
    """After every committed change of a table (by a handler too), publish :func:`player_key`
    of each of its people on ``feed``: ``people(code)`` gives their ids (a database read, run
    in a worker thread). Must be called on the event loop that runs the pushes."""
    loop = asyncio.get_running_loop()
    pending: set[asyncio.Task[None]] = set()

    async def deliver(code: str) -> None:
        # one round trip for all the players' keys; the pushes run as tasks, a failure is logged there
        await feed.apublish_many([player_key(p) for p in await asyncio.to_thread(people, code)])

    def done(task: asyncio.Task[None]) -> None:
        pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("live update of the players' lists failed", exc_info=task.exception())

    def schedule(code: str) -> None:
        task = loop.create_task(deliver(code))
        pending.add(task)
        task.add_done_callback(done)

    def on_change(code: str) -> None:
        if REMOTE_CHANGE.get() or is_player_key(code):  # published where it was made / no table
            return
        loop.call_soon_threadsafe(schedule, code)

    service.on_change(on_change)
