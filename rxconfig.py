"""Reflex configuration: app name, telemetry off, database URL.

The database is a SQLite file (``pifecacheta.db`` in the working directory) unless
``PIFECACHETA_DB_URL`` or ``REFLEX_DB_URL`` names another one, e.g.
``postgresql+psycopg://user:pass@host/pifecacheta`` (install a driver such as ``psycopg[binary]``).
"""

import os

import reflex as rx

config = rx.Config(
    app_name="pifecacheta",
    telemetry_enabled=False,
    disable_plugins=[rx.plugins.SitemapPlugin],  # no sitemap: tables are private invite links
    db_url=os.environ.get("PIFECACHETA_DB_URL")
    or os.environ.get("REFLEX_DB_URL")
    or "sqlite:///pifecacheta.db",
)
