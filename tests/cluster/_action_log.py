"""The action log's check shared by the cluster tests: no action applied twice."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

TWICE = sa.text(
    "SELECT table_id, version, COUNT(*) FROM action_log GROUP BY table_id, version HAVING COUNT(*) > 1"
)


def applied_twice(conn: sa.Connection) -> list[Any]:
    """Rows ``(table_id, version, count)`` of the versions the action log holds more than once
    (each committed action takes its table's next version, so any row is a double move)."""
    return list(conn.execute(TWICE).all())
