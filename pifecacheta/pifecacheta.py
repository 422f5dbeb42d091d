"""The Reflex app: the lobby at ``/``, a table at ``/mesa/<code>``, the rules at ``/regras``
and ``/reglas`` (seed 000 lines 44-75).

The lifespan tasks:
- ``background``: the sweeper (pifecacheta/sweeper.py, backend) plays the bots after their
  delay, closes FIM DA RODADA when only bots still play, expires idle tables. With
  ``REFLEX_REDIS_URL`` (``live/cluster.py``) each backend plays the bots of the tables of the
  bot shards it holds (``live/shards.py``, ``PIFECACHETA_BOT_SHARDS``), and the expiry runs in
  the one process holding the cluster's sweeper lease.
- ``live_updates``: builds this process's live feed (``pifecacheta.live``; over Redis with
  ``REFLEX_REDIS_URL``) with the running app and links the service to it, so every open tab
  sees bot moves and sweeps within a fraction of a second (event handlers publish their own
  changes).
- ``gc_tuning_task`` (pifecacheta/gc_tuning.py): the garbage collector set for a server.
- ``service_threads_task`` (pifecacheta/threads.py): how many threads run the pages' service
  calls (two on SQLite).
"""

from __future__ import annotations

import asyncio

import reflex as rx

from pifecacheta import live
from pifecacheta.bots import offload
from pifecacheta.components.common import connection_notice, toaster
from pifecacheta.components.reflex_private import quiet_unknown_events, replace_overlay
from pifecacheta.connlimit import ChurnGuard
from pifecacheta.gc_tuning import gc_tuning_task
from pifecacheta.live.cluster import build_feed, run_background, run_feed
from pifecacheta.live.service_link import publish_player_changes, publish_service_changes
from pifecacheta.pages.access import access_page, enter_page
from pifecacheta.pages.lobby import lobby_page
from pifecacheta.pages.not_found import not_found_page
from pifecacheta.pages.rules import rules_page
from pifecacheta.pages.table import table_page
from pifecacheta.ratelimit import FloodGuard
from pifecacheta.service import get_service
from pifecacheta.state import frames
from pifecacheta.state.access import AccessState
from pifecacheta.state.browser_scripts import LANGUAGE_FROM_BROWSER, UNANSWERED_MOVE_HOOK
from pifecacheta.state.document import DocumentState
from pifecacheta.state.lobby import LobbyState
from pifecacheta.state.malformed import backend_exception_handler
from pifecacheta.state.my_tables import MyTablesState
from pifecacheta.state.rules_page import RulesPageState
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState
from pifecacheta.sweeper import bots_task, sweeper_task, sweeps_task
from pifecacheta.threads import service_threads_task


async def live_updates(app: rx.App) -> None:
    """Install the live feed of ``app`` (:func:`~pifecacheta.live.cluster.build_feed`, pushing
    to ``TableState``) and link the service's committed changes to the snapshot cache and to
    it; then run what the feed needs (a Redis feed's subscriber) until the app stops.

    The cache listens first: a push re-reads the table, and must not be served the snapshot
    from before the change.
    """
    frames.install(app)  # the tabs' state updates written by msgspec (state/frames.py)
    service = get_service()
    service.on_change(CACHE.table_changed)  # cached snapshots of a table are outdated by every change
    feed = live.install(build_feed(app, TableState, service))
    publish_service_changes(service, feed)
    publish_player_changes(service, feed, service.player_ids)  # MINHAS MESAS of each lobby tab
    await run_feed(feed)


async def warm_bot_pool() -> None:
    """Start the bots' child processes while the server starts, not at the first bot move:
    Luna's search (:func:`pifecacheta.bots.offload.warm_up`) and, on a SQLite file, the one
    that makes every bot step (:meth:`~pifecacheta.service.TableService.use_bot_process`)."""
    await asyncio.gather(asyncio.to_thread(offload.warm_up), asyncio.to_thread(get_service().use_bot_process))


