"""The values the service hands out: who is asking, and what one viewer may see of a table.

All are frozen dataclasses built from the viewer's own projection; none holds the hidden
``Match`` (hands, stock, seed).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..models import TableStatus
from ..rules import PlayerView, Rules
from .fair_deal import NONE as NO_DEAL
from .fair_deal import DealInfo


@dataclass(frozen=True)
class Identity:
    """Who is asking: the player id and secret kept in the browser, and the display name."""

    player_id: str
    secret: str
    name: str


@dataclass(frozen=True)
class SeatInfo:
    """A seat as everyone sees it: ``is_me`` for the viewer's own, ``left`` after SAIR DA MESA."""

    seat: int
    name: str
    is_bot: bool
    is_me: bool
    left: bool


@dataclass(frozen=True)
class ChatLine:
    """One chat message: plain text (the UI escapes it), by ``seat`` named ``name``, at ``at`` (UTC)."""

    seat: int
    name: str
    text: str
    at: datetime


@dataclass(frozen=True)
class TableSnapshot:
    """Everything one viewer may see of a table; built from the viewer's own projection only.

    ``version`` is the table version (``GameTable.version``: every committed change of seats,
    status, match or votes); pass it back as ``act(..., expected_version=...)``.
    ``my_seat`` None = spectator (or a seat that left the table); ``view`` None in the lobby.
    ``chat``: the last 100 lines, oldest first.
    ``absence_claimable``: the viewer may press ENCERRAR POR AUSÊNCIA now (seed 000 line 72).
    ``rematch_votes``: the seats that voted for a rematch.
    ``rematch_offered``: the match ended normally and nobody FORA left (seed 000 line 70).
    ``hints``: the table has Dicas on (a table option chosen at creation, ``TableOptions``).
    ``deal``: the public facts of the verifiable deals (commitments, the seed once revealed).
    """

    code: str
    rules: Rules
    status: TableStatus
    version: int
    creator_seat: int | None
    seats: tuple[SeatInfo, ...]
    my_seat: int | None
    view: PlayerView | None
    chat: tuple[ChatLine, ...]
    absence_claimable: bool
    rematch_votes: frozenset[int]
    rematch_offered: bool
    hints: bool = False
    deal: DealInfo = NO_DEAL
