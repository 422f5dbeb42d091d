"""What every viewer's snapshot of one table version shares, and that version derived from the
previous one and this process's own commit of a move, without reading the database again.

A snapshot read (:meth:`.play.Play.snapshots`) reads the table row, its seats, the players'
secret digests, the last chat lines, Dicas and the waiting deal: a :class:`TableRead`. After a
plain move (COMPRAR, PEGAR DO LIXO, a discard, "bati" announced; seed 000 lines 54-56) none of
those change but the row's version, clocks and match, and this process knows them from its own
commit (:class:`~.cache.Committed`, the parsed match in :class:`~.cache.MatchCache`). So the
next read is derived (:func:`derive`) when all of these hold, else the database is read:

* this process is the database's only writer (SQLite: one process, the README's way to run);
* exactly one change notice (:meth:`~.store.Store.notify`) came since the kept read: this
  commit's own, no chat line, seat or deal change in between;
* that commit made the version right after the kept one, with a move of :data:`PLAIN_MOVES`,
  the round the same and still in play before and after;
* the kept digests cover every viewer, no secret was replaced since (Meu acesso), and the
  database was read at most :data:`FRESH` seconds ago (a write that notified nobody shows
  within that time, as in the tabs' snapshot cache).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ..rules import Phase
from .cache import DEFAULT_TABLES, Committed, MatchCache
from .fair_deal import DealInfo, match_deal_info
from .rows import Loaded
from .values import ChatLine

FRESH = 10.0  # seconds a database read is derived from, at most
PLAIN_MOVES = frozenset({"draw", "take_discard", "discard", "announce_one_away"})  # Action.type
_PLAY = (Phase.DRAW, Phase.DISCARD)


@dataclass(frozen=True, slots=True)
class TableRead:
    """One table version as every viewer's snapshot shares it.

    Attributes:
        notice: the table's latest change notice number (:class:`~.cache.ChangeNotices`) taken
            before the database was read (or the notice of the commit it was derived from).
        secrets_replaced: :attr:`~.store.Store.secrets_replaced` taken before the read.
        read_at: monotonic seconds of the database read (kept by a derived read).
        ld: the table row, its seats and match.
        digests: player id -> its secret's digest, for the viewers of the read (None: no such player).
        chat: the last chat lines, oldest first.
        hints: Dicas on.
        deal: the public deal facts.
    """

    notice: int
    secrets_replaced: int
    read_at: float
    ld: Loaded
    digests: dict[str, str | None]
    chat: tuple[ChatLine, ...]
    hints: bool
    deal: DealInfo


def derive(
    kept: TableRead,
    notices: tuple[int, int],
    commit: Committed | None,
    matches: MatchCache,
    secrets_replaced: int,
    ids: Iterable[str],
    now: float,
) -> TableRead | None:
    """The read of the version ``commit`` made, from ``kept`` (the read of the version before),
    or None when it cannot be derived (the module docstring lists when it can).

    ``notices``: the table's ``(previous, latest)`` notice numbers now; ``matches``: the
    store's parsed matches (the committed match and its views are taken from there);
    ``secrets_replaced``: the store's count now; ``ids``: the player ids the snapshots are for;
    ``now``: monotonic seconds.
    """
    prev, last = notices
    if prev != kept.notice or last == kept.notice:
        return None
    if now - kept.read_at > FRESH or secrets_replaced != kept.secrets_replaced:
        return None
    if any(i not in kept.digests for i in ids):
        return None
    t, old = kept.ld.table, kept.ld.match
    if commit is None or commit.version != t.version + 1 or commit.status != t.status:
        return None
    new, entry = commit.match, commit.entry
    if new is None or entry is None or entry.get("type") not in PLAIN_MOVES:
        return None
    if old is None or old.round is None or new.round is None or old.round_number != new.round_number:
        return None
    if old.round.phase not in _PLAY or new.round.phase not in _PLAY:
        return None
    cached = matches.latest(t.code)
    if cached is None or cached.version != commit.version or cached.match is not new:
        return None
    row = replace(
        t,
        version=commit.version,
        match_json=cached.text,
        last_move_at=commit.last_move_at,
        turn_started_at=commit.turn_started_at or t.turn_started_at,
    )
    return replace(kept, notice=last, ld=Loaded(row, kept.ld.seats, new, cached), deal=match_deal_info(new))


class TableReads:
    """The latest :class:`TableRead` of each table in use (bounded LRU, thread-safe).

    Args:
        size: the most tables kept (>= 1).
        clock: monotonic seconds (tests inject one).
    """

    def __init__(self, size: int = DEFAULT_TABLES, clock: Callable[[], float] = time.monotonic) -> None:
        if size < 1:
            raise ValueError("at least one table must be kept")
        self.size = size
        self.clock = clock
        self.derived = 0
        self.read = 0
        self._entries: OrderedDict[str, TableRead] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, code: str) -> TableRead | None:
        """The read kept for ``code``, or None."""
        with self._lock:
            return self._entries.get(code)

    def keep(self, code: str, read: TableRead) -> None:
        """Keep ``read`` as ``code``'s latest, unless one of a later version or a later notice
        is kept already (two racing reads: the newer stays)."""
        with self._lock:
            old = self._entries.get(code)
            if old is not None and (old.ld.table.version, old.notice) > (read.ld.table.version, read.notice):
                return
            self._entries[code] = read
            self._entries.move_to_end(code)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
