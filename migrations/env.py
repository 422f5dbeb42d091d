"""Alembic environment: target metadata = the SQLModel tables of pifecacheta.models.

URL: a connection passed in ``config.attributes["connection"]`` (``pifecacheta.db.migrate``),
else ``sqlalchemy.url`` if set, else ``pifecacheta.db.database_url()``.
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from pifecacheta import models  # noqa: F401  (registers the tables)
from pifecacheta.db import database_url, make_engine

config = context.config
target_metadata = SQLModel.metadata


def _configure(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=True,  # ALTER TABLE on SQLite
        compare_type=True,
    )


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url") or database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(config.get_main_option("sqlalchemy.url") or database_url())
    with engine.begin() as conn:
        _configure(conn)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
