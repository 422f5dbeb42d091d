"""Reflex configuration: app name, telemetry off, database URL.

The database is a SQLite file, ``.data/pifecacheta.db``, unless
``PIFECACHETA_DB_URL`` or ``REFLEX_DB_URL`` names another one, e.g.
``postgresql+psycopg://user:pass@host/pifecacheta`` (psycopg 3 is a dependency; a bare
``postgresql://`` or ``postgres://`` URL is given that driver here, as ``pifecacheta.db`` does,
for Reflex's own use of the URL: its ``/_health`` check and ``reflex db`` commands).
The SQLite file lives in a hidden folder because ``reflex run`` hot-reloads on changes to the
project root's entries except hidden ones: the ``-wal``/``-shm`` files next to a database in the
root made the dev server restart in a loop.

Tab states live in each backend process's memory (``state_manager_mode``) unless
``REFLEX_STATE_MANAGER_MODE`` names another manager, also in a cluster (``REFLEX_REDIS_URL``
set, where Reflex alone would pick its Redis manager). Nothing of a tab's state needs to outlive
its websocket: the database is the truth, and every (re)connect's hydrate re-runs the page's
on_load (``TableState.load``) with the browser's own identity (its localStorage), as for a new
tab. A tab's events arrive over one websocket on one process, and the live feed pushes only to
its own process's tabs (``live/local.py``: ``socket_open``), so no other process ever touches that
state; a tab that reconnects to another process (its own died, or the proxy sent it elsewhere)
starts there from an empty state, as after a restart. Redis still carries what is shared: the
feed, the bot shard and sweeper leases, Reflex's socket records (``RedisTokenManager``, chosen
by the Redis URL alone). ``REFLEX_STATE_MANAGER_MODE=redis`` keeps the tab states in Redis
instead (Reflex's ``StateManagerRedis``: every event and push locks, loads, unpickles, pickles
and saves the tab's state there, about five round trips); it cost 1.2-1.6x the CPU per move on
PostgreSQL + Redis (bench/README.md, session 23). The disk manager (``disk``) pickled and wrote
every tab's state after each event and listed and stat-ed every state file about ten times a
second (a quarter of the server's samples at 200 tables, growing with every tab opened in the
last hour): not for serving.
"""

import os
from pathlib import Path

import reflex as rx

from pifecacheta.reflex_log import init_without_advice, node_warning_once

node_warning_once()  # Reflex 0.10.1 warns of an old Node twice per `reflex run` (pifecacheta/reflex_log.py)
init_without_advice()  # ... and tells to run `uv run reflex run` while it starts on a fresh checkout

DEFAULT_DB_URL = "sqlite:///.data/pifecacheta.db"
db_url = os.environ.get("PIFECACHETA_DB_URL") or os.environ.get("REFLEX_DB_URL") or DEFAULT_DB_URL
if db_url == DEFAULT_DB_URL:
    Path(".data").mkdir(exist_ok=True)
if db_url.startswith(("postgres://", "postgresql://")):  # see pifecacheta.db.engine_url
    db_url = "postgresql+psycopg://" + db_url.split("://", 1)[1]
# memory unless the environment names a mode (then Reflex reads it), with or without a Redis
state_mode: dict[str, rx.constants.StateManagerMode] = (
    {}
    if os.environ.get("REFLEX_STATE_MANAGER_MODE")
    else {"state_manager_mode": rx.constants.StateManagerMode.MEMORY}
)

config = rx.Config(
    app_name="pifecacheta",
    telemetry_enabled=False,
    disable_plugins=[rx.plugins.SitemapPlugin],  # no sitemap: tables are private invite links
    # the look of every page: dark, amber accents (Radix Themes)
    plugins=[
        rx.plugins.RadixThemesPlugin(theme=rx.theme(appearance="dark", accent_color="amber", radius="medium"))
    ],
    db_url=db_url,
    **state_mode,
)
