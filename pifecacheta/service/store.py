"""The storage side of the service: transactions, loading a table, the version-guarded save with
its action-log row, and the ``on_change`` listeners.

Every change is written the same way: inside one write transaction (:meth:`Store.tx`), load
the table (:meth:`Store.load`), check, then :meth:`Store.save`:
``UPDATE game_table ... SET version = expected + 1 WHERE version = expected`` plus one
``action_log`` row. Of two racing writers one wins, the other gets :class:`StaleVersion` and
nothing of its transaction is written. After the commit the caller runs :meth:`Store.notify`.

The parsed match of each table in use is kept in :attr:`Store.matches` (a
:class:`~.cache.MatchCache`): a load parses ``match_json`` only when the row's version or text
differs from the kept one, and a save that carries its ``Match`` puts it there once the
transaction committed. The rows a load returns, the statements and the text of the JSON
columns are in :mod:`.rows`.

A move's save also keeps the whole row and the seats it left (:attr:`Store.commits`), so the
next writer of that table in this process may start from them instead of reading them
(:meth:`Store.known`): its guarded ``UPDATE ... WHERE version = v`` is what proves that the
row is still the one of version ``v``. Every write of ``game_table`` and every write of
``seat`` goes through :meth:`Store.save`, which moves the version on, so a row and seats
kept for version ``v`` are the database's for as long as the row is at ``v``.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlmodel import Session, col, select

from ..models import ActionLog, GameTable, Seat, TableStatus
from ..rules import Action, LeaveTable, Match, NextRound, Phase, new_match
from ..settings import fixed_seed_from_env
from . import fair_deal
from .cache import DEFAULT_TABLES, ChangeNotices, Committed, LastCommits, MatchCache
from .errors import StaleVersion, TableNotFound
from .rows import (
    INSERT_LOG,
    SEATS_OF_TABLE,
    TABLE_BY_CODE,
    TABLE_BY_CODE_TO_WRITE,
    Loaded,
    SeatRow,
    TableRow,
    dump_match,
    guarded_update,
    rules_from_json,
    votes_json,
)

log = logging.getLogger(__name__)

PLAY_PHASES = (Phase.DRAW, Phase.DISCARD)
_WRITING = "pifecacheta.writing"  # Session.info key: the session is a write transaction (tx)
_SAVED = "pifecacheta.saved_matches"  # Session.info key: matches to cache once committed
_COMMITTED = "pifecacheta.commits"  # Session.info key: (code, Committed) to keep once committed
_ROWS = "pifecacheta.rows"  # Session.info key: code -> the row after this transaction's last save
_WRITE_LOCKS: dict[str, threading.RLock] = {}  # database URL -> this process's writers' turn
_WRITE_LOCKS_LOCK = threading.Lock()


#: seconds a writer waits for a write lock shared with another process (Store.share_write_lock)
#: before it takes the holder for dead (a child that died is replaced, and its lock with it,
#: well before: this bounds what no one noticed)
SHARED_LOCK_WAIT_S = 30.0


def write_lock(engine: sa.Engine) -> AbstractContextManager[Any]:
    """The lock this process's write transactions on ``engine``'s database take in turn.

    One per SQLite database URL (other databases: a no-op context). SQLite has one writer: a
    second ``BEGIN IMMEDIATE`` waits in SQLite's busy handler, which sleeps 1 to 100 ms
    between tries, so a writer could sleep long after the lock was free. Queuing this
    process's writers here first wakes the next one when the previous commits; writers in
    other processes still meet the busy timeout. Re-entrant, so a nested transaction in one
    thread behaves as without it.
    """
    if engine.dialect.name != "sqlite":
        return nullcontext()
    key = engine.url.render_as_string(hide_password=False)
    with _WRITE_LOCKS_LOCK:
        lock = _WRITE_LOCKS.get(key)
        if lock is None:
            lock = _WRITE_LOCKS[key] = threading.RLock()
        return lock


def utcnow() -> datetime:
    """The current time, timezone-aware UTC (the default clock)."""
    return datetime.now(UTC)


class Written(NamedTuple):
    """What one committed write transaction saved, in order: ``saved`` its matches
    ``(code, version, match_json, Match)`` and ``committed`` its saves ``(code, Committed)``
    (picklable: a child process's transaction is sent to its parent this way)."""

    saved: tuple[tuple[str, int, str, Match], ...]
    committed: tuple[tuple[str, Committed], ...]


class Store:
    """Transactions, loads and guarded saves on one engine, the clock, the seeds, the listeners.

    Args:
        engine: a SQLAlchemy engine whose schema is migrated (``pifecacheta.db.init_db``).
        clock: returns the current UTC datetime (a naive one is taken as UTC); tests replace
            ``clock`` to jump 48 h / 7 days.
        seed_source: returns each new match's seed; default the integer in env
            ``PIFECACHETA_FIXED_SEED`` (read at each deal; tests only), else
            ``secrets.randbits(63)``.
        cache_tables: how many tables' parsed matches :attr:`matches` keeps.

    Attributes:
        matches: the parsed matches of the tables in use (see the module docstring).
        commits: what this process's latest commit of each table wrote (:class:`~.cache.LastCommits`).
        notices: the numbers of this process's change notices of each table
            (:class:`~.cache.ChangeNotices`), taken by :meth:`notify` before the listeners run.
        secrets_replaced: how many secrets this process replaced (Meu acesso,
            :meth:`secret_replaced`); a reader that kept players' secret digests checks that
            it has not moved.
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        clock: Callable[[], datetime],
        seed_source: Callable[[], int] | None,
        cache_tables: int = DEFAULT_TABLES,
    ) -> None:
        self.engine = engine
        self._read_engine = engine.execution_options(sqlite_begin="DEFERRED")
        self._write_lock: Any = write_lock(engine)
        self._shared = False  # a lock shared with another process (share_write_lock)
        self.clock = clock
        self.seed_source = seed_source
        self.listeners: list[Callable[[str], None]] = []
        self._listeners_lock = threading.Lock()
        self.matches = MatchCache(cache_tables)
        self.commits = LastCommits(cache_tables)
        self.notices = ChangeNotices(cache_tables * 4)
        self.secrets_replaced = 0
        # called with what each write transaction of this store committed, after the commit
        self.on_written: Callable[[Written], None] | None = None

    # --- time and seeds ------------------------------------------------------------------

    def now(self) -> datetime:
        """The clock's time, timezone-aware UTC."""
        now = self.clock()
        return now if now.tzinfo else now.replace(tzinfo=UTC)

    def new_seed(self) -> int:
        """The seed of a new match (see the class docstring)."""
        if self.seed_source is not None:
            return int(self.seed_source())
        fixed = fixed_seed_from_env()
        return secrets.randbits(63) if fixed is None else fixed

    def verifiable(self) -> bool:
        """Whether new deals are verifiable (service/fair_deal.py: not with a ``seed_source`` or
        a fixed seed, unless ``PIFECACHETA_FAIR_DEAL=1``); read at each deal."""
        return fair_deal.verifiable(self.seed_source is not None)

    # --- transactions --------------------------------------------------------------------

    @contextmanager
    def tx(self) -> Iterator[Session]:
        """One write transaction (BEGIN IMMEDIATE on SQLite), committed on success; then the
        matches it saved go to :attr:`matches` and its saves to :attr:`commits`. This process's
        writers take their turn on :func:`write_lock` first (held until the commit or rollback)."""
        with Session(self.engine, expire_on_commit=False, info={_WRITING: True}) as s:
            with self._turn(), s.begin():
                yield s
            done = Written(tuple(s.info.pop(_SAVED, ())), tuple(s.info.pop(_COMMITTED, ())))
            self.adopt(done)
            if self.on_written is not None:
                self.on_written(done)

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """This process's turn to write (:func:`write_lock`). A lock shared with a child
        process (:meth:`share_write_lock`) is waited for at most :data:`SHARED_LOCK_WAIT_S`:
        past that its holder is taken for dead and the write goes on unqueued (SQLite's own
        lock still orders it)."""
        lock = self._write_lock
        if not self._shared:
            with lock:
                yield
            return
        got = lock.acquire(timeout=SHARED_LOCK_WAIT_S)
        if not got:
            log.error("the shared write lock was not free in %.0f s: writing without it", SHARED_LOCK_WAIT_S)
        try:
            yield
        finally:
            if got:
                lock.release()

    def share_write_lock(self, lock: Any) -> None:
        """Take turns to write with ``lock``, a ``multiprocessing`` RLock that a child process
        writing the same SQLite file takes too (:mod:`.bot_process`), instead of this process's
        own lock. Without it the two processes' writers would meet only in SQLite's busy
        handler, which sleeps 1 to 100 ms between tries while the other holds the file."""
        self._write_lock, self._shared = lock, True

    def adopt(self, done: Written) -> None:
        """Keep what a committed write transaction saved (``done``, from this process's
        :meth:`tx` or from a child process's on the same database) as this process's own: its
        parsed matches in :attr:`matches`, its last save of each table in :attr:`commits`."""
        for code, version, text, match in done.saved:
            self.matches.put(code, version, text, match)
        for code, commit in done.committed:
            self.commits.put(code, commit)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """One read transaction (BEGIN DEFERRED on SQLite: no write lock)."""
        with Session(self._read_engine, expire_on_commit=False) as s, s.begin():
            yield s

    def secret_replaced(self) -> None:
        """Count one replaced secret (:attr:`secrets_replaced`), after its commit."""
        with self._listeners_lock:
            self.secrets_replaced += 1

    # --- listeners -----------------------------------------------------------------------

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Register ``callback(code)``, called after each committed change of a table (chat too)."""
        with self._listeners_lock:
            self.listeners.append(callback)

    def off_change(self, callback: Callable[[str], None]) -> None:
        """Unregister ``callback`` (its first registration); nothing when it is not registered."""
        with self._listeners_lock:
            if callback in self.listeners:
                self.listeners.remove(callback)

    def notify(self, code: str) -> None:
        """Number the change (:attr:`notices`), then call every listener with ``code``; one that
        raises is logged and skipped."""
        self.notices.note(code)
        with self._listeners_lock:
            listeners = list(self.listeners)
        for cb in listeners:
            try:
                cb(code)
            except Exception:  # a broken listener must not undo a committed change
                log.exception("on_change listener failed for table %s", code)

    # --- reads and writes ----------------------------------------------------------------

    def load(self, s: Session, code: str, *, seats: bool = True) -> Loaded:
        """The table ``code`` with its seats and match; raises TableNotFound (``table_not_found``).
        ``seats=False`` skips the seats' query (``Loaded.seats`` is then empty): for a reader
        of the table row and its match only.

        In a write transaction (:meth:`tx`) the table's row is read ``FOR UPDATE``: on
        PostgreSQL a second writer of the same table waits there for the first one's commit and
        then loads what it wrote, as SQLite's single writer does (writers of other tables run
        at the same time).
        """
        conn = s.connection()  # Core statements on the session's own transaction
        query = TABLE_BY_CODE_TO_WRITE if s.info.get(_WRITING) else TABLE_BY_CODE
        row = conn.execute(query, {"code": code}).first()
        if row is None:
            raise TableNotFound(f"no table {code!r}")
        t = TableRow(*row)
        rows = [SeatRow(*x) for x in conn.execute(SEATS_OF_TABLE, {"table_id": t.id})] if seats else []
        if t.match_json is None:
            return Loaded(t, rows, None)
        cached = self.matches.get(code, t.version, t.match_json)
        return Loaded(t, rows, cached.match, cached)

    def known(self, code: str, version: int) -> Loaded | None:
        """The table ``code`` at ``version`` as this process's own latest commit left it (row,
        seats and parsed match, no statement), or None when that commit is not of ``version``
        or did not keep them. For a writer that then saves with ``expected_version=version``:
        the guarded save raises StaleVersion when the row moved on since (another process, a
        write not made through this store), and nothing else may be trusted before it. A load
        of a later version keeps that version's match (:attr:`matches`), which ends what this
        gives for the older one: after a stale start, the next writer reads."""
        c = self.commits.get(code)
        if c is None or c.version != version or c.row is None or c.seats is None or c.match is None:
            return None
        cached = self.matches.latest(code)
        if cached is None or cached.version != version or cached.match is not c.match:
            return None
        return Loaded(c.row, list(c.seats), c.match, cached)

    def add_log(
        self,
        s: Session,
        t: TableRow | GameTable,
        version: int,
        entry: dict[str, Any],
        *,
        seat: int | None,
        actor: str,
        at: datetime | None = None,
    ) -> None:
        """Add the action-log row of the change that produced table version ``version``.

        ``entry`` is the engine action's ``to_dict()`` or a service event (``{"type": ...}``);
        ``actor`` is ``player:<id>``, ``bot:<name>`` or ``system``; ``at`` default now.
        """
        assert t.id is not None
        s.connection().execute(  # a plain INSERT: the row is never read back in this transaction
            INSERT_LOG,
            {
                "table_id": t.id,
                "version": version,
                "seat": seat,
                "actor": actor,
                "action_json": json.dumps(entry),
                "at": at or self.now(),
            },
        )

    def save(
        self,
        s: Session,
        t: TableRow,
        expected_version: int,
        entry: dict[str, Any],
        *,
        seat: int | None,
        actor: str,
        match: Match | None = None,
        seats: Sequence[SeatRow] | None = None,
        **values: Any,
    ) -> int:
        """Guarded write of the ``GameTable`` columns ``values``: ``UPDATE ... SET version =
        expected_version + 1 WHERE version = expected_version`` plus one action-log row
        (:meth:`add_log`). ``match``: the match whose dump is ``values["match_json"]``, kept in
        :attr:`matches` once the transaction commits. ``seats``: the table's seats once this
        transaction commits (every seat, as :meth:`load` returns them), when the caller knows
        them: kept with the row for :meth:`known`. Returns the new table version; raises
        StaleVersion (``stale_version``) if another writer won."""
        res = s.connection().execute(
            guarded_update(frozenset(values)),
            {"table_id": t.id, "expected": expected_version, "new_version": expected_version + 1, **values},
        )
        if res.rowcount != 1:
            raise StaleVersion("the table changed: reload and try again")
        at = self.now()
        self.add_log(s, t, expected_version + 1, entry, seat=seat, actor=actor, at=at)
        if match is not None:
            s.info.setdefault(_SAVED, []).append((t.code, expected_version + 1, values["match_json"], match))
        row = self._row_after(s, t, expected_version, values)
        now_seats = None if seats is None or row is None else tuple(seats)
        now_row = row or replace(t, **values)  # the columns this save did not write: as loaded
        commit = Committed(
            expected_version + 1,
            now_row.status,
            now_row.last_move_at,
            match,
            seat,
            dict(entry),
            at,
            now_row.turn_started_at,
            row,
            now_seats,
        )
        s.info.setdefault(_COMMITTED, []).append((t.code, commit))
        return expected_version + 1

    @staticmethod
    def _row_after(s: Session, t: TableRow, expected_version: int, values: dict[str, Any]) -> TableRow | None:
        """The whole ``game_table`` row once ``values`` are saved over version ``expected_version``:
        from this transaction's last save of the table, else from ``t`` when it is of that
        version; None when neither is (then not every column is known)."""
        rows: dict[str, TableRow] = s.info.setdefault(_ROWS, {})
        before = rows.get(t.code)
        if before is None or before.version != expected_version:
            before = t if t.version == expected_version else None
        if before is None:
            rows.pop(t.code, None)
            return None
        row = rows[t.code] = replace(before, version=expected_version + 1, **values)
        return row

    def deal_new_match(
        self, s: Session, ld: Loaded, entry: dict[str, Any], *, seat: int | None, actor: str
    ) -> int:
        """Deal a new match (new seed) to the seated and save it: status ``playing``, both
        clocks restarted, no rematch votes. Used by the first deal (seed 000 line 50) and by a
        rematch (line 70). A verifiable deal takes the committed seed (fair_deal.take_key) and
        logs its key with ``entry``. Returns the new table version."""
        t = ld.table
        now = self.now()
        key = fair_deal.take_key(s, t.id, 1, self.people(ld)) if self.verifiable() else None
        if key is not None:
            entry = {**entry, "key": key.to_dict()}
        match = new_match(rules_from_json(t.rules_json), len(ld.seats), seed=self.new_seed(), key=key)
        return self.save(
            s,
            t,
            t.version,
            entry,
            seat=seat,
            actor=actor,
            status=TableStatus.PLAYING,
            match=match,
            match_json=dump_match(match),
            last_move_at=now,
            turn_started_at=now,
            rematch_json=votes_json(),
        )

    def people(self, ld: Loaded) -> dict[str, int]:
        """The people seated at ``ld`` (not bots, not left): player id -> seat."""
        return {x.player_id: x.seat for x in ld.seats if x.player_id is not None and not x.left}

    def commit_match(
        self,
        s: Session,
        ld: Loaded,
        new: Match,
        seat: int | None,
        action: Action,
        actor: str,
        *,
        old: Match | None = None,
        expected_version: int | None = None,
    ) -> int:
        """Save ``new`` (``action`` by ``seat`` already applied to ``old``, default the loaded
        match) at ``expected_version`` (default the loaded table version), with the bookkeeping:

        * ``last_move_at`` now (the 7-day expiry counts from it);
        * ``turn_started_at`` now when the turn passed or the seat to play moved (48 h absence);
        * status ``finished`` and no rematch votes when the match just ended;
        * the seat marked ``left`` for a ``LeaveTable``;
        * the waiting deal spent by a keyed NextRound, the next one committed
          (fair_deal.open_pending) when the round just ended and a deal can follow.

        Returns the new table version; raises StaleVersion.
        """
        now = self.now()
        t = ld.table
        old = ld.match if old is None else old
        assert old is not None and old.round is not None and new.round is not None
        values: dict[str, Any] = {"match_json": dump_match(new), "last_move_at": now}
        before = (old.round_number, old.round.turn, old.round.phase in PLAY_PHASES)
        after = (new.round_number, new.round.turn, new.round.phase in PLAY_PHASES)
        if before != after or seat == old.round.turn:
            values["turn_started_at"] = now
        if new.round.phase is Phase.MATCH_OVER and old.round.phase is not Phase.MATCH_OVER:
            values["status"] = TableStatus.FINISHED
            values["rematch_json"] = votes_json()
        leaves = isinstance(action, LeaveTable) and seat is not None
        seats = [replace(x, left=True) if leaves and x.seat == seat else x for x in ld.seats] or None
        expected = t.version if expected_version is None else expected_version
        # the guarded save first: a writer that started from a kept row (known) writes nothing
        # before it learns the row moved on
        version = self.save(
            s, t, expected, action.to_dict(), seat=seat, actor=actor, match=new, seats=seats, **values
        )
        if leaves:
            assert t.id is not None
            s.execute(
                sa.update(Seat).where(col(Seat.table_id) == t.id, col(Seat.seat) == seat).values(left=True)
            )
        if isinstance(action, NextRound) and action.key is not None:
            fair_deal.consume(s, t.id)  # its key is the new round's: the commitment is spent
        if fair_deal.deal_follows(old, new) and self.verifiable():
            fair_deal.open_pending(s, t.id, now, new.round_number + 1)
        return version

    def action_log(self, code: str) -> list[dict[str, Any]]:
        """The table's action log in order: dicts with version, seat, actor, action, at."""
        with self.read() as s:
            ld = self.load(s, code)
            rows = s.exec(
                select(ActionLog).where(ActionLog.table_id == ld.table.id).order_by(col(ActionLog.id))
            ).all()
        return [
            {
                "version": r.version,
                "seat": r.seat,
                "actor": r.actor,
                "action": json.loads(r.action_json),
                "at": r.at,
            }
            for r in rows
        ]
