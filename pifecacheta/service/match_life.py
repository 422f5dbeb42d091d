"""A match's life beyond single moves: absence, leaving, rematch votes, and 7-day expiry.

Seed 000 line 72: a seat that does not move for more than 48 hours may be declared absent
by another player still in the match (``ClaimAbsence``, "mais de 48 horas sem jogar"); a
table with no move for 7 days expires with no winner ("7 dias sem nenhuma jogada expira").
Seed 000 line 70: at the end of a normally finished match, the players may vote for a
rematch at the same table, unless a FORA player left it (``LeaveTable``).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from ..models import ActionLog, GameTable, TableStatus
from ..rules import (
    Action,
    ClaimAbsence,
    Expire,
    IllegalActionError,
    Match,
    NextRound,
    Phase,
    Termination,
    active_seats,
    apply,
)
from .errors import NotAbsentYet, NotSeated, Refusal, RematchNotOffered
from .identity import verify
from .rows import Loaded, TableRow, read_votes, votes_json
from .store import PLAY_PHASES, Store
from .values import Identity

log = logging.getLogger(__name__)

ABSENCE_AFTER = timedelta(hours=48)  # seed 000 line 72: "mais de 48 horas sem jogar"
EXPIRE_AFTER = timedelta(days=7)  # seed 000 line 72: "7 dias sem nenhuma jogada expira"
NORMAL_END = (Termination.GONE_OUT, Termination.LAST_WITH_LIVES)


def absence_claimable(ld: Loaded, my_seat: int | None, now: datetime) -> bool:
    """True when ``my_seat`` may press ENCERRAR POR AUSÊNCIA at ``now`` at the loaded table
    (:func:`absence_open`)."""
    return absence_open(ld.match, my_seat, ld.table.turn_started_at, now)


def absence_open(match: Match | None, my_seat: int | None, turn_started_at: datetime, now: datetime) -> bool:
    """True when ``my_seat`` may press ENCERRAR POR AUSÊNCIA at ``now``: a round of ``match``
    is in play, another seat is to play and has not moved since ``turn_started_at``, more
    than 48 h ago, and ``my_seat`` is still in the match (FORA players cannot claim; seed 000
    line 72). ``turn_started_at`` and ``now``: aware UTC datetimes."""
    m = match
    if my_seat is None or m is None or m.outcome is not None or m.round is None:
        return False
    if m.round.phase not in PLAY_PHASES or m.round.turn == my_seat:
        return False
    if my_seat not in active_seats(m):
        return False
    return now - turn_started_at > ABSENCE_AFTER


def refuse_early_absence_claim(ld: Loaded, action: Action, now: datetime) -> None:
    """Raise NotAbsentYet (``not_absent_yet``) for a ``ClaimAbsence`` while the seat to play
    has not yet been 48 h without a move (the engine checks everything else)."""
    if isinstance(action, ClaimAbsence) and now - ld.table.turn_started_at <= ABSENCE_AFTER:
        raise NotAbsentYet("the seat to play has 48 hours to move")


def rematch_offered(ld: Loaded) -> bool:
    """Seed 000 line 70: at the end of a normally finished match, unless a FORA player left."""
    m = ld.match
    return (
        m is not None
        and m.outcome is not None
        and m.round is not None
        and m.round.phase is Phase.MATCH_OVER
        and m.outcome.termination in NORMAL_END
        and not m.left
        and not any(x.left for x in ld.seats)
    )


def last_activity(s: Session, t: TableRow) -> datetime:
    """When the table last changed: ``last_move_at`` or its newest action-log row, whichever
    is later."""
    last = s.exec(
        select(ActionLog.at).where(ActionLog.table_id == t.id).order_by(col(ActionLog.id).desc()).limit(1)
    ).first()
    if last is not None and last.tzinfo is None:
        last = last.replace(tzinfo=UTC)
    return t.last_move_at if last is None else max(t.last_move_at, last)


class MatchLife:
    """Rematch votes and the 7-day expiry sweep, on one :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def vote_rematch(self, code: str, who: Identity) -> None:
        """Vote for a rematch; when every human player has voted, a new match (new seed) is
        dealt at the same table with the same seats (seed 000 line 70).

        Raises NotSeated, RematchNotOffered, BadIdentity, TableNotFound, StaleVersion.
        """
        store = self._store
        with store.tx() as s:
            p = verify(s, who)
            ld = store.load(s, code)
            t = ld.table
            mine = ld.seat_of(p.id)
            if mine is None or mine.left:
                raise NotSeated("only the table's players can vote")
            if not rematch_offered(ld):
                raise RematchNotOffered("no rematch for this match")
            votes = read_votes(t) | {mine.seat}
            humans = {x.seat for x in ld.seats if x.player_id is not None}
            actor = f"player:{p.id}"
            if humans <= votes:
                # the ended match's seed, public now that its rounds are over: the history
                # replays that match again from the log (service/history.py, past matches)
                entry: dict[str, Any] = {"type": "rematch"}
                if ld.match is not None:
                    entry["ended_seed"] = ld.match.seed
                store.deal_new_match(s, ld, entry, seat=mine.seat, actor=actor)
            else:
                store.save(
                    s,
                    t,
                    t.version,
                    {"type": "vote_rematch"},
                    seat=mine.seat,
                    actor=actor,
                    rematch_json=votes_json(votes),
                )
        store.notify(code)

    def sweep(self, now: datetime | None = None) -> list[str]:
        """Expire every table with no move for 7 days (seed 000 line 72: "7 dias sem nenhuma
        jogada expira", no winner) through the version-guarded path; returns the codes changed.

        * A match in play (``playing``) ends with the engine's ``Expire`` (``Termination.EXPIRED``,
          status ``finished``); one decided but left at FIM DA RODADA is closed instead.
        * A table never started (``lobby``) whose last activity - creation, a join, bots added -
          is 7 days old gets status ``expired``: nobody can sit, add bots or start any more, and
          its link shows it as expired (not as "not found"). Logged as ``{"type": "expire"}``
          by ``system``.

        Safe to run in several workers (of two racing sweeps one write is refused and skipped).
        """
        store = self._store
        now = now or store.now()
        cutoff = now - EXPIRE_AFTER
        with store.read() as s:
            stale = s.exec(
                select(GameTable.code).where(
                    col(GameTable.status).in_((TableStatus.PLAYING, TableStatus.LOBBY)),
                    col(GameTable.last_move_at) <= cutoff,
                )
            ).all()
        changed = []
        for code in stale:
            try:
                with store.tx() as s:
                    if not self._expire(s, code, now, cutoff):
                        continue
            except (Refusal, IllegalActionError) as e:
                log.info("sweep skipped %s: %s", code, e)
                continue
            changed.append(code)
            store.notify(code)
        return changed

    def _expire(self, s: Session, code: str, now: datetime, cutoff: datetime) -> bool:
        """Expire table ``code`` inside transaction ``s`` if it is still idle since ``cutoff``;
        True when it was written."""
        store = self._store
        ld = store.load(s, code)
        t = ld.table
        if t.status == TableStatus.LOBBY:
            if last_activity(s, t) > cutoff:
                return False
            store.save(
                s,
                t,
                t.version,
                {"type": "expire"},
                seat=None,
                actor="system",
                status=TableStatus.EXPIRED,
                last_move_at=now,
            )
            return True
        if ld.match is None or t.status != TableStatus.PLAYING or t.last_move_at > cutoff:
            return False
        action: Action = Expire()
        seat = None
        if ld.match.outcome is not None:  # decided, left at FIM DA RODADA: close it
            action = NextRound()
            seat = next(x for x in range(ld.match.seats) if x not in ld.match.left)
        store.commit_match(s, ld, apply(ld.match, seat, action), seat, action, "system")
        return True
