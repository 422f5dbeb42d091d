"""The Reflex app: the lobby at ``/`` and a table at ``/mesa/<code>`` (seed 000 lines 44-75).

Two lifespan tasks:
- ``sweeper_task`` (pifecacheta/sweeper.py, backend): plays the bots after their delay, closes
  FIM DA RODADA when only bots still play, expires idle tables.
- ``live_updates``: listens to ``service.on_change`` and pushes every change not made by an
  event handler (which pushes it itself) to the table's open tabs (``state/table.py:
  bump_table``), so every open tab sees bot moves and sweeps within a fraction of a second.
"""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from pifecacheta.components.common import connection_notice
from pifecacheta.components.reflex_private import replace_overlay
from pifecacheta.pages.lobby import lobby_page
from pifecacheta.pages.not_found import not_found_page
from pifecacheta.pages.table import table_page
from pifecacheta.state.backend import get_service
from pifecacheta.state.lobby import LobbyState
from pifecacheta.state.session import Session
from pifecacheta.state.table import IN_HANDLER, TableState, bump_table
from pifecacheta.sweeper import sweeper_task

log = logging.getLogger(__name__)


_pending: set[asyncio.Task[None]] = set()


BUMP_RETRY_DELAY = 0.2  # seconds before a failed version bump is tried once more


async def live_updates(app: rx.App) -> None:
    """Register the service's change listener; it may be called from a worker thread.

    A bump that fails (the change reaches no open tab) is logged and tried once more after
    ``BUMP_RETRY_DELAY`` seconds: otherwise every tab would show the table as it was until the
    next change, which on a person's turn does not come (the bots wait for them).
    """
    loop = asyncio.get_running_loop()

    def schedule(code: str, retry: bool = True) -> None:
        task = loop.create_task(bump_table(app, code))
        _pending.add(task)
        task.add_done_callback(lambda t: _bumped(t, code, retry))

    def _bumped(task: asyncio.Task[None], code: str, retry: bool) -> None:
        _pending.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        log.error("live update of table %s failed", code, exc_info=task.exception())
        if retry:
            loop.call_later(BUMP_RETRY_DELAY, schedule, code, False)

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

    get_service().on_change(on_change)


app = rx.App(  # the theme: rxconfig.py (RadixThemesPlugin)
    head_components=[rx.el.meta(name="viewport", content="width=device-width, initial-scale=1")],
)
# Reflex's default overlay shows an English developer toast while disconnected: ours says it
# in the player's language (components/common.py: connection_notice).
replace_overlay(app, connection_notice)
app.add_page(lobby_page, route="/", title="Pife ou Cacheta", on_load=[Session.init, LobbyState.load])
app.add_page(
    table_page, route="/mesa/[code]", title="Pife ou Cacheta · Mesa", on_load=[Session.init, TableState.load]
)
# Any unknown address: a translated "page not found" with a link to create a table.
app.add_page(not_found_page, route="404", title="Pife ou Cacheta · 404", on_load=[Session.init])
app.register_lifespan_task(live_updates)
app.register_lifespan_task(sweeper_task)
