"""The parsed matches of the tables in use, kept in memory beside the database.

The database stays the only truth: :class:`MatchCache` only spares parsing
``GameTable.match_json`` (``json.loads`` + ``Match.from_dict``) on every read. An entry is
used only when the row just read has the same ``version`` AND the same ``match_json`` text as
the entry, so a write by another process (or a rewrite of the column by hand) simply misses.
Entries are written through by :class:`~.store.Store` after each committed save, so the reads
after a change find the match already parsed.

:class:`LastCommits` keeps what this process's latest commit of each table wrote (version,
status, last move, match): the bot scheduler computes a table's next bot move from it right
after the commit instead of reading the table back.

Each entry also keeps the views already computed from its match (``player_view`` per seat,
``spectator_view`` under ``None``): a view depends only on the match, so each is computed once
per committed version, however many tabs and bots read it.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..rules import Match, PlayerView, player_view, spectator_view

if TYPE_CHECKING:
    from .rows import SeatRow, TableRow

DEFAULT_TABLES = 1024  # tables whose current match is kept (least recently used dropped)


@dataclass
class CachedMatch:
    """One table's parsed match at one version.

    Attributes:
        version: the ``GameTable.version`` the match was saved or read at.
        text: the ``GameTable.match_json`` it was parsed from (or dumped to).
        match: the parsed match (immutable; shared by every reader).
        views: views already computed from ``match``: seat -> ``player_view``, None ->
            ``spectator_view``.
    """

    version: int
    text: str
    match: Match
    views: dict[int | None, PlayerView] = field(default_factory=dict)

    def view(self, seat: int | None) -> PlayerView:
        """``player_view(match, seat)``, or ``spectator_view(match)`` for None, computed once.

        Raises ValueError for a seat outside the match (as ``player_view``)."""
        v = self.views.get(seat)
        if v is None:
            v = spectator_view(self.match) if seat is None else player_view(self.match, seat)
            self.views[seat] = v  # two racing readers compute equal values: either is kept
        return v


class MatchCache:
    """A bounded LRU map table code -> :class:`CachedMatch` (one entry per table, its latest
    version). Thread-safe.

    Args:
        size: the most tables kept (>= 1); the least recently used is dropped first.
    """

    def __init__(self, size: int = DEFAULT_TABLES) -> None:
        if size < 1:
            raise ValueError("the cache must hold at least one table")
        self.size = size
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[str, CachedMatch] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, code: str, version: int, text: str) -> CachedMatch:
        """The entry of ``code`` for the row just read (``version``, ``match_json`` ``text``):
        the kept one when both agree, else ``text`` parsed now and kept (unless an entry of a
        later version is kept already: an old read does not push out the newer match).

        Raises whatever ``Match.from_dict`` raises for a malformed text."""
        with self._lock:
            e = self._entries.get(code)
            if e is not None and e.version == version and e.text == text:
                self._entries.move_to_end(code)
                self.hits += 1
                return e
            self.misses += 1
        fresh = CachedMatch(version, text, Match.from_dict(json.loads(text)))
        self._keep(code, fresh)
        return fresh

    def latest(self, code: str) -> CachedMatch | None:
        """The entry kept for ``code`` (its latest version this process saw), or None; no
        database row is compared, so a caller must check its version against the row later."""
        with self._lock:
            return self._entries.get(code)

    def put(self, code: str, version: int, text: str, match: Match) -> None:
        """Keep ``match`` (saved as ``text``) as ``code``'s match at ``version``; called only after
        the save committed."""
        self._keep(code, CachedMatch(version, text, match))

    def drop(self, code: str) -> None:
        """Forget ``code`` (nothing happens when it is not kept)."""
        with self._lock:
            self._entries.pop(code, None)

    def _keep(self, code: str, entry: CachedMatch) -> None:
        with self._lock:
            old = self._entries.get(code)
            if old is not None and old.version > entry.version:
                return
            self._entries[code] = entry
            self._entries.move_to_end(code)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


@dataclass(frozen=True, slots=True)
class Committed:
    """What one committed save of a table wrote, as the rest of the row stood in its transaction.

    Attributes:
        version: the table version the save produced.
        status: ``GameTable.status`` after the save.
        last_move_at: ``GameTable.last_move_at`` after the save (aware UTC, or naive = UTC).
        match: the match saved, or None when the save did not write ``match_json`` (the match
            is then the one of an earlier version: unknown here).
        seat, entry, at: the action-log row the save wrote (its seat, its ``action_json`` as
            a dict, its time), so a reader of this process's own commits need not read it back.
        turn_started_at: ``GameTable.turn_started_at`` after the save (None: not known).
        row: the whole ``game_table`` row after the save (a ``rows.TableRow``), None when the
            save did not know every column of it.
        seats: the table's seats after the save (``rows.SeatRow`` by seat number), None when
            the save was not told them (a save that changed seats without saying so).
    """

    version: int
    status: str
    last_move_at: datetime
    match: Match | None
    seat: int | None = None
    entry: dict[str, Any] | None = None
    at: datetime | None = None
    turn_started_at: datetime | None = None
    row: TableRow | None = None
    seats: tuple[SeatRow, ...] | None = None


class LastCommits:
    """A bounded LRU map table code -> the :class:`Committed` of this process's latest commit of
    that table (a commit of a lower version never replaces a higher one). Thread-safe.

    It is what THIS process wrote: a later write by another process is not in it, so a reader
    uses it as a hint that the database checks again (the bot scheduler's due times, which
    ``bot_step`` checks in its own transaction).

    Args:
        size: the most tables kept (>= 1).
    """

    def __init__(self, size: int = DEFAULT_TABLES) -> None:
        if size < 1:
            raise ValueError("at least one table must be kept")
        self.size = size
        self._entries: OrderedDict[str, Committed] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, code: str) -> Committed | None:
        """The latest commit of ``code`` kept, or None."""
        with self._lock:
            return self._entries.get(code)

    def put(self, code: str, commit: Committed) -> None:
        """Keep ``commit`` as ``code``'s latest (called only after it committed)."""
        with self._lock:
            old = self._entries.get(code)
            if old is not None and old.version > commit.version:
                return
            self._entries[code] = commit
            self._entries.move_to_end(code)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


