"""Reflex configuration: app name, telemetry off, database URL.

The database is a SQLite file, ``.data/pifecacheta.db``, unless
``PIFECACHETA_DB_URL`` or ``REFLEX_DB_URL`` names another one, e.g.
``postgresql+psycopg://user:pass@host/pifecacheta`` (install a driver such as ``psycopg[binary]``).
The SQLite file lives in a hidden folder because ``reflex run`` hot-reloads on changes to the
project root's entries except hidden ones: the ``-wal``/``-shm`` files next to a database in the
root made the dev server restart in a loop.
"""

import os
from pathlib import Path

import reflex as rx

DEFAULT_DB_URL = "sqlite:///.data/pifecacheta.db"
db_url = os.environ.get("PIFECACHETA_DB_URL") or os.environ.get("REFLEX_DB_URL") or DEFAULT_DB_URL
if db_url == DEFAULT_DB_URL:
    Path(".data").mkdir(exist_ok=True)

config = rx.Config(
    app_name="pifecacheta",
    telemetry_enabled=False,
    disable_plugins=[rx.plugins.SitemapPlugin],  # no sitemap: tables are private invite links
    # the look of every page: dark, amber accents (Radix Themes)
    plugins=[
        rx.plugins.RadixThemesPlugin(theme=rx.theme(appearance="dark", accent_color="amber", radius="medium"))
    ],
    db_url=db_url,
)
