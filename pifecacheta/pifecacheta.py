"""The Reflex app: the lobby at ``/`` and a table at ``/mesa/<code>`` (seed 000 lines 44-75).

A lifespan task runs the service's sweeper every few seconds (expiry after 7 days, seed 000
line 72) and bumps the shared version of every table it changed, so open tabs refresh.
"""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from pifecacheta.pages.lobby import lobby_page
from pifecacheta.pages.table import table_page
from pifecacheta.state.backend import get_service
from pifecacheta.state.lobby import LobbyState
from pifecacheta.state.session import Session
from pifecacheta.state.table import TableState, bump_table

log = logging.getLogger(__name__)
SWEEP_SECONDS = 5.0


async def sweeper(app: rx.App) -> None:
    """Every few seconds: ``service.sweep()`` and refresh the tables it changed."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            svc = get_service()
            if not hasattr(svc, "sweep"):
                continue
            for code in svc.sweep():
                await bump_table(app, code)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - keep sweeping
            log.exception("sweep failed")


app = rx.App(
    theme=rx.theme(appearance="dark", accent_color="amber", radius="medium"),
    head_components=[rx.el.meta(name="viewport", content="width=device-width, initial-scale=1")],
)
app.add_page(lobby_page, route="/", title="Pife ou Cacheta", on_load=[Session.init, LobbyState.load])
app.add_page(table_page, route="/mesa/[code]", title="Pife ou Cacheta · Mesa",
             on_load=[Session.init, TableState.load])
app.register_lifespan_task(sweeper)
