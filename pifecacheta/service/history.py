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
from dataclasses import replace
from datetime import datetime

import sqlalchemy as sa

from ..models import ActionLog
from ..rules import IllegalActionError, Match
from .errors import TableNotFound
from .match_replay import (
    EMPTY,
    ENGINE_TYPES,
    KINDS,
    MATCH_STARTS,
    HistoryEvent,
    MatchHistory,
    Replay,
    RoundSummary,
    dealt_match,
    step_events,
    summary_of,
    through_matches,
)
from .store import Store

__all__ = [  # the replay's names, from match_replay.py, for the callers of this module
    "EMPTY",
    "ENGINE_TYPES",
    "KINDS",
    "MATCH_STARTS",
    "HistoryBook",
    "HistoryEvent",
    "MatchHistory",
    "Replay",
    "RoundSummary",
    "dealt_match",
    "step_events",
    "summary_of",
]

log = logging.getLogger(__name__)

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
            rp = through_matches(code, rp, entries, starts, stored, self.past_kept)
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
        every = through_matches(code, None, entries[: starts[-1] + 1], starts, ld.match, None).past
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
