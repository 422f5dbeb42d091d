"""The application service: every change to a table goes through :class:`TableService`.

Whoever asks (a click, a bot, the sweeper), a change is done the same way
(docs/SERVICE_API.md): load the table row, check the caller may act and that the table
version matches, apply the rules engine, then write the new state + one action-log row + the
new version in ONE transaction (of two racing writers one wins, the other gets
:class:`StaleVersion`), and finally notify the ``on_change`` listeners with the table code. A
refused change writes nothing.

Browsers and bots only ever get ``player_view``/``spectator_view`` projections (via
:meth:`TableService.snapshot`); the hidden ``Match`` (hands, stock, seed) stays in the database.

The package, one module per job:

* ``errors``: :class:`Refusal` and one subclass per refusal code;
* ``values``: :class:`Identity`, :class:`SeatInfo`, :class:`ChatLine`, :class:`TableSnapshot`;
* ``store``: transactions, loading a table, the guarded save + action log, listeners;
* ``cache``: the parsed match and views of each table in use, checked against the row;
* ``identity``: secrets, names, :func:`identify`;
* ``lobby``: create, join, add bots, leave or remove a seat, start;
* ``my_tables``: a player's tables for the lobby (MINHAS MESAS), plain values;
* ``play``: moves and snapshots;
* ``match_life``: absence, rematch votes, 7-day expiry;
* ``bots``: the bot driver (what a bot plays, when it is due);
* ``chat``: the table chat;
* ``history``: the public history of a match (events in words, past rounds).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ..models import TableStatus
from ..rules import Action, Rules
from ..settings import DEFAULT_BOT_DELAY, DEFAULT_ROUND_OVER_DELAY, Settings
from . import bot_process
from .bots import BotDriver, BotSchedule
from .chat import CHAT_MAX, CHAT_RATE_COUNT, CHAT_RATE_WINDOW, Chat
from .errors import (
    REFUSAL_CODES,
    AccessReplaced,
    AlreadyStarted,
    BadBot,
    BadIdentity,
    BadName,
    BadRules,
    ChatEmpty,
    ChatRateLimited,
    ChatTooLong,
    CreatorStays,
    NeedTwoPlayers,
    NotAbsentYet,
    NotCreator,
    NotSeated,
    NotStarted,
    Refusal,
    RematchNotOffered,
    SeatNotFound,
    SpectatorCannotChat,
    StaleVersion,
    TableExpired,
    TableFull,
    TableNotFound,
)
from .history import HistoryBook, HistoryEvent, MatchHistory, RoundSummary
from .identity import NAME_MAX, clean_name, distinct_name, identify, recognise, replace_secret
from .lobby import BOT_NAMES, HOUSE_RULES, MAX_SEATS, WILD_RULES, Lobby, house_rules_for, house_rules_on
from .match_life import ABSENCE_AFTER, EXPIRE_AFTER, MatchLife
from .my_tables import KEEP_RECENT, MyTable, MyTables
from .play import CHAT_HISTORY, Play
from .round_record import ReplayStep, RoundRecords
from .rows import rules_from_json, rules_to_json
from .store import Store, utcnow
from .values import ChatLine, Identity, SeatInfo, TableSnapshot

__all__ = [
    "ReplayStep",
    "ABSENCE_AFTER",
    "BOT_NAMES",
    "CHAT_HISTORY",
    "HOUSE_RULES",
    "WILD_RULES",
    "house_rules_for",
    "house_rules_on",
    "CHAT_MAX",
    "CHAT_RATE_COUNT",
    "CHAT_RATE_WINDOW",
    "DEFAULT_BOT_DELAY",
    "DEFAULT_ROUND_OVER_DELAY",
    "EXPIRE_AFTER",
    "MAX_SEATS",
    "NAME_MAX",
    "REFUSAL_CODES",
    "AlreadyStarted",
    "BadBot",
    "AccessReplaced",
    "BadIdentity",
    "BadName",
    "BadRules",
    "BotSchedule",
    "ChatEmpty",
    "ChatLine",
    "ChatRateLimited",
    "ChatTooLong",
    "CreatorStays",
    "HistoryEvent",
    "Identity",
    "KEEP_RECENT",
    "MatchHistory",
    "MyTable",
    "NeedTwoPlayers",
    "NotAbsentYet",
    "NotCreator",
    "NotSeated",
    "NotStarted",
    "Refusal",
    "RematchNotOffered",
    "RoundSummary",
    "SeatInfo",
    "SeatNotFound",
    "SpectatorCannotChat",
    "StaleVersion",
    "TableExpired",
    "TableFull",
    "TableNotFound",
    "TableService",
    "TableSnapshot",
    "TableStatus",
    "clean_name",
    "distinct_name",
    "get_service",
    "rules_from_json",
    "rules_to_json",
    "utcnow",
]


class TableService:
    """All reads and changes of tables, seats, matches, chat and the action log.

    A facade over one :class:`~pifecacheta.service.store.Store` shared by the parts that do
    the work: :class:`~.lobby.Lobby`, :class:`~.play.Play`, :class:`~.match_life.MatchLife`,
    :class:`~.bots.BotDriver` and :class:`~.chat.Chat`.

    Args:
        engine: a SQLAlchemy engine whose schema is migrated (``pifecacheta.db.init_db``).
        clock: returns the current aware UTC datetime; tests inject one to jump 48 h / 7 days.
        seed_source: returns each new match's seed; default ``secrets.randbits(63)``, or the
            integer in env ``PIFECACHETA_FIXED_SEED`` (tests only).
        bot_delay: seconds a bot waits before acting (default ``Settings.from_env()``: env
            ``PIFECACHETA_BOT_DELAY``, 1.2).
        round_over_delay: seconds before FIM DA RODADA closes by itself when only bots still
            play (default env ``PIFECACHETA_ROUND_OVER_DELAY``, 4; 0 when ``bot_delay`` is 0).

    Attributes:
        store: the storage part (transactions, loads, guarded saves, listeners); a seam for
            tests that need to interfere with one load.

    Thread-safe: every method opens its own session; listeners run after the commit, in the
    caller's thread.
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        clock: Callable[[], datetime] = utcnow,
        seed_source: Callable[[], int] | None = None,
        bot_delay: float | None = None,
        round_over_delay: float | None = None,
    ) -> None:
        settings = Settings.from_env(bot_delay=bot_delay)
        self.store = Store(engine, clock=clock, seed_source=seed_source)
        self._lobby = Lobby(self.store)
        self._play = Play(self.store)
        self._life = MatchLife(self.store)
        self._chat = Chat(self.store)
        self._history = HistoryBook(self.store, past_kept=settings.past_rounds)
        self._mine = MyTables(self.store)
        self._records = RoundRecords(self.store)
        self._bots = BotDriver(
            self.store,
            bot_delay=settings.bot_delay,
            round_over_delay=settings.round_over_delay if round_over_delay is None else round_over_delay,
        )

    def use_bot_process(self) -> bool:
        """Make the bots' steps in a child process on the same database (:mod:`.bot_process`)
        when it is a SQLite file and env ``PIFECACHETA_BOT_STEPS`` is not ``thread``; starts the
        child and waits until it is ready (blocking: call it from a thread). True when the
        steps go there; False leaves them in this process's threads. For the app's own
        service: the child's clock is the real one and its seeds those of the environment."""
        url = self.store.engine.url
        if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
            return False
        if not bot_process.wanted():
            return False
        remote = self._bots.remote
        if not isinstance(remote, bot_process.BotProcess):
            remote = self._bots.remote = bot_process.BotProcess(
                url.render_as_string(hide_password=False), self.store
            )
        if remote.warm_up():
            return True
        self._bots.remote = None
        remote.close()
        return False

    # --- timing knobs (the browser tests change them on the app's live service) ------------

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before its move, counted from the table's last move."""
        return self._bots.bot_delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self._bots.bot_delay = seconds

    @property
    def round_over_delay(self) -> float:
        """Seconds before a bots-only FIM DA RODADA closes by itself (seed 000 line 68)."""
        return self._bots.round_over_delay

    @round_over_delay.setter
    def round_over_delay(self, seconds: float) -> None:
        self._bots.round_over_delay = seconds

    def now(self) -> datetime:
        """The service clock's current time, aware UTC (what bot due times count on)."""
        return self.store.now()

    # --- listeners and identity --------------------------------------------------------

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Register ``callback(code)``, called after each committed change of a table (chat too)."""
        self.store.on_change(callback)

    def off_change(self, callback: Callable[[str], None]) -> None:
        """Unregister ``callback`` (registered by :meth:`on_change`); nothing when it is not."""
        self.store.off_change(callback)

    def identify(
        self, player_id: str | None, secret: str | None, name: str | None = None, *, lang: str = "pt"
    ) -> Identity:
        """The identity for a browser's stored id + secret, or a NEW one (never someone else's;
        without ``name``, "Jogador NNN" in ``lang``); see :func:`~.identity.identify`. Raises
        BadName."""
        return identify(self.store, player_id, secret, name, lang=lang)

    def recognise(self, player_id: str, secret: str) -> Identity | None:
        """The identity a personal link names, or None; writes nothing; see
        :func:`~.identity.recognise`. Raises AccessReplaced."""
        return recognise(self.store, player_id, secret)

    def replace_secret(self, who: Identity) -> Identity:
        """A new secret for ``who``'s player (Meu acesso): the old one stops working everywhere;
        see :func:`~.identity.replace_secret`. Raises BadIdentity, AccessReplaced."""
        return replace_secret(self.store, who)

    # --- lobby -------------------------------------------------------------------------

    def create_table(self, who: Identity, rules: Rules, *, hints: bool = False) -> str:
        """Create a table in the lobby with its house rules (``rules``) and Dicas (``hints``),
        creator at seat 0; returns the invite code (:meth:`.lobby.Lobby.create_table`)."""
        return self._lobby.create_table(who, rules, hints=hints)

    def join(self, code: str, who: Identity) -> int | None:
        """Sit ``who`` down: their seat, or None = spectator (:meth:`.lobby.Lobby.join`)."""
        return self._lobby.join(code, who)

    def add_bots(self, code: str, who: Identity, names: Sequence[str]) -> None:
        """Fill empty seats with bots ``names``, creator only (:meth:`.lobby.Lobby.add_bots`)."""
        self._lobby.add_bots(code, who, names)

    def start(self, code: str, who: Identity) -> None:
        """Deal the first round, creator only, >= 2 seated (:meth:`.lobby.Lobby.start`)."""
        self._lobby.start(code, who)

    def leave_seat(self, code: str, who: Identity) -> None:
        """``who`` leaves their waiting-room seat, not the creator (:meth:`.lobby.Lobby.leave_seat`)."""
        self._lobby.leave_seat(code, who)

    def remove_seat(self, code: str, who: Identity, seat: int) -> None:
        """The creator removes the person or bot at ``seat`` before the start
        (:meth:`.lobby.Lobby.remove_seat`)."""
        self._lobby.remove_seat(code, who, seat)

    def my_tables(self, who: Identity | None, watched: Sequence[str] = ()) -> list[MyTable]:
        """MINHAS MESAS: ``who``'s tables and the ``watched`` ones, plain values, SUA VEZ first
        (:meth:`.my_tables.MyTables.my_tables`)."""
        return self._mine.my_tables(who, watched)

    def player_ids(self, code: str) -> list[str]:
        """The player ids of table ``code``'s people (seated, left, creator), for the live
        feed's ``player:<id>`` keys (:meth:`.my_tables.MyTables.player_ids`)."""
        return self._mine.player_ids(code)

    # --- play --------------------------------------------------------------------------

    def act(self, code: str, who: Identity, action: Action, *, expected_version: int) -> int:
        """Apply ``action`` for ``who``'s seat at table version ``expected_version``; returns
        the new table version (:meth:`.play.Play.act`)."""
        return self._play.act(code, who, action, expected_version=expected_version)

    def snapshot(self, code: str, who: Identity | None) -> TableSnapshot:
        """What ``who`` may see (None, or an identity that does not verify: a spectator).

        ``view`` is ``player_view`` for the viewer's seat or ``spectator_view``: never the Match.
        Raises TableNotFound (``table_not_found``).
        """
        return self.snapshots(code, [who])[0]

    def snapshots(self, code: str, whos: Sequence[Identity | None]) -> list[TableSnapshot]:
        """:meth:`snapshot` for each of ``whos``, in order, from ONE read of the table
        (:meth:`.play.Play.snapshots`)."""
        return self._play.snapshots(code, whos)

    def snapshots_known(self, code: str, whos: Sequence[Identity | None]) -> list[TableSnapshot] | None:
        """:meth:`snapshots` without the database, when this process's own last commit of the
        table gives the read (:meth:`.play.Play.snapshots_known`); else None. Never blocks:
        the event loop may call it."""
        return self._play.snapshots_known(code, whos)

    # --- chat and match life -----------------------------------------------------------

    def chat(self, code: str, who: Identity, text: str) -> None:
        """Post a chat line as ``who``'s seat (:meth:`.chat.Chat.post`)."""
        self._chat.post(code, who, text)

    def vote_rematch(self, code: str, who: Identity) -> None:
        """Vote for a rematch; the last human vote deals it (:meth:`.match_life.MatchLife.vote_rematch`)."""
        self._life.vote_rematch(code, who)

    def sweep(self, now: datetime | None = None) -> list[str]:
        """Expire tables with no move for 7 days; returns the codes changed
        (:meth:`.match_life.MatchLife.sweep`)."""
        return self._life.sweep(now)

    def action_log(self, code: str) -> list[dict[str, Any]]:
        """The table's action log in order: dicts with version, seat, actor, action, at."""
        return self.store.action_log(code)

    def history(self, code: str) -> MatchHistory:
        """The public history of the table's current match now: the round's events and the
        past rounds' results, never a card that was not public (:class:`.history.HistoryBook`).
        Raises TableNotFound (``table_not_found``)."""
        return self._history.history(code)

    def older_rounds(self, code: str) -> tuple[RoundSummary, ...]:
        """The results of the table's earlier rounds that :meth:`history` does not keep in
        memory (:attr:`MatchHistory.past_older` of them, oldest first): public facts, as in
        :meth:`history` (:meth:`.history.HistoryBook.older_rounds`). Raises TableNotFound."""
        return self._history.older_rounds(code)

    def history_cached(self, code: str, version: int) -> MatchHistory | None:
        """The history of ``code`` kept in memory if it is at table version ``version`` or
        later, else None (no database read)."""
        return self._history.cached(code, version)

    # --- verifiable deals and round records (round_record.py, fair_deal.py) ---------------

    def contribute(self, code: str, who: Identity, commitment: str, value: str) -> bool:
        """Add a seated player's browser value to the next deal (``RoundRecords.contribute``)."""
        return self._records.contribute(code, who, commitment, value)

    def record_rounds(self, code: str, who: Identity, match_number: int | None = None) -> list[int]:
        """The rounds of a match (None: the current one; 1, 2, ... counts the table's matches)
        with a record, for a person of the table."""
        return self._records.available(code, who, match_number)

    def round_record(
        self, code: str, who: Identity, round_number: int, match_number: int | None = None
    ) -> dict[str, Any]:
        """The round record (docs/ROUND_RECORD.md) of a round of a match (None: the current
        one), for a person of the table only."""
        return self._records.record(code, who, round_number, match_number)

    def round_checks(
        self, code: str, who: Identity, round_number: int, match_number: int | None = None
    ) -> list[tuple[str, bool, str]]:
        """The Verificar checks of a round: ``(name, passed, detail)`` (rules/verify_round.py)."""
        return self._records.check(code, who, round_number, match_number)

    def round_steps(
        self, code: str, who: Identity, round_number: int, match_number: int | None = None
    ) -> list[ReplayStep]:
        """A finished round of a match (None: the current one) step by step as ``who`` saw it."""
        return self._records.steps(code, who, round_number, match_number)

    # --- bots --------------------------------------------------------------------------

    def pending_bot_delay(self, code: str) -> float | None:
        """Seconds until a bot should act at ``code`` (0 = now), or None when no bot has to
        act (:meth:`.bots.BotDriver.pending_bot_delay`)."""
        return self._bots.pending_bot_delay(code)

    def bot_due_at(self, code: str) -> datetime | None:
        """When (aware UTC, on this service's clock) a bot may act at ``code``, or None when no
        bot has to act (:meth:`.bots.BotDriver.bot_due_at`)."""
        return self._bots.bot_due_at(code)

    def bot_schedule(self, code: str) -> BotSchedule:
        """When the bots of ``code`` act next, and whether it has none
        (:meth:`.bots.BotDriver.bot_schedule`)."""
        return self._bots.bot_schedule(code)

    def schedule_after_commit(self, code: str) -> BotSchedule | None:
        """:meth:`bot_schedule` from this process's latest commit of ``code``, without reading
        the table; None when it cannot tell (:meth:`.bots.BotDriver.schedule_after_commit`)."""
        return self._bots.schedule_after_commit(code)

    def bot_step(self, code: str, *, when_due: bool = False) -> bool:
        """Apply ONE bot action at ``code`` if a bot must act (and, with ``when_due``, its delay
        has passed); True if one was applied (:meth:`.bots.BotDriver.bot_step`)."""
        return self._bots.bot_step(code, when_due=when_due)

    def bot_tables(self) -> list[str]:
        """Codes of tables in play that have a bot seat (the sweeper scans them)."""
        return self._bots.bot_tables()


_service: TableService | None = None
_service_lock = threading.Lock()


def get_service() -> TableService:
    """The ONE process-wide service, created on first use on ``pifecacheta.db.init_db()``
    (database URL from ``Settings.from_env()``)."""
    global _service
    with _service_lock:
        if _service is None:
            from ..db import init_db

            _service = TableService(init_db())
        return _service