class ChangeNotices:
    """The sequence numbers of this process's change notices (:meth:`~.store.Store.notify`), per
    table: one counter for the whole process, so a number is never given twice. Thread-safe.

    :meth:`last_two` tells a reader whether exactly one notice came since the one it saw:
    ``prev == seen`` and ``last != seen``.

    Args:
        size: the most tables kept (>= 1); a table dropped reads ``(0, 0)`` until its next
            notice, whose ``prev`` is then 0.
    """

    def __init__(self, size: int = DEFAULT_TABLES) -> None:
        if size < 1:
            raise ValueError("at least one table must be kept")
        self.size = size
        self._seq = 0
        self._entries: OrderedDict[str, tuple[int, int]] = OrderedDict()
        self._lock = threading.Lock()

    def note(self, code: str) -> None:
        """Give table ``code``'s new notice the next number."""
        with self._lock:
            self._seq += 1
            old = self._entries.pop(code, (0, 0))
            self._entries[code] = (old[1], self._seq)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def last_two(self, code: str) -> tuple[int, int]:
        """``(previous, latest)`` notice numbers of ``code``; 0 for none.

        >>> n = ChangeNotices()
        >>> n.last_two("AB12")
        (0, 0)
        >>> n.note("AB12"); n.note("CD34"); n.note("AB12")
        >>> n.last_two("AB12"), n.last_two("CD34")
        ((1, 3), (0, 2))
        """
        with self._lock:
            return self._entries.get(code, (0, 0))
