"""The bot driver: whose turn a bot has, how long it still waits, and one bot move at a time.

A bot plays through the same version-guarded path as people. Its policy
(``pifecacheta.bots.bot_action``) sees only the bot's own ``player_view``, never the hidden
``Match``. A bot that searches (Luna, ``pifecacheta.bots.offload.SEARCHING``) decides
*before* the write transaction, on a view read in a read transaction, in the bots' child
process (``pifecacheta.bots.offload``: no GIL held by the waiting thread, a lower CPU
priority, a budget that shrinks with the queue); the write transaction then applies that
action only if the table's version is still the one decided on. So a search of ~100 ms never
holds the process's write lock (people's moves at every other table would wait for it) nor
the event loop. The other bots decide before the write transaction too, in the stepping
thread, on the latest match this process kept of the table (``MatchCache.latest``, no read),
and that decision (with the NA BOA after a discard) is used only when the transaction finds
the table at that version; each decision is seeded by (match seed, table version, seat), so
it is the one the bot would have made inside the transaction. When only bots still play a
round, FIM DA RODADA closes by itself (seed 000 line 68): the lowest bot seat still at the
table presses PRÓXIMA RODADA.

The scheduler runs due bot steps in several threads, so that one searching bot's wait for the
child does not hold up the others; but on SQLite the rest of a step (the quick decision and
the write transaction) takes its turn on one gate per driver. Those threads would gain nothing
from running that part side by side (it is Python under the GIL, and the writes take turns on
SQLite's write lock anyway), and each extra runnable thread makes the writer that holds the
write lock wait longer for the GIL after each of its statements, while every other writer
waits for that lock (``pifecacheta.threads`` says more). On PostgreSQL each statement is a
round trip to the server and writers of different tables do not wait for each other, so the
steps still run side by side there.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple, Protocol

from sqlmodel import Session, col, select

from ..bots import bot_action, offload
from ..models import GameTable, Seat, TableStatus
from ..rules import (
    Action,
    AnnounceOneAway,
    Discard,
    IllegalActionError,
    Match,
    Mode,
    NextRound,
    Phase,
    active_seats,
    apply,
    player_view,
)
from .errors import StaleVersion
from .fair_deal import with_key
from .rows import Loaded
from .store import Store, Written

log = logging.getLogger(__name__)


class Planned(NamedTuple):
    """A bot's decision made before the write transaction: at table ``version`` for ``seat``,
    its ``action`` (None: the policy gave nothing) and, for a quick plan, what it would add
    right after a discard (``announce``: NA BOA or None) and the random stream after both
    (``rng``); the searching bots' plans carry neither (``rng`` None)."""

    version: int
    seat: int
    action: Action | None
    announce: Action | None = None
    rng: random.Random | None = None


class RemoteSteps(Protocol):
    """Somewhere else :meth:`BotDriver.step_planned` runs (:class:`.bot_process.BotProcess`)."""

    def step(self, code: str, when_due: bool, searched: Planned | None, driver: BotDriver) -> bool | None:
        """``driver.step_planned`` made there, its commits adopted by ``driver``'s store; None
        when it could not be made there (nothing was adopted: the caller steps here)."""
        ...


class BotDue(NamedTuple):
    """A bot that must act: at ``seat``, either its turn or closing FIM DA RODADA."""

    seat: int
    closes_round: bool


def bot_due(ld: Loaded) -> BotDue | None:
    """The bot that must act at the loaded table now, or None (not playing, no bot, a
    person's turn, match over, or FIM DA RODADA while a person still plays)."""
    return _due(ld.table.status, ld.match, frozenset(x.seat for x in ld.seats if x.bot is not None))


def _due(status: str, m: Match | None, bots: frozenset[int]) -> BotDue | None:
    """:func:`bot_due` of a table in ``status`` with match ``m`` and bot seats ``bots``."""
    if status != TableStatus.PLAYING or m is None or m.round is None or m.round.phase is Phase.MATCH_OVER:
        return None
    if not bots:
        return None
    if m.round.phase is Phase.ROUND_OVER:
        if all(a in bots for a in active_seats(m)):  # seed 000 line 68: only bots still play
            closer = next((b for b in sorted(bots) if b not in m.left), None)
            return None if closer is None else BotDue(closer, closes_round=True)
        return None
    if m.round.turn in bots:
        return BotDue(m.round.turn, closes_round=False)
    return None


class BotSchedule(NamedTuple):
    """When a table's bots act next.

    ``at``: when a bot may act (the service clock's aware UTC time), None when no bot has to
    act now. ``no_bots``: the table left the lobby with no bot seat; seats are fixed once the
    match starts, so no bot ever acts there.
    """

    at: datetime | None
    no_bots: bool


