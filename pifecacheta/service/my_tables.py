"""MINHAS MESAS / MIS MESAS: the tables of one player, for the lobby's list.

Seed 000 line 72: "A mesa fica guardada no site, e ninguém precisa estar conectado ao mesmo
tempo." A player finds again every table they sit at (or sat at and left) or created, plus a
few tables they only watched (the codes their browser remembers). Each row holds plain,
public values only: the game, the seat names, the status, whose turn and when the last move
was. Never a card, the stock or a seed: whose turn comes from the spectator's view.

Order: the tables where it is this player's move (SUA VEZ / TU TURNO: their turn to draw or
discard, or a FIM DA RODADA they may close with PRÓXIMA RODADA, seed 000 line 68) or where
they may end the match by absence (AUSÊNCIA: the seat to play has not moved for more than 48
hours, seed 000 line 72) first, then
the others by their last move, newest first. A finished or expired table whose last move is
older than :data:`KEEP_RECENT` is marked ``old`` (the lobby folds those under a toggle).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import col, or_, select

from ..models import GameTable, Player, Seat, TableStatus
from ..rules import Phase
from .identity import secret_matches
from .match_life import absence_open
from .store import Store
from .values import Identity

KEEP_RECENT = timedelta(days=7)  # finished / expired tables shown unfolded this long after their last move
MAX_TABLES = 60  # at most this many rows (the player's newest tables)
MAX_WATCHED = 5  # the watched codes looked up (the browser keeps the newest first)


PEOPLE_KEPT = 4096  # started tables whose people player_ids keeps in memory


@dataclass(frozen=True)
class MyTable:
    """One row of MINHAS MESAS: plain public values, no cards.

    Attributes:
        code: the invite code (``/mesa/<code>``).
        mode: "pife" or "cacheta"; ``lives``: the starting lives (Cacheta).
        status: "lobby", "playing", "finished" or "expired" (a :class:`TableStatus` text).
        round_over: the round shows FIM DA RODADA (``status`` is "playing").
        seats: the seat names, in seat order; ``bots``: which of them are bots.
        my_seat: this player's seat, or None (creator who is not seated, or a watched table).
        created: this player created the table; ``watched``: listed only as watched.
        turn_seat / turn_name: whose move it is (None / "" outside a round in play).
        my_turn: this player must act: their turn to draw or discard, or a FIM DA RODADA
            they may close (seed 000 line 68).
        absence: this player may end the match with ENCERRAR POR AUSÊNCIA: the seat to play
            has not moved for more than 48 hours (seed 000 line 72).
        winner_name: who won a finished match ("" when none, e.g. expired).
        last_move_at: the table's last move (aware UTC; in the lobby its last join / bots).
        old: finished or expired more than :data:`KEEP_RECENT` ago (folded away).
        round_number: the match's round (0 before it is dealt); ``lives_left``: each seat's
            lives in a Cacheta match (empty in Pife and before the deal): what tells two
            tables of the same friends apart.
    """

    code: str
    mode: str
    lives: int
    status: str
    round_over: bool
    seats: tuple[str, ...]
    bots: tuple[bool, ...]
    my_seat: int | None
    created: bool
    watched: bool
    turn_seat: int | None
    turn_name: str
    my_turn: bool
    winner_name: str
    last_move_at: datetime
    old: bool
    round_number: int = 0
    lives_left: tuple[int, ...] = ()
    absence: bool = False


def _aware(at: datetime) -> datetime:
    """``at`` as an aware UTC datetime (SQLite hands naive ones back)."""
    return at if at.tzinfo else at.replace(tzinfo=UTC)


class MyTables:
    """The read behind MINHAS MESAS, on one :class:`Store` (no writes)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        # the people of started tables: fixed once the match is dealt (seats change only in the
        # waiting room), so the read after each commit is done once per table
        self._people: OrderedDict[str, list[str]] = OrderedDict()
        self._people_lock = threading.Lock()

    def my_tables(self, who: Identity | None, watched: Sequence[str] = ()) -> list[MyTable]:
        """The tables of ``who`` (its secret checked), plus up to :data:`MAX_WATCHED` of the
        ``watched`` codes (unknown codes are skipped), sorted as the module docstring says.
        None, or an identity that does not verify, gets the watched tables only (a forged id
        never lists someone else's tables). At most :data:`MAX_TABLES` rows."""
        store = self._store
        now = store.now()
        watched = [str(c)[:32] for c in watched if c][:MAX_WATCHED]
        with store.read() as s:
            player = s.get(Player, who.player_id) if who is not None and who.player_id else None
            me = (
                player.id
                if player is not None and who is not None and secret_matches(player, who.secret)
                else None
            )
            conds: list[sa.ColumnElement[bool]] = [col(GameTable.code).in_(watched)] if watched else []
            if me is not None:
                mine = select(Seat.table_id).where(Seat.player_id == me)
                conds += [col(GameTable.creator_id) == me, col(GameTable.id).in_(mine)]
            if not conds:
                return []
            tables = list(
                s.exec(
                    select(GameTable)
                    .where(or_(*conds))
                    .order_by(col(GameTable.last_move_at).desc())
                    .limit(MAX_TABLES)
                ).all()
            )
            ids = [t.id for t in tables]
            seats = (
                list(s.exec(select(Seat).where(col(Seat.table_id).in_(ids)).order_by(col(Seat.seat))).all())
                if ids
                else []
            )
        by_table: dict[int, list[Seat]] = {}
        for x in seats:
            by_table.setdefault(x.table_id, []).append(x)
        rows = [self._row(t, by_table.get(t.id or 0, []), me, t.code in watched, now) for t in tables]
        rows.sort(key=lambda r: (not (r.my_turn or r.absence), -r.last_move_at.timestamp()))
        return rows

    def _row(self, t: GameTable, seats: list[Seat], me: str | None, watched: bool, now: datetime) -> MyTable:
        """One :class:`MyTable` from the table row and its seats (whose turn from the
        spectator's view of the cached match: public values only)."""
        mine = next((x for x in seats if me is not None and x.player_id == me), None)
        my_seat = mine.seat if mine is not None else None
        names = {x.seat: x.name for x in seats}
        turn: int | None = None
        round_over = my_turn = absence = False
        winner = ""
        round_number = 0
        lives_left: tuple[int, ...] = ()
        if t.match_json is not None:
            cached = self._store.matches.get(t.code, t.version, t.match_json)
            view = cached.view(None)
            round_number = int(view.round_number)
            lives_left = tuple(int(x) for x in view.lives) if t.mode != "pife" else ()
            if t.status == TableStatus.PLAYING and view.phase in (Phase.DRAW, Phase.DISCARD):
                turn = view.turn
                my_turn = turn is not None and turn == my_seat and not (mine is not None and mine.left)
                if mine is not None and not mine.left:
                    absence = absence_open(cached.match, my_seat, _aware(t.turn_started_at), now)
            elif t.status == TableStatus.PLAYING and view.phase is Phase.ROUND_OVER:
                round_over = True
                my_turn = mine is not None and not mine.left  # anyone of the match, even FORA
            if view.outcome is not None and view.outcome.winner is not None:
                winner = names.get(view.outcome.winner, "")
        last = _aware(t.last_move_at)
        return MyTable(
            code=t.code,
            mode=t.mode,
            lives=t.lives,
            status=str(t.status),
            round_over=round_over,
            seats=tuple(x.name for x in seats),
            bots=tuple(x.bot is not None for x in seats),
            my_seat=my_seat,
            created=me is not None and t.creator_id == me,
            watched=watched and mine is None and not (me is not None and t.creator_id == me),
            turn_seat=turn,
            turn_name=names.get(turn, "") if turn is not None else "",
            my_turn=my_turn,
            winner_name=winner,
            last_move_at=last,
            old=t.status in (TableStatus.FINISHED, TableStatus.EXPIRED) and now - last > KEEP_RECENT,
            round_number=round_number,
            lives_left=lives_left,
            absence=absence,
        )

    def player_ids(self, code: str) -> list[str]:
        """The people of table ``code`` (seated or left, and its creator), for the live feed's
        ``player:<id>`` keys; [] for an unknown table."""
        with self._people_lock:
            kept = self._people.get(code)
        if kept is not None:
            return list(kept)
        with self._store.read() as s:
            t = s.exec(select(GameTable).where(GameTable.code == code)).first()
            if t is None:
                return []
            ids = s.exec(
                select(Seat.player_id).where(Seat.table_id == t.id, sa.not_(col(Seat.player_id).is_(None)))
            ).all()
            started = t.status != TableStatus.LOBBY
        people = sorted({t.creator_id, *(i for i in ids if i)})
        if started:
            with self._people_lock:
                self._people[code] = people
                while len(self._people) > PEOPLE_KEPT:
                    self._people.popitem(last=False)
        return list(people)
