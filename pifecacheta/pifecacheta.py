"""The Reflex app: the lobby at ``/`` and a table at ``/mesa/<code>`` (seed 000 lines 44-75).

Three lifespan tasks:
- ``sweeper_task`` (pifecacheta/sweeper.py, backend): plays the bots after their delay, closes
  FIM DA RODADA when only bots still play, expires idle tables.
- ``live_updates``: builds this process's live feed (``pifecacheta.live``) with the running
  app and links the service to it, so every open tab sees bot moves and sweeps within a
  fraction of a second (event handlers publish their own changes).
- ``gc_tuning_task`` (pifecacheta/gc_tuning.py): the garbage collector set for a server.
"""

from __future__ import annotations

import reflex as rx

from pifecacheta import live
from pifecacheta.components.common import connection_notice
from pifecacheta.components.reflex_private import replace_overlay
from pifecacheta.gc_tuning import gc_tuning_task
from pifecacheta.live.service_link import publish_service_changes
from pifecacheta.pages.lobby import lobby_page
from pifecacheta.pages.not_found import not_found_page
from pifecacheta.pages.table import table_page
from pifecacheta.service import get_service
from pifecacheta.state.lobby import LobbyState
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState
from pifecacheta.sweeper import sweeper_task


async def live_updates(app: rx.App) -> None:
    """Install the live feed of ``app`` (:class:`~pifecacheta.live.LocalFeed` pushing to
    ``TableState``) and link the service's committed changes to the snapshot cache and to it.

    The cache listens first: a push re-reads the table, and must not be served the snapshot
    from before the change.
    """
    service = get_service()
    service.on_change(CACHE.table_changed)  # cached snapshots of a table are outdated by every change
    feed = live.install(live.LocalFeed(app, TableState))
    publish_service_changes(service, feed)


app = rx.App(  # the theme: rxconfig.py (RadixThemesPlugin)
    head_components=[rx.el.meta(name="viewport", content="width=device-width, initial-scale=1")],
)
# Reflex's default overlay shows an English developer toast while disconnected: ours says it
# in the player's language (components/common.py: connection_notice).
replace_overlay(app, connection_notice)
app.add_page(lobby_page, route="/", title="Pife ou Cacheta", on_load=[ViewerState.init, LobbyState.load])
app.add_page(
    table_page,
    route="/mesa/[code]",
    title="Pife ou Cacheta · Mesa",
    on_load=[ViewerState.init, TableState.load],
)
# Any unknown address: a translated "page not found" with a link to create a table.
app.add_page(not_found_page, route="404", title="Pife ou Cacheta · 404", on_load=[ViewerState.init])
app.register_lifespan_task(live_updates)
app.register_lifespan_task(sweeper_task)
app.register_lifespan_task(gc_tuning_task)