async def background() -> None:
    """The sweeper here (one process), or with Redis this backend's share of the bots and,
    while it holds the cluster's sweeper lease, the expiry
    (:func:`~pifecacheta.live.cluster.run_background`)."""
    await run_background(sweeper_task, bots_task, sweeps_task)


app = rx.App(  # the theme: rxconfig.py (RadixThemesPlugin)
    html_lang="pt",  # the default language; DocumentState.sync_language sets the viewer's
    backend_exception_handler=backend_exception_handler,  # a malformed event: a clear refusal
    api_transformer=ChurnGuard,  # an address opening connections in a loop is slowed (connlimit.py)
    toaster=toaster(),  # its region named in the viewer's language (components/common.py)
    # assets/focus.css: the focus ring of every control (WCAG 2.4.7); assets/table.css: the
    # table's layout around the felt on a wide screen and its motion; assets/room.css: the
    # lobby and the waiting room as a card room, the hand shown as its melds
    stylesheets=["/focus.css", "/table.css", "/room.css"],
    head_components=[
        rx.el.meta(name="viewport", content="width=device-width, initial-scale=1"),
        # assets/: the icons and the web app manifest (state/notices.py swaps the icon on your turn)
        rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml"),
        rx.el.link(rel="alternate icon", href="/favicon.ico", sizes="48x48"),
        rx.el.link(rel="apple-touch-icon", href="/icon-192.png"),
        rx.el.link(rel="manifest", href="/manifest.webmanifest"),
        rx.el.meta(name="theme-color", content="#1f6b3a"),
        rx.script(LANGUAGE_FROM_BROWSER),  # the first visit's language: the browser's own list
        rx.script(UNANSWERED_MOVE_HOOK),  # a move sent as the connection dropped (state/unanswered.py)
    ],
)
# Reflex's default overlay shows an English developer toast while disconnected: ours says it
# in the player's language (components/common.py: connection_notice).
replace_overlay(app, connection_notice)
quiet_unknown_events()  # a forged event name: one log line, not a traceback with its payload
app.add_middleware(FloodGuard())  # a tab flooding events is slowed to RATE per second (ratelimit.py)
app.add_page(
    lobby_page,
    route="/",
    title=ViewerState.t["doc.title.lobby"],  # in the viewer's language
    on_load=[ViewerState.init, DocumentState.sync_language, LobbyState.load, MyTablesState.load],
)
app.add_page(
    table_page,
    route="/mesa/[code]",
    title="Pife ou Cacheta · Mesa",
    on_load=[ViewerState.init, DocumentState.sync_language, TableState.load, MyTablesState.remember],
)
# Meu acesso: the personal link (a key) and its QR code; the page that link opens.
app.add_page(
    access_page,
    route="/acesso",
    title=ViewerState.t["doc.title.access"],
    on_load=[ViewerState.init, DocumentState.sync_language, AccessState.load],
)
app.add_page(
    enter_page,
    route="/acesso/entrar",
    title=ViewerState.t["doc.title.access"],
    on_load=[AccessState.enter, DocumentState.sync_language],
)
# The rules (seed 000 / 002 "No Selminha.com"), at a Portuguese and a Spanish address.
for rules_route in ("/regras", "/reglas"):
    app.add_page(
        rules_page,
        route=rules_route,
        title=ViewerState.t["doc.title.rules"],
        on_load=[ViewerState.init, DocumentState.sync_language, RulesPageState.load],
    )
# Any unknown address: a translated "page not found" with a link to create a table.
app.add_page(
    not_found_page,
    route="404",
    title=ViewerState.t["doc.title.not_found"],
    on_load=[ViewerState.init, DocumentState.sync_language],
)
app.register_lifespan_task(live_updates)
app.register_lifespan_task(background)
app.register_lifespan_task(warm_bot_pool)
app.register_lifespan_task(gc_tuning_task)
app.register_lifespan_task(service_threads_task)
