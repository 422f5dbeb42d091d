"""A match replayed from its deal through the action log, and the public history it tells:
the values (:class:`HistoryEvent`, :class:`RoundSummary`, :class:`MatchHistory`), the words of
one engine step (:func:`step_events`, read from two spectator views only), :class:`Replay` and
the replay of a table's matches one after another (:func:`through_matches`).

:class:`~.history.HistoryBook` keeps these per table; ``round_record.py`` replays a match's
deal with :func:`dealt_match`. The kinds of event are listed in ``history.py``'s docstring.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..rules import (
    Card,
    Face,
    IllegalActionError,
    Match,
    Mode,
    PlayerView,
    RoundKey,
    RoundResult,
    apply,
    new_match,
    spectator_view,
)
from ..rules.actions import action_from_dict

log = logging.getLogger(__name__)

KINDS = frozenset(
    {
        "round_start",
        "draw",
        "take",
        "draw_out",
        "take_out",
        "discard",
        "go_out",
        "jump",
        "louca",
        "announce",
        "unannounce",
        "rebuild",
        "out",
        "won",
        "resign",
        "absence",
        "leave",
        "expire",
    }
)
ENGINE_TYPES = frozenset(  # logged types that are engine actions (rules.actions)
    {
        "draw",
        "take_discard",
        "discard",
        "go_out",
        "announce_one_away",
        "next_round",
        "resign",
        "claim_absence",
        "expire",
        "leave_table",
    }
)
MATCH_STARTS = ("start", "rematch")  # service rows that deal a new match


@dataclass(frozen=True)
class HistoryEvent:
    """One public event of a round, in the engine's terms (see the module docstring for the kinds).

    ``seat`` / ``other``: seat numbers (the names are the UI's); ``card`` / ``discard``: public
    cards only; ``at``: when it was committed (aware UTC; for a turn, its last part).
    """

    kind: str
    round_number: int
    at: datetime
    seat: int | None = None
    card: Card | None = None
    discard: Card | None = None
    other: int | None = None


@dataclass(frozen=True)
class RoundSummary:
    """A round that ended with a go-out, as FIM DA RODADA showed it (seed 000 line 68).

    ``result``: winner, its melds and go-out discard, out of turn or not, lives lost per seat;
    ``taken``: the card an out-of-turn winner went out with (None otherwise); ``lives``: per seat
    after the round (all zero in Pife); ``out``: seats FORA after it; ``wilds``: the round's wild
    faces (to mark them in the melds); ``match_number``: which match of the table (1 = the first
    deal, then one more per REVANCHE, seed 000 line 70).
    """

    round_number: int
    at: datetime
    result: RoundResult
    taken: Card | None
    lives: tuple[int, ...]
    out: frozenset[int]
    wilds: frozenset[Face]
    match_number: int = 1


@dataclass(frozen=True)
class MatchHistory:
    """The public history of a table's current match at table version ``version``.

    ``events``: the current round's events, oldest first; ``rounds``: every round of the match
    that ended with a go-out, oldest first (the current one too once it is over); ``past``: the
    newest of the same for the table's earlier matches (before each REVANCHE), oldest first,
    each marked with its ``match_number`` (a match whose log does not replay is left out), at
    most the :class:`HistoryBook`'s ``past_kept``; ``past_older``: how many earlier rounds come
    before ``past`` (read on demand: :meth:`HistoryBook.older_rounds`). Empty before the first
    deal.
    """

    version: int
    round_number: int
    events: tuple[HistoryEvent, ...]
    rounds: tuple[RoundSummary, ...]
    past: tuple[RoundSummary, ...] = ()
    past_older: int = 0


EMPTY = MatchHistory(version=-1, round_number=0, events=(), rounds=())


def step_events(
    before: PlayerView, after: PlayerView, kind: str, seat: int | None, at: datetime
) -> list[HistoryEvent]:
    """The events one engine action (logged type ``kind`` by ``seat``) makes, read from the
    spectator views ``before`` and ``after`` it; a turn's discard or go-out comes back as a
    ``discard`` / ``go_out`` event that :class:`Replay` merges into the turn's draw or take.

    Raises ValueError when a view is not a spectator's (a player's view holds a hand).
    """
    if before.seat is not None or after.seat is not None or before.hand or after.hand:
        raise ValueError("the history is read from spectator views only")
    n = after.round_number
    out: list[HistoryEvent] = []
    if kind == "draw":
        if after.stock_size >= before.stock_size:  # the stock was empty: the lixo became the stock
            out.append(HistoryEvent("rebuild", n, at))
        out.append(HistoryEvent("draw", n, at, seat=seat))
    elif kind == "take_discard":
        out.append(HistoryEvent("take", n, at, seat=seat, card=before.discard_pile[-1]))
    elif kind == "discard":
        res = after.result
        if res is not None and res.out_of_turn:
            card = after.picked_up[res.winner][-1]  # the card jumped on (rules.turns._discard)
            out.append(HistoryEvent("discard", n, at, seat=seat, discard=card))
            jump = "louca" if after.rules.mode is Mode.PIFE else "jump"
            out.append(
                HistoryEvent(jump, n, at, seat=res.winner, card=card, other=seat, discard=res.plan.discard)
            )
        else:
            out.append(HistoryEvent("discard", n, at, seat=seat, discard=after.discard_pile[-1]))
            if seat in before.announced and seat not in after.announced:
                out.append(HistoryEvent("unannounce", n, at, seat=seat))
    elif kind == "go_out" and after.result is not None:
        out.append(HistoryEvent("go_out", n, at, seat=seat, discard=after.result.plan.discard))
    elif kind == "announce_one_away":
        out.append(HistoryEvent("announce", n, at, seat=seat))
    elif kind == "next_round" and after.round_number != before.round_number:
        out.append(HistoryEvent("round_start", n, at, seat=after.dealer, card=after.vira))
    elif kind == "resign":
        out.append(HistoryEvent("resign", n, at, seat=seat))
    elif kind == "claim_absence":
        out.append(HistoryEvent("absence", n, at, seat=seat, other=before.turn))
    elif kind == "leave_table":
        out.append(HistoryEvent("leave", n, at, seat=seat))
    elif kind == "expire":
        out.append(HistoryEvent("expire", n, at))
    if after.rules.mode is Mode.CACHETA and after.round_number == before.round_number:
        out.extend(HistoryEvent("out", n, at, seat=s) for s in sorted(after.out - before.out))
    if before.outcome is None and after.outcome is not None and after.outcome.winner is not None:
        out.append(HistoryEvent("won", n, at, seat=after.outcome.winner))
    return out


def summary_of(view: PlayerView, at: datetime) -> RoundSummary | None:
    """The :class:`RoundSummary` of spectator view ``view`` when its round is over, else None."""
    res = view.result
    if res is None:
        return None
    taken = view.picked_up[res.winner][-1] if res.out_of_turn and view.picked_up[res.winner] else None
    return RoundSummary(view.round_number, at, res, taken, view.lives, view.out, view.wilds)


class Replay:
    """One match replayed from its deal, and the public history it produced so far (mutable;
    :meth:`history` gives an immutable copy).

    Args:
        match: the match just dealt (``new_match`` of the stored rules, seats and seed).
        version: the table version of the row that dealt it; at: when.
        past: the rounds of the table's earlier matches (:attr:`MatchHistory.past`).
        match_number: which match of the table this is (1 for the first deal).
        past_older: how many earlier rounds come before ``past`` (:attr:`MatchHistory.past_older`).
        keep: the most earlier rounds :meth:`closed` carries on (the newest); None: all.
    """

    def __init__(
        self,
        match: Match,
        version: int,
        at: datetime,
        *,
        past: tuple[RoundSummary, ...] = (),
        match_number: int = 1,
        past_older: int = 0,
        keep: int | None = None,
    ) -> None:
        self.match = match
        self.version = version
        self.dealt = version  # the table version of the row that dealt this match
        self.past = past
        self.match_number = match_number
        self.past_older = past_older
        self.keep = keep
        self.view = spectator_view(match)
        self.events: list[HistoryEvent] = [
            HistoryEvent("round_start", match.round_number, at, seat=match.dealer, card=self.view.vira)
        ]
        self.rounds: list[RoundSummary] = []
        self._open: int | None = None  # index of the turn (draw / take) still waiting for its discard

    def feed(self, version: int, seat: int | None, entry: dict[str, Any], at: datetime) -> None:
        """Apply the logged ``entry`` (an action's ``to_dict()``) by ``seat``, committed at
        ``at`` as table version ``version``. Raises IllegalActionError."""
        kind = str(entry.get("type"))
        new = apply(self.match, seat, action_from_dict(entry))
        after = spectator_view(new)
        for ev in step_events(self.view, after, kind, seat, at):
            self._add(ev)
        if self.view.result is None and after.result is not None:
            summary = summary_of(after, at)
            if summary is not None:
                self.rounds.append(replace(summary, match_number=self.match_number))
        self.match, self.view, self.version = new, after, version

    def _add(self, ev: HistoryEvent) -> None:
        if ev.kind == "round_start":
            self.events, self._open = [ev], None
            return
        if ev.kind in ("discard", "go_out"):
            i = self._open
            if i is not None and self.events[i].seat == ev.seat:
                turn = self.events[i]
                kind = turn.kind if ev.kind == "discard" else turn.kind + "_out"
                self.events[i] = replace(turn, kind=kind, discard=ev.discard, at=ev.at)
                self._open = None
                return
            # no draw or take of this turn is known (the history restarted mid-turn): alone
        self.events.append(ev)
        if ev.kind in ("draw", "take"):
            self._open = len(self.events) - 1

    def history(self) -> MatchHistory:
        """The history so far, as immutable values."""
        return MatchHistory(
            self.version,
            self.match.round_number,
            tuple(self.events),
            tuple(self.rounds),
            self.past,
            self.past_older,
        )

    def feed_rows(self, rows: list[tuple[int, int | None, dict[str, Any], datetime]]) -> None:
        """:meth:`feed` each engine row of ``rows`` (version, seat, logged dict, at), in order.
        Raises IllegalActionError, ValueError or IndexError on a log that does not replay."""
        for v, seat, entry, at in rows:
            if entry.get("type") in ENGINE_TYPES:
                self.feed(v, seat, entry, at)
            self.version = v

    def closed(self) -> tuple[tuple[RoundSummary, ...], int, int]:
        """What a REVANCHE's deal carries on: the newest ``keep`` rounds of this match and the
        earlier ones (the next match's ``past``), this match's number, and how many earlier
        rounds come before them (the next ``past_older``)."""
        past, older = self.past + tuple(self.rounds), self.past_older
        if self.keep is not None and len(past) > self.keep:
            older += len(past) - self.keep
            past = past[len(past) - self.keep :]
        return past, self.match_number, older


def dealt_match(
    stored: Match, entries: Sequence[tuple[Any, ...]], starts: Sequence[int], j: int
) -> Match | None:
    """The match dealt by the start or REVANCHE row ``entries[starts[j]]`` (each entry's third
    item the logged dict; ``starts`` the indexes of those rows): the current match (``j`` the
    last) from ``stored``'s seed; an earlier one from the seed the next REVANCHE row logged for
    the match it ended (``ended_seed``, public once that match was over, seed 000 line 70), or
    from the deal row's verifiable key. None when neither is logged (a match ended before
    ``ended_seed`` existed, dealt from an integer seed)."""
    deal = entries[starts[j]][2]
    key = RoundKey.from_dict(deal["key"]) if deal.get("key") is not None else None
    seed = stored.seed if j == len(starts) - 1 else entries[starts[j + 1]][2].get("ended_seed")
    if not isinstance(seed, int) and key is None:
        return None
    return new_match(stored.rules, stored.seats, seed=seed if isinstance(seed, int) else 0, key=key)


def through_matches(
    code: str,
    rp: Replay | None,
    entries: list[tuple[int, int | None, dict[str, Any], datetime]],
    starts: list[int],
    stored: Match,
    keep: int | None,
) -> Replay:
    """The replay of the match dealt by the row ``entries[starts[-1]]`` (``stored``'s), just
    dealt, carrying the newest ``keep`` rounds (None: all) of the matches before it.

    ``rp``: the replay kept of the match the rows before ``starts[0]`` continue (None: the rows
    start at the table's creation). Each earlier match is replayed from its deal row with the
    seed its REVANCHE row logged (``ended_seed``) or its verifiable keys; a match that cannot be
    replayed (a log from before ``ended_seed``) keeps its number and tells no round.
    """
    past: tuple[RoundSummary, ...] = ()
    number = older = 0
    prev = rp
    for j, i in enumerate(starts):
        rows = entries[:i] if j == 0 else entries[starts[j - 1] + 1 : i]
        if prev is not None:
            try:
                prev.feed_rows(rows)
                past, number, older = prev.closed()
            except (IllegalActionError, ValueError, IndexError) as exc:
                log.warning("table %s: match %d does not replay (%r)", code, prev.match_number, exc)
                past, number, older = prev.past, prev.match_number, prev.past_older
        elif j > 0:
            number += 1  # a match dealt by the rows read but not replayable: counted, untold
        v, _, _, at = entries[i]
        m = dealt_match(stored, entries, starts, j)
        prev = (
            None
            if m is None
            else Replay(m, v, at, past=past, match_number=number + 1, past_older=older, keep=keep)
        )
    assert prev is not None  # the last deal replays from the stored match's own seed
    return prev