class BotDriver:
    """Drives the bots of every table on one :class:`Store`.

    Attributes:
        bot_delay: seconds a bot waits before its move, counted from the table's last move.
        round_over_delay: seconds before a bots-only FIM DA RODADA closes by itself.
    """

    def __init__(self, store: Store, *, bot_delay: float, round_over_delay: float) -> None:
        self._store = store
        self.bot_delay = bot_delay
        self.round_over_delay = round_over_delay
        # code -> its bot seats, learned from a load once the table left the lobby (seats are
        # fixed from the start of its match on)
        self._bot_seats: OrderedDict[str, frozenset[int]] = OrderedDict()
        self._bot_seats_lock = threading.Lock()
        # codes among those of _bot_seats with a searching bot (Luna) seated
        self._searching: set[str] = set()
        # code -> its bot seats' names (seat -> name), kept beside _bot_seats
        self._bot_names: dict[str, dict[int, str]] = {}
        # on SQLite, one bot step of this process decides and writes at a time (see the module
        # docstring); on PostgreSQL the steps' round trips overlap as before
        sqlite = store.engine.dialect.name == "sqlite"
        self._gate: AbstractContextManager[Any] = threading.Lock() if sqlite else nullcontext()
        # on SQLite a step may start from the row this process's commit kept
        self._knows = sqlite
        # where the steps are made when not here (:mod:`.bot_process`): set by the app
        self.remote: RemoteSteps | None = None

    def pending_bot_delay(self, code: str) -> float | None:
        """Seconds until a bot should act at ``code`` (0 = now), or None when no bot has to act
        (:meth:`bot_due_at` less the clock's now). Raises TableNotFound."""
        now = self._store.now()
        at = self.bot_due_at(code)
        return None if at is None else max(0.0, (at - now).total_seconds())

    def bot_due_at(self, code: str) -> datetime | None:
        """When (the service clock's aware UTC time) a bot may act at ``code``, or None when no
        bot has to act (:meth:`bot_schedule`). Raises TableNotFound."""
        return self.bot_schedule(code).at

    def bot_schedule(self, code: str) -> BotSchedule:
        """When the bots of ``code`` act next, from one read of the table.

        Counts from the last move: ``bot_delay`` for a bot's move, ``round_over_delay`` for
        closing FIM DA RODADA when only bots still play. Raises TableNotFound.
        """
        store = self._store
        with store.read() as s:
            ld = store.load(s, code)
        self._learn_seats(ld)
        no_bots = ld.table.status != TableStatus.LOBBY and all(x.bot is None for x in ld.seats)
        due = bot_due(ld)
        return BotSchedule(None if due is None else self._due_at(ld.table.last_move_at, due), no_bots)

    def schedule_after_commit(self, code: str) -> BotSchedule | None:
        """:meth:`bot_schedule` of ``code`` computed from this process's latest commit of it
        (``Store.commits``) without reading the table, or None when that commit is not enough
        to tell (none kept, it wrote no match, or the table's bot seats are not known yet: then
        call :meth:`bot_schedule`). A hint for the scheduler: another process may have written
        since, which ``bot_step(when_due=True)`` checks in its own transaction."""
        commit = self._store.commits.get(code)
        with self._bot_seats_lock:
            bots = self._bot_seats.get(code)
        if commit is None or commit.match is None or bots is None:
            return None
        due = _due(commit.status, commit.match, bots)
        return BotSchedule(None if due is None else self._due_at(commit.last_move_at, due), not bots)

    def _learn_seats(self, ld: Loaded) -> None:
        """Remember the loaded table's bot seats once it left the lobby (bounded LRU)."""
        if ld.table.status == TableStatus.LOBBY:
            return
        names = {x.seat: x.bot for x in ld.seats if x.bot is not None}
        bots = frozenset(names)
        searching = any(x.bot in offload.SEARCHING for x in ld.seats)
        with self._bot_seats_lock:
            self._bot_seats[ld.table.code] = bots
            self._bot_names[ld.table.code] = names
            if searching:
                self._searching.add(ld.table.code)
            else:
                self._searching.discard(ld.table.code)
            self._bot_seats.move_to_end(ld.table.code)
            while len(self._bot_seats) > self._store.matches.size:
                gone = self._bot_seats.popitem(last=False)[0]
                self._searching.discard(gone)
                self._bot_names.pop(gone, None)

    def _due_at(self, last: datetime, due: BotDue) -> datetime:
        """When the bot ``due`` may act after the table's last move at ``last``: plus the delay."""
        wait = self.round_over_delay if due.closes_round else self.bot_delay
        return (last if last.tzinfo else last.replace(tzinfo=UTC)) + timedelta(seconds=wait)

    def bot_step(self, code: str, *, when_due: bool = False) -> bool:
        """If a bot must act at ``code``, apply ONE bot action through the same checked path as
        people (version-guarded). Returns True if an action was applied, False when no bot
        must act, its policy gives nothing legal, or another writer won the race. Ignores the
        delay unless ``when_due`` (then False, nothing written, while the delay of
        :meth:`bot_due_at` has not passed, checked in the same transaction); otherwise callers
        wait :meth:`pending_bot_delay` first.

        Right after a bot's discard, if it is one card away in Cacheta (``can_announce``), the
        bot is asked once more and may announce NA BOA (seed 000 line 64) in the same
        transaction, as a second logged action (its hand does not change again before its
        next turn). Raises TableNotFound.
        """
        try:
            searched = self._plan(code, when_due)  # Luna thinks in the child, outside the gate
            remote = self.remote
            moved = None if remote is None else remote.step(code, when_due, searched, self)
            lost = remote is not None and moved is None  # the bot process may have committed
            if moved is None:  # no bot process, or it could not answer: here
                moved = self.step_planned(code, when_due, searched)
        except StaleVersion:
            moved = False
        if moved or lost:
            self._store.notify(code)
        return moved

    def now(self) -> datetime:
        """The store's clock's time (aware UTC)."""
        return self._store.now()

    def clock_to(self, clock: Callable[[], datetime]) -> None:
        """Read the time from ``clock`` from now on (the bots' process: the parent's time)."""
        self._store.clock = clock

    def adopt(self, done: Written) -> None:
        """Keep a write transaction committed elsewhere on this database (``done``: a bot step
        of :mod:`.bot_process`) as this store's own (:meth:`.store.Store.adopt`)."""
        self._store.adopt(done)

    def step_planned(self, code: str, when_due: bool, searched: Planned | None) -> bool:
        """The rest of :meth:`bot_step` once a searching bot's decision ``searched`` (None:
        none) is made: the other bots' decision and the write transaction, on the gate; True if
        an action was committed. No listener is told (the caller notifies). Raises
        StaleVersion and TableNotFound."""
        with self._gate:
            return self._step(code, when_due, searched or self._quick_plan(code))

    def _step(self, code: str, when_due: bool, planned: Planned | None) -> bool:
        """The write transaction of :meth:`bot_step` with the decision ``planned`` before it
        (used when the table is still at its version): True if an action was committed.

        On SQLite a step planned on this process's own latest commit of the table starts from
        the row and seats that commit kept (``Store.known``, no read); its guarded save proves
        the row unchanged. Should that step not move (the row moved on, or nothing to play at
        that version), it runs again on the table read. Raises StaleVersion and TableNotFound."""
        store = self._store
        with store.tx() as s:
            known = store.known(code, planned.version) if planned is not None and self._knows else None
            if known is not None:
                try:
                    if self._write(s, known, code, when_due, planned):
                        return True
                except StaleVersion:
                    pass  # nothing written: the guarded save is the step's first write
            return self._write(s, store.load(s, code), code, when_due, planned)

    def _write(self, s: Session, ld: Loaded, code: str, when_due: bool, planned: Planned | None) -> bool:
        """One bot step in the write transaction ``s`` on the table ``ld``: True if an action
        was saved. Raises StaleVersion."""
        store = self._store
        self._learn_seats(ld)
        due = bot_due(ld)
        if due is None or ld.match is None:
            return False
        if when_due and store.now() < self._due_at(ld.table.last_move_at, due):
            return False
        seat, m = due.seat, ld.match
        view = player_view(m, seat) if ld.cached is None else ld.cached.view(seat)
        bot = ld.by_index(seat)
        assert bot is not None and bot.bot is not None
        actor = f"bot:{bot.bot}"
        rng = random.Random(f"{m.seed}:{ld.table.version}:{seat}")
        action: Action | None
        fresh = planned is not None and (planned.version, planned.seat) == (ld.table.version, seat)
        if due.closes_round:
            action = NextRound()
        elif bot.bot in offload.SEARCHING:
            if planned is None or not fresh:
                return False  # the table moved while the bot thought: decide again
            action = planned.action
        elif fresh and planned is not None and planned.rng is not None:
            action, rng = planned.action, planned.rng  # decided before the lock
        else:
            action = bot_action(bot.bot, view, rng)
            planned = None
        if action is None:
            log.warning("bot %s at %s: no action", bot.bot, code)
            return False
        action = with_key(s, ld.table.id, m, action, store.verifiable(), store.people(ld))
        try:
            new = apply(m, seat, action)
        except IllegalActionError as e:
            # the kind of action only: its card is a hidden card of the bot's hand
            log.warning("bot %s at %s: illegal %s (%s)", bot.bot, code, type(action).__name__, e.code)
            return False
        version = store.commit_match(s, ld, new, seat, action, actor)
        if isinstance(action, Discard):
            if fresh and planned is not None and planned.rng is not None:
                if planned.announce is not None:
                    self._announce(s, ld, new, seat, bot.bot, planned.announce, version)
            else:
                self._maybe_announce(s, ld, new, seat, bot.bot, rng, version)
        return True

    def _quick_plan(self, code: str) -> Planned | None:
        """For a bot that does not search, due to play a turn at ``code`` in the latest match
        this process kept (``MatchCache.latest``, no database read): its decision and, after a
        discard, its NA BOA (:meth:`_announce_after`), both seeded as inside the transaction.
        None when nothing is kept, the table's bot names are not known yet, or no such bot
        has a turn there. A hint only: :meth:`bot_step` uses it when its transaction finds the
        table at the same version."""
        entry = self._store.matches.latest(code)
        with self._bot_seats_lock:
            names = self._bot_names.get(code)
        if entry is None or not names:
            return None
        m = entry.match
        due = _due(TableStatus.PLAYING, m, frozenset(names))
        if due is None or due.closes_round or names[due.seat] in offload.SEARCHING:
            return None
        seat, name = due.seat, names[due.seat]
        rng = random.Random(f"{m.seed}:{entry.version}:{seat}")
        action = bot_action(name, entry.view(seat), rng)
        announce = None
        if isinstance(action, Discard):
            try:
                announce = self._announce_after(apply(m, seat, action), seat, name, rng)
            except IllegalActionError:
                announce = None  # refused again, and logged, inside the transaction
        return Planned(entry.version, seat, action, announce, rng)

    def _plan(self, code: str, when_due: bool) -> Planned | None:
        """For a searching bot due at ``code``: its decision at (table version, seat), made on
        a read outside the write transaction (:mod:`pifecacheta.bots.offload`); None when no
        searching bot has to play a turn there now.

        On SQLite the table is the one this process's latest commit of it left
        (``Store.known``), when kept, instead of a read: the write transaction uses the
        decision only if the table is still at that version. A transaction that finds it moved
        on loads the later version, which ends what ``known`` gives, so the next decision is
        made on a read."""
        store = self._store
        with self._bot_seats_lock:
            if code in self._bot_seats and code not in self._searching:
                return None  # seats are fixed once the match started: no Luna here
        commit = store.commits.get(code) if self._knows else None
        ld = None if commit is None else store.known(code, commit.version)
        if ld is None:
            with store.read() as s:
                ld = store.load(s, code)
        self._learn_seats(ld)
        due = bot_due(ld)
        if due is None or due.closes_round or ld.match is None:
            return None
        if when_due and store.now() < self._due_at(ld.table.last_move_at, due):
            return None
        bot = ld.by_index(due.seat)
        if bot is None or bot.bot not in offload.SEARCHING:
            return None
        m = ld.match
        view = player_view(m, due.seat) if ld.cached is None else ld.cached.view(due.seat)
        rng = random.Random(f"{m.seed}:{ld.table.version}:{due.seat}")
        return Planned(ld.table.version, due.seat, offload.decide(bot.bot, view, rng))

    @staticmethod
    def _announce_after(new: Match, seat: int, name: str, rng: random.Random) -> Action | None:
        """After a bot's discard that gave match ``new``: NA BOA when it is Cacheta, the bot may
        announce and its policy does (seed 000 line 64), else None."""
        r = new.round
        if (
            new.rules.mode is not Mode.CACHETA
            or r is None
            or r.phase is not Phase.DRAW
            or seat in r.announced
        ):
            return None
        view = player_view(new, seat)
        if not view.can_announce:
            return None
        extra = bot_action(name, view, rng)
        return extra if isinstance(extra, AnnounceOneAway) else None

    def _maybe_announce(
        self, s: Session, ld: Loaded, new: Match, seat: int, name: str, rng: random.Random, version: int
    ) -> None:
        """After a bot's discard in Cacheta, let it announce NA BOA when it may (seed 000 line 64)."""
        extra = self._announce_after(new, seat, name, rng)
        if extra is not None:
            self._announce(s, ld, new, seat, name, extra, version)

    def _announce(
        self, s: Session, ld: Loaded, new: Match, seat: int, name: str, extra: Action, version: int
    ) -> None:
        """Save the bot's NA BOA ``extra`` after its discard (``new``, table ``version``)."""
        self._store.commit_match(
            s, ld, apply(new, seat, extra), seat, extra, f"bot:{name}", old=new, expected_version=version
        )

    def bot_tables(self) -> list[str]:
        """Codes of tables in play that have a bot seat (the sweeper scans them)."""
        with self._store.read() as s:
            rows = s.exec(
                select(GameTable.code)
                .join(Seat, col(Seat.table_id) == GameTable.id)
                .where(GameTable.status == TableStatus.PLAYING, col(Seat.bot).is_not(None))
                .distinct()
            ).all()
        return list(rows)
