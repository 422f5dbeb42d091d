"""Database tables (SQLModel, ``table=True``): the source of truth for every table of play.

Shapes follow docs/SERVICE_API.md. Datetimes are timezone-aware UTC (sqlmodel's UTCDateTime:
SQLite stores them without an offset and they come back as UTC). ``GameTable.match_json``
holds the whole hidden match state (hands, stock order, seed): it never leaves the server; browsers get only
``player_view``/``spectator_view`` projections through ``TableService.snapshot``.
Schema changes need a new alembic revision in ``migrations/versions/``.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


class TableStatus(StrEnum):
    """Where a table is in its life; stored as its text in ``GameTable.status``.

    A member equals its text (``TableStatus.LOBBY == "lobby"``), so a status read back from the
    database compares equal to the member.
    """

    LOBBY = "lobby"
    """Seating: people join, the creator adds bots and starts."""
    PLAYING = "playing"
    """A match runs (FIM DA RODADA included)."""
    FINISHED = "finished"
    """The match is over (its phase is MATCH_OVER); a rematch deals a new one (``playing``)."""
    EXPIRED = "expired"
    """Never started, and 7 days without any activity in the lobby (seed 000 line 72)."""


class Player(SQLModel, table=True):
    """A person without an account: random id + secret kept in the browser, and a display name.

    ``secret_hash`` is the SHA-256 hex digest of the secret (the secret itself is never stored).
    ``retired_hashes``: the digests of the secrets the player replaced (Meu acesso), newest
    first, space-separated, at most 8: a browser still holding one is told its access was
    replaced instead of being made a new player.
    """

    __tablename__ = "player"

    id: str = Field(primary_key=True, max_length=32)  # uuid4 hex
    secret_hash: str = Field(max_length=64)
    name: str = Field(max_length=24)
    created_at: datetime
    retired_hashes: str = Field(default="", sa_type=sa.Text)


class GameTable(SQLModel, table=True):
    """One table of play (mesa), reached by its invite code ``/mesa/<code>``.

    ``status``: a :class:`TableStatus` text (``lobby``, ``playing``, ``finished``, ``expired``).
    ``version`` is the TABLE version: it counts every committed change of the table's seats,
    status, match or rematch votes (not chat lines), from 0 at creation. Every write is
    ``UPDATE ... WHERE version = expected`` so of two racing writers one wins; the browser
    sends it back as ``expected_version``. It is not ``Match.version`` (inside ``match_json``),
    which counts the engine actions applied to the current match from 0 at its deal.
    ``turn_started_at``: when the seat to play last moved or got the turn (48 h absence, seed 000
    line 72); ``last_move_at``: last applied action, or in the lobby the last join / bots added
    (7-day expiry, seed 000 line 72).
    ``rematch_json``: ``{"votes": [seat, ...]}``.
    """

    __tablename__ = "game_table"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=32, sa_column_kwargs={"unique": True}, index=True)
    mode: str = Field(max_length=16)
    lives: int
    rules_json: str = Field(sa_type=sa.Text)
    creator_id: str = Field(max_length=32)
    status: str = Field(max_length=16, index=True)
    match_json: str | None = Field(default=None, sa_type=sa.Text)
    version: int = 0
    created_at: datetime
    last_move_at: datetime
    turn_started_at: datetime
    rematch_json: str = Field(default='{"votes": []}', sa_type=sa.Text)


class TableOptions(SQLModel, table=True):
    """A table's options that are not rules of the game, chosen at creation (one row per table;
    a table without a row has every option off).

    ``hints``: Dicas, hints for beginners shown to each seated player from their own view
    (``state/hints.py``); they change no rule, so they are not in ``GameTable.rules_json``
    (the engine's frozen ``Rules``).
    """

    __tablename__ = "table_options"

    table_id: int = Field(foreign_key="game_table.id", primary_key=True)
    hints: bool = False


class Seat(SQLModel, table=True):
    """A seat (0..3) at a table: a person (``player_id``) or a bot (``bot`` = policy name).

    ``left``: the seat's player left the table (SAIR DA MESA, only when FORA; seed 000 line 72).
    """

    __tablename__ = "seat"
    __table_args__ = (sa.UniqueConstraint("table_id", "seat", name="uq_seat_table_seat"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True)
    seat: int
    player_id: str | None = Field(default=None, max_length=32, index=True)
    bot: str | None = Field(default=None, max_length=16)
    name: str = Field(max_length=24)
    left: bool = False


class ActionLog(SQLModel, table=True):
    """Every applied change, in order: ``version`` is the table version (``GameTable.version``)
    it produced.

    ``seat`` is None for the system (start, rematch, expiry); ``actor`` is ``player:<id>``,
    ``bot:<name>`` or ``system``; ``action_json`` is the engine action's ``to_dict()`` (or a
    service event such as ``{"type": "start"}``).
    """

    __tablename__ = "action_log"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True)
    version: int
    seat: int | None = None
    actor: str = Field(max_length=64)
    action_json: str = Field(sa_type=sa.Text)
    at: datetime


class ChatMessage(SQLModel, table=True):
    """A chat line from a seated player: plain text (1..200 chars), escaped by the UI."""

    __tablename__ = "chat_message"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True)
    seat: int
    name: str = Field(max_length=24)
    text: str = Field(max_length=200)
    at: datetime


class PendingDeal(SQLModel, table=True):
    """The secret seed of a table's next deal, committed before it (service/fair_deal.py).

    One row per table at most: made when the table is created and when a round ends, taken
    (deleted) by the deal, whose key then lives in the hidden match and the action log.
    ``seed_hex``: 32 bytes, secret until the round it deals is over; ``commitment``: SHA-256
    of it (public); ``contributions_json``: ``{"<seat>": "<64 hex>"}``, the seated people's
    browsers' values received so far.
    """

    __tablename__ = "pending_deal"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", sa_column_kwargs={"unique": True}, index=True)
    seed_hex: str = Field(max_length=64)
    commitment: str = Field(max_length=64)
    contributions_json: str = Field(default="{}", sa_type=sa.Text)
    created_at: datetime
