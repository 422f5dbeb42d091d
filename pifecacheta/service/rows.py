"""What the store reads and writes, as plain values: the rows of a loaded table, the statements
that read and write them, and the text of the JSON columns.

A load reads Core rows, not ORM objects (a load is read-only, and building the ORM objects cost
as much as the queries themselves): :class:`TableRow` and :class:`SeatRow` take a row's columns
by position, in the order of the ``game_table`` and ``seat`` tables (checked at import).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, fields
from datetime import datetime

import sqlalchemy as sa

from ..models import ActionLog, GameTable, Seat, TableStatus
from ..rules import Match, Mode, Rules
from .cache import CachedMatch
from .errors import TableExpired

# the statements of every load and save, built once (building a statement costs more than running it);
# Core rows, not ORM objects: a load is read-only, and building the ORM objects cost as much as
# the queries themselves
_GAME_TABLE: sa.Table = GameTable.__table__  # type: ignore[attr-defined]
_TABLE_COLS = _GAME_TABLE.c
_SEAT_COLS = Seat.__table__.c  # type: ignore[attr-defined]
TABLE_BY_CODE = sa.select(*_TABLE_COLS).where(_TABLE_COLS.code == sa.bindparam("code"))
# in a write transaction the row is locked till the commit (PostgreSQL; SQLite renders no FOR UPDATE)
TABLE_BY_CODE_TO_WRITE = TABLE_BY_CODE.with_for_update()
SEATS_OF_TABLE = (
    sa.select(*_SEAT_COLS).where(_SEAT_COLS.table_id == sa.bindparam("table_id")).order_by(_SEAT_COLS.seat)
)
INSERT_LOG = sa.insert(ActionLog.__table__)  # type: ignore[attr-defined]  # Core: not the ORM's bulk insert
_UPDATES: dict[frozenset[str], sa.Update] = {}  # the guarded UPDATE of each set of columns written


def guarded_update(columns: frozenset[str]) -> sa.Update:
    """``UPDATE game_table SET version = :new_version, <columns> = :<column> WHERE id = :table_id
    AND version = :expected``, built once per set of columns."""
    stmt = _UPDATES.get(columns)
    if stmt is None:
        stmt = _UPDATES[columns] = (
            sa.update(_GAME_TABLE)
            .where(
                _TABLE_COLS.id == sa.bindparam("table_id"), _TABLE_COLS.version == sa.bindparam("expected")
            )
            .values(version=sa.bindparam("new_version"), **{c: sa.bindparam(c) for c in sorted(columns)})
        )
    return stmt


def rules_to_json(rules: Rules) -> str:
    """The text of ``GameTable.rules_json``: the :class:`Rules` fields, ``mode`` as its text.

    >>> from pifecacheta.rules import PIFE
    >>> rules_from_json(rules_to_json(PIFE)) == PIFE
    True
    """
    return json.dumps(
        {
            f.name: getattr(rules, f.name).value if f.name == "mode" else getattr(rules, f.name)
            for f in fields(rules)
        }
    )


def rules_from_json(text: str) -> Rules:
    """Inverse of :func:`rules_to_json`."""
    d = json.loads(text)
    d["mode"] = Mode(d["mode"])
    return Rules(**d)


def dump_match(m: Match) -> str:
    """The text of ``GameTable.match_json``: the hidden match, compact JSON."""
    return json.dumps(m.to_dict(), separators=(",", ":"))


def votes_json(votes: Iterable[int] = ()) -> str:
    """The text of ``GameTable.rematch_json``: ``{"votes": [seat, ...]}``, seats sorted."""
    return json.dumps({"votes": sorted(votes)})


def read_votes(t: TableRow) -> frozenset[int]:
    """The seats that voted for a rematch at ``t``."""
    return frozenset(int(v) for v in json.loads(t.rematch_json).get("votes", []))


def refuse_expired(t: TableRow) -> None:
    """Raise TableExpired (``table_expired``) for a table that expired in the lobby."""
    if t.status == TableStatus.EXPIRED:
        raise TableExpired("the table expired before its match started")


@dataclass(frozen=True, slots=True)
class TableRow:
    """One ``game_table`` row as read by :meth:`Store.load` (the columns of
    :class:`~pifecacheta.models.GameTable`, same names and types); a plain value, not tied to
    any session, so changing it writes nothing."""

    id: int
    code: str
    mode: str
    lives: int
    rules_json: str
    creator_id: str
    status: str
    match_json: str | None
    version: int
    created_at: datetime
    last_move_at: datetime
    turn_started_at: datetime
    rematch_json: str


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One ``seat`` row as read by :meth:`Store.load` (the columns of
    :class:`~pifecacheta.models.Seat`); a plain value like :class:`TableRow`."""

    id: int
    table_id: int
    seat: int
    player_id: str | None
    bot: str | None
    name: str
    left: bool


assert [f.name for f in fields(TableRow)] == [c.name for c in _TABLE_COLS]  # Core rows map by position
assert [f.name for f in fields(SeatRow)] == [c.name for c in _SEAT_COLS]


@dataclass
class Loaded:
    """A table as read inside one transaction: the row, its seats by seat number, the match
    (None in the lobby) and its cache entry (None in the lobby)."""

    table: TableRow
    seats: list[SeatRow]
    match: Match | None
    cached: CachedMatch | None = None

    def seat_of(self, player_id: str) -> SeatRow | None:
        """The seat of ``player_id`` (left or not), or None."""
        return next((s for s in self.seats if s.player_id == player_id), None)

    def by_index(self, seat: int) -> SeatRow | None:
        """The seat numbered ``seat`` (0..3), or None when empty."""
        return next((s for s in self.seats if s.seat == seat), None)
