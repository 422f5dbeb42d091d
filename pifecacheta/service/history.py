"""The public history of a table's match: what a spectator saw happen, move by move, and the
result of every round that ended with a go-out.

The source is the action log (``ActionLog``, one row per committed change) replayed through the
engine from the current match's deal (its seed is in the hidden match); the table's earlier
matches, from their own deals (the seed each REVANCHE row logs for the match it ended). Each step is put into
words from two **spectator views** only (:func:`~pifecacheta.rules.spectator_view` before and
after the action): a view holds no hand, no stock order and no seed, so an event can only name a
card that was public at that moment: a discard, the card taken from the lixo (it was the top of
the pile), the card a player jumped the queue with, the vira, and at FIM DA RODADA the winner's
melds (seed 000 line 68). A card drawn from the stock is never named (it is never in a
spectator's view). The values below have no field that could hold anything else.

:class:`HistoryBook` keeps, per table, the replay at the last table version it read and appends
the rows committed since (one read of the new log rows per change); a table read for the first
time in this process is replayed from its deal. Kinds of :class:`HistoryEvent` (``KINDS``):

* ``round_start``: ``seat`` deals, ``card`` the vira (Cacheta) - seed 000 lines 50 and 62;
* ``draw`` / ``take``: ``seat`` drew from the stock / took ``card`` from the lixo, and then
  discarded ``discard`` (None while the turn is on) - line 54;
* ``draw_out`` / ``take_out``: the same, then went out (BATER) discarding ``discard`` (None: with
  ten) - line 56; ``discard`` / ``go_out`` alone only when the turn's start is not known (a
  history restarted mid-turn, see :meth:`HistoryBook._restart`);
* ``jump`` (Cacheta, furar a fila, line 64) / ``louca`` (Pife, line 60): ``seat`` went out out of
  turn with ``card``, discarded by ``other``; ``discard`` its own go-out discard (None: with ten);
* ``announce`` / ``unannounce``: ``seat`` is NA BOA / lost it by its discard - line 64;
* ``rebuild``: the lixo became the stock - line 58;
* ``out``: ``seat`` has no lives left (FORA) - line 66; ``won``: ``seat`` won the match;
* ``resign``, ``absence`` (``seat`` claimed against ``other``), ``leave``, ``expire`` - line 72.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..models import ActionLog
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
from .errors import TableNotFound
from .store import Store

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
DEFAULT_TABLES = 1024  # tables whose history is kept (least recently used dropped)
DEFAULT_PAST_KEPT = 12  # rounds of a table's earlier matches kept (settings.DEFAULT_PAST_ROUNDS)
OLDER_TABLES = 8  # tables whose older rounds (HistoryBook.older_rounds) are kept ...
OLDER_KEPT = 4096  # ... and the most rounds kept of them in all (about 20 MiB)
_LOG = ActionLog.__table__.c  # type: ignore[attr-defined]
_ROWS_AFTER = (  # Core rows of the four columns a replay reads, not ORM objects
    sa.select(_LOG.version, _LOG.seat, _LOG.action_json, _LOG.at)
    .where(_LOG.table_id == sa.bindparam("table_id"), _LOG.version > sa.bindparam("after"))
    .order_by(_LOG.id)
)
_ROWS_THROUGH = (  # the same, from the table's creation through one version (a match's deal)
    sa.select(_LOG.version, _LOG.seat, _LOG.action_json, _LOG.at)
    .where(_LOG.table_id == sa.bindparam("table_id"), _LOG.version <= sa.bindparam("through"))
    .order_by(_LOG.id)
)


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


def _through_matches(
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


class HistoryBook:
    """The public history of each table in use, kept by table code at its last table version.

    :meth:`history` reads only the log rows committed since the kept version (one small query)
    and replays them; a table not kept yet (or whose match was dealt again) is replayed from its
    deal. Thread-safe; one replay per table runs at a time.

    The memory a table holds is bounded: its current match's rounds (the rules end a match
    after a few dozen rounds, seed 000 line 66) and the newest ``past_kept`` rounds of its
    earlier matches; the older ones, which a table playing REVANCHE after REVANCHE for days
    piles up, are read again from the log when a viewer asks (:meth:`older_rounds`).

    Args:
        store: the service's store (reads, and the parsed matches of :class:`~.cache.MatchCache`).
        size: the most tables kept (least recently used dropped first).
        past_kept: the most rounds of a table's earlier matches kept (the newest; at least 1).
    """

    def __init__(self, store: Store, size: int = DEFAULT_TABLES, past_kept: int = DEFAULT_PAST_KEPT) -> None:
        self._store = store
        self.size = size
        self.past_kept = max(int(past_kept), 1)
        self._lock = threading.Lock()
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._kept: dict[str, MatchHistory] = {}
        self._table_locks: dict[str, threading.Lock] = {}
        self._older: OrderedDict[str, tuple[RoundSummary, ...]] = OrderedDict()  # older_rounds
        self._older_lock = threading.Lock()  # one whole-log replay at a time (older_rounds)

    def cached(self, code: str, version: int) -> MatchHistory | None:
        """The kept history of ``code`` if it is at table version ``version`` or later, else None
        (memory only, no database read)."""
        with self._lock:
            h = self._kept.get(code)
        return h if h is not None and h.version >= version else None

    def history(self, code: str) -> MatchHistory:
        """The public history of table ``code`` now. Raises TableNotFound (``table_not_found``)."""
        with self._lock:
            lock = self._table_locks.setdefault(code, threading.Lock())
        with lock:
            try:
                return self._update(code)
            except TableNotFound:
                with self._lock:  # a code that names no table (a forged page) keeps nothing
                    if code not in self._replays:
                        self._table_locks.pop(code, None)
                raise

    def _update(self, code: str) -> MatchHistory:
        store = self._store
        with self._lock:
            rp = self._replays.get(code)
        if rp is not None and (fed := self._feed_own_commit(code, rp)) is not None:
            return fed
        with store.read() as s:
            ld = store.load(s, code, seats=False)
            t = ld.table
            if ld.match is None:  # the lobby, or expired before the start
                return self._keep(code, None, replace(EMPTY, version=t.version))
            if rp is not None and rp.version == t.version:
                return self._keep(code, rp, rp.history())
            after = rp.version if rp is not None else -1
            rows = list(s.connection().execute(_ROWS_AFTER, {"table_id": t.id, "after": after}))
        stored = ld.match
        entries = [(r.version, r.seat, json.loads(r.action_json), r.at) for r in rows]
        starts = [i for i, e in enumerate(entries) if e[2].get("type") in MATCH_STARTS]
        if starts:  # this match's deal is among the rows read: replay from it
            rp = _through_matches(code, rp, entries, starts, stored, self.past_kept)
            entries = entries[starts[-1] + 1 :]
        if rp is None:  # no deal in the log (a table written by hand): nothing to tell
            return self._keep(code, *self._restart(code, stored, t.version, t.last_move_at, "no deal"))
        try:
            rp.feed_rows(entries)
        except (IllegalActionError, ValueError, IndexError) as exc:
            return self._keep(code, *self._restart(code, stored, t.version, t.last_move_at, repr(exc)))
        if rp.match != stored:
            return self._keep(code, *self._restart(code, stored, t.version, t.last_move_at, "differs"))
        rp.version = t.version
        return self._keep(code, rp, rp.history())

    def _feed_own_commit(self, code: str, rp: Replay) -> MatchHistory | None:
        """The history after this process's own latest commit of ``code`` when it is the one
        change after ``rp`` (the usual case: no database read); None otherwise (another
        process wrote, several saves in one transaction, a change without a match)."""
        commit = self._store.commits.get(code)
        if commit is None or commit.version != rp.version + 1 or commit.match is None or commit.entry is None:
            return None
        if commit.entry.get("type") in MATCH_STARTS or commit.at is None:
            return None  # a new deal: the database path replays from it
        try:
            if commit.entry.get("type") in ENGINE_TYPES:
                rp.feed(commit.version, commit.seat, commit.entry, commit.at)
            ok = rp.match == commit.match
        except (IllegalActionError, ValueError, IndexError):
            ok = False
        if not ok:  # forget the replay: the database path replays the match from its deal
            with self._lock:
                self._replays.pop(code, None)
                self._kept.pop(code, None)
            return None
        rp.version = commit.version
        return self._keep(code, rp, rp.history())

    def _restart(
        self, code: str, stored: Match, version: int, at: datetime, why: str
    ) -> tuple[Replay, MatchHistory]:
        """A replay that starts at the stored match with no event: the log does not lead to it
        (only when the hidden match was rewritten outside the service), so nothing is told
        rather than something that did not happen."""
        log.warning("table %s: the action log does not replay to the stored match (%s)", code, why)
        rp = Replay(stored, version, at, keep=self.past_kept)
        rp.events = []
        return rp, rp.history()

    def older_rounds(self, code: str) -> tuple[RoundSummary, ...]:
        """The rounds of table ``code``'s earlier matches that come before the kept ones
        (:attr:`MatchHistory.past`), oldest first: :attr:`MatchHistory.past_older` of them.

        One replay of the table's log from its first deal through the current match's deal,
        kept for the last :data:`OLDER_TABLES` tables asked (:data:`OLDER_KEPT` rounds in all):
        a round, once older, stays so, and the kept ones serve every later ask until a
        REVANCHE makes more rounds older. One such replay runs at a time in the process, so
        asks for long tables hold one worker thread at most. Fewer rounds than ``past_older``
        only when the log does not replay as it did for the kept history (a match rewritten
        outside the service: logged). Raises TableNotFound (``table_not_found``)."""
        h = self.history(code)
        wanted = h.past_older
        if wanted == 0:
            return ()
        with self._older_lock:
            with self._lock:
                kept = self._older.get(code)
                rp = self._replays.get(code)
            if kept is not None and len(kept) >= wanted:
                with self._lock:
                    self._older.move_to_end(code)
                return kept[:wanted]
            if rp is None:
                return ()
            older = self._replay_older(code, rp.dealt, len(h.past))
            if len(older) != wanted:
                log.warning("table %s: %d older rounds replayed, %d counted", code, len(older), wanted)
            older = older[:wanted]
            with self._lock:
                self._older[code] = older
                self._older.move_to_end(code)
                while len(self._older) > OLDER_TABLES or (
                    len(self._older) > 1 and sum(map(len, self._older.values())) > OLDER_KEPT
                ):
                    self._older.popitem(last=False)
            return older

    def _replay_older(self, code: str, dealt: int, kept: int) -> tuple[RoundSummary, ...]:
        """The earlier matches' rounds of ``code`` but the newest ``kept``, replayed from the
        log rows through version ``dealt`` (the current match's deal)."""
        store = self._store
        with store.read() as s:
            ld = store.load(s, code, seats=False)
            if ld.match is None:
                return ()
            rows = list(s.connection().execute(_ROWS_THROUGH, {"table_id": ld.table.id, "through": dealt}))
        entries = [(r.version, r.seat, json.loads(r.action_json), r.at) for r in rows]
        starts = [i for i, e in enumerate(entries) if e[2].get("type") in MATCH_STARTS]
        if len(starts) < 2 or entries[starts[-1]][0] != dealt:  # one match, or dealt again since
            return ()
        every = _through_matches(code, None, entries[: starts[-1] + 1], starts, ld.match, None).past
        return every[: max(len(every) - kept, 0)]

    def _keep(self, code: str, rp: Replay | None, h: MatchHistory) -> MatchHistory:
        with self._lock:
            if rp is None:  # no match (the lobby): nothing worth keeping
                self._replays.pop(code, None)
                self._kept.pop(code, None)
                return h
            self._replays[code] = rp
            self._replays.move_to_end(code)
            self._kept[code] = h
            while len(self._replays) > self.size:
                old, _ = self._replays.popitem(last=False)
                self._kept.pop(old, None)
                self._table_locks.pop(old, None)  # a racing reader makes a new one: same result
        return h
