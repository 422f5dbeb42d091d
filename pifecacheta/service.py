"""The application service: every change to a table goes through :class:`TableService`.

Whoever asks (a click, a bot, the sweeper), a change is done the same way
(docs/SERVICE_API.md): load the table row, check the caller may act and that the version
matches, apply the rules engine, then write the new state + one action-log row + the new
version in ONE transaction (``UPDATE game_table ... WHERE version = expected``: of two racing
writers one wins, the other gets ``ServiceError("stale_version")``), and finally notify the
``on_change`` listeners with the table code. A refused change writes nothing.

Browsers and bots only ever get ``player_view``/``spectator_view`` projections (via
:meth:`TableService.snapshot`); the hidden ``Match`` (hands, stock, seed) stays in the database.

Seeds: ``secrets.randbits(63)`` per match, unless a ``seed_source`` is given or the environment
variable ``PIFECACHETA_FIXED_SEED`` is set (tests only; players cannot reach it).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import random
import secrets
import threading
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from .models import ActionLog, ChatMessage, GameTable, Player, Seat
from .rules import (
    Action,
    AnnounceOneAway,
    ClaimAbsence,
    Discard,
    Draw,
    Expire,
    GoOut,
    IllegalActionError,
    LeaveTable,
    Match,
    Mode,
    NextRound,
    Phase,
    PlayerView,
    Rules,
    Termination,
    active_seats,
    apply,
    new_match,
    player_view,
    spectator_view,
)

log = logging.getLogger(__name__)

ABSENCE_AFTER = timedelta(hours=48)  # seed 000 line 72: "mais de 48 horas sem jogar"
EXPIRE_AFTER = timedelta(days=7)  # seed 000 line 72: "7 dias sem nenhuma jogada expira"
MAX_SEATS = 4  # seed 000 line 50: "De 2 a 4 na mesa"
NAME_MAX = 24
CHAT_MAX = 200
CHAT_RATE_COUNT = 5  # at most 5 messages ...
CHAT_RATE_WINDOW = timedelta(seconds=10)  # ... per seat in any 10 seconds
CHAT_HISTORY = 100  # lines in a snapshot
BOT_NAMES = ("Carmen", "Tito", "Luna")  # seed 000 line 70
DEFAULT_BOT_DELAY = 1.2
DEFAULT_ROUND_OVER_DELAY = 4.0
_NORMAL_END = (Termination.GONE_OUT, Termination.LAST_WITH_LIVES)


def utcnow() -> datetime:
    """The current time, timezone-aware UTC (the default clock)."""
    return datetime.now(UTC)


class ServiceError(ValueError):
    """A request the service refuses; ``code`` (snake_case) names the reason for the UI.

    Codes: ``bad_identity``, ``bad_name``, ``table_not_found``, ``not_seated``, ``table_full``,
    ``not_creator``, ``already_started``, ``not_started``, ``need_two_players``, ``bad_bot``,
    ``stale_version``, ``not_absent_yet``, ``chat_empty``, ``chat_too_long``,
    ``chat_rate_limited``, ``spectator_cannot_chat``, ``rematch_not_offered``, ``table_expired``.
    The engine's :class:`IllegalActionError` passes through unchanged (it also has ``code``).
    """

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        super().__init__(message or code)


@dataclass(frozen=True)
class Identity:
    """Who is asking: the player id and secret kept in the browser, and the display name."""

    player_id: str
    secret: str
    name: str


@dataclass(frozen=True)
class SeatInfo:
    """A seat as everyone sees it: ``is_me`` for the viewer's own, ``left`` after SAIR DA MESA."""

    seat: int
    name: str
    is_bot: bool
    is_me: bool
    left: bool


@dataclass(frozen=True)
class ChatLine:
    """One chat message: plain text (the UI escapes it), by ``seat`` named ``name``, at ``at`` (UTC)."""

    seat: int
    name: str
    text: str
    at: datetime


@dataclass(frozen=True)
class TableSnapshot:
    """Everything one viewer may see of a table; built from the viewer's own projection only.

    ``my_seat`` None = spectator (or a seat that left the table); ``view`` None in the lobby.
    ``absence_claimable``: the viewer may press ENCERRAR POR AUSÊNCIA now (seed 000 line 72).
    ``rematch_offered``: the match ended normally and nobody FORA left (seed 000 line 70).
    """

    code: str
    rules: Rules
    status: str
    version: int
    creator_seat: int | None
    seats: tuple[SeatInfo, ...]
    my_seat: int | None
    view: PlayerView | None
    chat: tuple[ChatLine, ...]
    absence_claimable: bool
    rematch_votes: frozenset[int]
    rematch_offered: bool


# --- small helpers -----------------------------------------------------------------------


def _hash_secret(secret: str) -> str:
    # The secret is 256 random bits: a plain SHA-256 is enough (nothing to brute-force).
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_name(name: str) -> str:
    """A display name made safe: control characters removed, spaces collapsed, cut to 24.

    Raises ServiceError("bad_name") when nothing is left.

    >>> clean_name("  Zé \\n da   Silva ")
    'Zé da Silva'
    >>> clean_name("x" * 30) == "x" * 24
    True
    """
    text = unicodedata.normalize("NFC", str(name))
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    text = " ".join(text.split())[:NAME_MAX].strip()
    if not text:
        raise ServiceError("bad_name", "a name needs 1 to 24 visible characters")
    return text


def distinct_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` + " 2", " 3", ... when someone at the table already has it, so two
    players who both call themselves "Ana" can be told apart at the table, in FIM DA RODADA and
    in the chat. Compared without case; the result still fits in 24 characters (the name is cut
    before the number).

    >>> distinct_name("Ana", ["Bia"])
    'Ana'
    >>> distinct_name("Ana", ["ana", "Ana 2"])
    'Ana 3'
    >>> len(distinct_name("x" * 24, ["x" * 24]))
    24
    """
    used = {n.casefold() for n in taken}
    if name.casefold() not in used:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        n += 1


def _clean_chat(text: str) -> str:
    text = "".join(ch for ch in str(text) if ch in "\n\t" or unicodedata.category(ch) != "Cc")
    return text.strip()


def rules_to_json(rules: Rules) -> str:
    """JSON form of a :class:`Rules` (enum values as their text).

    >>> from pifecacheta.rules import PIFE
    >>> rules_from_json(rules_to_json(PIFE)) == PIFE
    True
    """
    return json.dumps(
        {
            f.name: getattr(rules, f.name).value if f.name == "mode" else getattr(rules, f.name)
            for f in fields(rules)
        }
    )


def rules_from_json(text: str) -> Rules:
    """Inverse of :func:`rules_to_json`."""
    d = json.loads(text)
    d["mode"] = Mode(d["mode"])
    return Rules(**d)


def _load_match(t: GameTable) -> Match | None:
    return None if t.match_json is None else Match.from_dict(json.loads(t.match_json))


def _dump_match(m: Match) -> str:
    return json.dumps(m.to_dict(), separators=(",", ":"))


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def _placeholder_bot_action(match: Match, seat: int, rng: random.Random) -> tuple[Action, Match] | None:
    """PLACEHOLDER policy, used only while ``pifecacheta.bots.bot_action`` is missing, or when it
    returns nothing or an illegal move on its own turn: draw; then go out if the engine accepts
    ``GoOut()``, else discard a random card that the engine accepts. Returns (action, new match).
    (It tries moves on the hidden match, which a real bot must not: bots get only their view.)"""
    r = match.round
    if r is None or r.turn != seat:
        return None
    if r.phase is Phase.DRAW:
        candidates: list[Action] = [Draw()]
    elif r.phase is Phase.DISCARD:
        hand = list(r.hands[seat])
        rng.shuffle(hand)
        candidates = [GoOut(), *(Discard(c) for c in hand)]
    else:
        return None
    for action in candidates:
        try:
            return action, apply(match, seat, action)
        except IllegalActionError:
            continue
    return None


def _bot_policy() -> Callable[[str, PlayerView, random.Random], Action | None] | None:
    """``pifecacheta.bots.bot_action`` once the bots package provides it, else None."""
    try:
        from .bots import bot_action
    except ImportError:
        return None
    return bot_action


@dataclass
class _Loaded:
    table: GameTable
    seats: list[Seat]
    match: Match | None

    def seat_of(self, player_id: str) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    def by_index(self, seat: int) -> Seat | None:
        return next((s for s in self.seats if s.seat == seat), None)


class TableService:
    """All reads and changes of tables, seats, matches, chat and the action log.

    Args:
        engine: a SQLAlchemy engine whose schema is migrated (``pifecacheta.db.init_db``).
        clock: returns the current aware UTC datetime; tests inject one to jump 48 h / 7 days.
        seed_source: returns each new match's seed; default ``secrets.randbits(63)``, or the
            integer in env ``PIFECACHETA_FIXED_SEED`` (tests only).
        bot_delay: seconds a bot waits before acting (default env ``PIFECACHETA_BOT_DELAY``, 1.2).
        round_over_delay: seconds before FIM DA RODADA closes by itself when only bots still
            play (default env ``PIFECACHETA_ROUND_OVER_DELAY``, 4; 0 when ``bot_delay`` is 0).

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
        self._engine = engine
        self._read_engine = engine.execution_options(sqlite_begin="DEFERRED")
        self._clock = clock
        self._seed_source = seed_source
        self.bot_delay = (
            _env_float("PIFECACHETA_BOT_DELAY", DEFAULT_BOT_DELAY) if bot_delay is None else bot_delay
        )
        if round_over_delay is None:
            default = DEFAULT_ROUND_OVER_DELAY if self.bot_delay > 0 else 0.0
            round_over_delay = _env_float("PIFECACHETA_ROUND_OVER_DELAY", default)
        self.round_over_delay = round_over_delay
        self._listeners: list[Callable[[str], None]] = []
        self._listeners_lock = threading.Lock()

    # --- plumbing ------------------------------------------------------------------------

    def _now(self) -> datetime:
        now = self._clock()
        return now if now.tzinfo else now.replace(tzinfo=UTC)

    def _new_seed(self) -> int:
        if self._seed_source is not None:
            return int(self._seed_source())
        fixed = os.environ.get("PIFECACHETA_FIXED_SEED")
        if fixed:
            return int(fixed)
        return secrets.randbits(63)

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        """One write transaction (BEGIN IMMEDIATE on SQLite), committed on success."""
        with Session(self._engine, expire_on_commit=False) as s, s.begin():
            yield s

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with Session(self._read_engine, expire_on_commit=False) as s, s.begin():
            yield s

    def _notify(self, code: str) -> None:
        with self._listeners_lock:
            listeners = list(self._listeners)
        for cb in listeners:
            try:
                cb(code)
            except Exception:  # a broken listener must not undo a committed change
                log.exception("on_change listener failed for table %s", code)

    def _verify(self, s: Session, who: Identity | None) -> Player:
        if who is None or not who.player_id or not who.secret:
            raise ServiceError("bad_identity", "unknown player")
        p = s.get(Player, who.player_id)
        if p is None or not hmac.compare_digest(p.secret_hash, _hash_secret(who.secret)):
            raise ServiceError("bad_identity", "unknown player or wrong secret")
        return p

    def _load(self, s: Session, code: str) -> _Loaded:
        t = s.exec(select(GameTable).where(GameTable.code == code)).first()
        if t is None:
            raise ServiceError("table_not_found", f"no table {code!r}")
        seats = list(s.exec(select(Seat).where(Seat.table_id == t.id).order_by(col(Seat.seat))).all())
        return _Loaded(t, seats, _load_match(t))

    def _save(
        self,
        s: Session,
        t: GameTable,
        expected: int,
        entry: dict[str, Any],
        *,
        seat: int | None,
        actor: str,
        **values: Any,
    ) -> int:
        """Guarded write: ``UPDATE ... SET version = expected + 1 WHERE version = expected`` plus
        one action-log row; raises ServiceError("stale_version") if another writer won."""
        now = self._now()
        res = s.execute(
            sa.update(GameTable)
            .where(col(GameTable.id) == t.id, col(GameTable.version) == expected)
            .values(version=expected + 1, **values)
            .execution_options(synchronize_session=False)
        )
        if res.rowcount != 1:  # type: ignore[attr-defined]
            raise ServiceError("stale_version", "the table changed: reload and try again")
        assert t.id is not None
        s.add(
            ActionLog(
                table_id=t.id,
                version=expected + 1,
                seat=seat,
                actor=actor,
                action_json=json.dumps(entry),
                at=now,
            )
        )
        return expected + 1

    # --- listeners and identity ---------------------------------------------------------

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Register ``callback(code)``, called after each committed change of a table (chat too)."""
        with self._listeners_lock:
            self._listeners.append(callback)

    def identify(self, player_id: str | None, secret: str | None, name: str | None = None) -> Identity:
        """The identity for a browser's stored id + secret, or a NEW one.

        An unknown id, a forged id or a wrong secret gives a new random identity, never someone
        else's. ``name`` (if given) is cleaned (:func:`clean_name`) and stored; a new player
        without a name gets "Jogador NNN". Raises ServiceError("bad_name") for a blank name.
        """
        clean = None if name is None else clean_name(name)
        with self._tx() as s:
            if player_id and secret:
                p = s.get(Player, player_id)
                if p is not None and hmac.compare_digest(p.secret_hash, _hash_secret(secret)):
                    if clean is not None and clean != p.name:
                        p.name = clean
                        s.add(p)
                    return Identity(p.id, secret, clean or p.name)
            new_secret = secrets.token_urlsafe(32)
            p = Player(
                id=uuid.uuid4().hex,
                secret_hash=_hash_secret(new_secret),
                name=clean or f"Jogador {secrets.randbelow(900) + 100}",
                created_at=self._now(),
            )
            s.add(p)
            return Identity(p.id, new_secret, p.name)

    # --- lobby -------------------------------------------------------------------------------

    def create_table(self, who: Identity, rules: Rules) -> str:
        """Create a table in the lobby with ``rules``; the creator sits at seat 0 (and deals
        round 1, seed 000 line 50). Returns the unguessable invite code (``/mesa/<code>``)."""
        now = self._now()
        with self._tx() as s:
            p = self._verify(s, who)
            t = GameTable(
                code=secrets.token_urlsafe(12),
                mode=rules.mode.value,
                lives=rules.lives,
                rules_json=rules_to_json(rules),
                creator_id=p.id,
                status="lobby",
                version=0,
                created_at=now,
                last_move_at=now,
                turn_started_at=now,
            )
            s.add(t)
            s.flush()
            assert t.id is not None
            s.add(Seat(table_id=t.id, seat=0, player_id=p.id, name=p.name))
            s.add(
                ActionLog(
                    table_id=t.id,
                    version=0,
                    seat=0,
                    actor=f"player:{p.id}",
                    action_json=json.dumps({"type": "create"}),
                    at=now,
                )
            )
            code = t.code
        self._notify(code)
        return code

    def join(self, code: str, who: Identity) -> int | None:
        """Sit ``who`` at the lowest free seat and return it; their seat if already seated;
        None = spectator, when the table is full (4) or the match started (seed 000 line 46)."""
        for _attempt in range(5):
            try:
                with self._tx() as s:
                    p = self._verify(s, who)
                    ld = self._load(s, code)
                    mine = ld.seat_of(p.id)
                    if mine is not None:
                        return mine.seat
                    if ld.table.status != "lobby" or len(ld.seats) >= MAX_SEATS:
                        return None
                    taken = {x.seat for x in ld.seats}
                    seat = min(i for i in range(MAX_SEATS) if i not in taken)
                    assert ld.table.id is not None
                    name = distinct_name(p.name, (x.name for x in ld.seats))
                    s.add(Seat(table_id=ld.table.id, seat=seat, player_id=p.id, name=name))
                    self._save(
                        s,
                        ld.table,
                        ld.table.version,
                        {"type": "join"},
                        seat=seat,
                        actor=f"player:{p.id}",
                        last_move_at=self._now(),  # lobby activity: restarts the 7-day expiry
                    )
                self._notify(code)
                return seat
            except (sa.exc.IntegrityError, ServiceError) as e:  # racing joiner took the seat
                if isinstance(e, ServiceError) and e.code != "stale_version":
                    raise
        raise ServiceError("stale_version", "the table changed: reload and try again")

    def add_bots(self, code: str, who: Identity, names: Sequence[str]) -> None:
        """Fill empty seats with bots ``names`` (from Carmen, Tito, Luna; seed 000 line 70).

        Raises ServiceError: ``not_creator``, ``table_expired``, ``already_started``, ``bad_bot``
        (unknown, repeated or already seated), ``table_full`` (more bots than empty seats).
        """
        with self._tx() as s:
            p = self._verify(s, who)
            ld = self._load(s, code)
            t = ld.table
            if t.creator_id != p.id:
                raise ServiceError("not_creator", "only the table's creator can add bots")
            self._refuse_expired(t)
            if t.status != "lobby":
                raise ServiceError("already_started", "the match has started")
            seated = {x.bot for x in ld.seats if x.bot}
            names = list(names)
            if any(n not in BOT_NAMES for n in names) or len(set(names)) != len(names) or seated & set(names):
                raise ServiceError("bad_bot", f"bots are {', '.join(BOT_NAMES)}, each once")
            free = [i for i in range(MAX_SEATS) if i not in {x.seat for x in ld.seats}]
            if len(names) > len(free):
                raise ServiceError("table_full", "not enough empty seats")
            if not names:
                return
            assert t.id is not None
            shown = [x.name for x in ld.seats]
            for seat, name in zip(free, names, strict=False):
                shown.append(distinct_name(name, shown))  # a person may be called "Tito" too
                s.add(Seat(table_id=t.id, seat=seat, bot=name, name=shown[-1]))
            self._save(
                s,
                t,
                t.version,
                {"type": "add_bots", "names": names},
                seat=None,
                actor=f"player:{p.id}",
                last_move_at=self._now(),  # lobby activity: restarts the 7-day expiry
            )
        self._notify(code)

    def start(self, code: str, who: Identity) -> None:
        """Deal the first round (creator only, in the lobby, at least 2 seated; seed 000 line 50).

        Raises ServiceError: ``not_creator``, ``table_expired``, ``already_started``,
        ``need_two_players``.
        """
        now = self._now()
        with self._tx() as s:
            p = self._verify(s, who)
            ld = self._load(s, code)
            t = ld.table
            if t.creator_id != p.id:
                raise ServiceError("not_creator", "only the table's creator can start")
            self._refuse_expired(t)
            if t.status != "lobby":
                raise ServiceError("already_started", "the match has started")
            if len(ld.seats) < 2:
                raise ServiceError("need_two_players", "at least two players are needed")
            match = new_match(rules_from_json(t.rules_json), len(ld.seats), seed=self._new_seed())
            self._save(
                s,
                t,
                t.version,
                {"type": "start", "seats": len(ld.seats)},
                seat=None,
                actor=f"player:{p.id}",
                status="playing",
                match_json=_dump_match(match),
                last_move_at=now,
                turn_started_at=now,
                rematch_json='{"votes": []}',
            )
        self._notify(code)

    # --- play ----------------------------------------------------------------------------

    def act(self, code: str, who: Identity, action: Action, *, expected_version: int) -> int:
        """Apply ``action`` for ``who``'s seat if the table is still at ``expected_version``.

        Returns the new version. Raises ServiceError ``not_started`` (``table_expired`` for a
        table that expired in the lobby), ``not_seated`` (spectators
        and seats that left), ``stale_version``, ``not_absent_yet`` (ClaimAbsence before 48 h
        without a move by the seat to play, seed 000 line 72), or the engine's
        IllegalActionError. Nothing is written when it raises.
        """
        with self._tx() as s:
            p = self._verify(s, who)
            ld = self._load(s, code)
            if ld.match is None:
                self._refuse_expired(ld.table)
                raise ServiceError("not_started", "the match has not started")
            mine = ld.seat_of(p.id)
            if mine is None or mine.left:
                raise ServiceError("not_seated", "only the table's players can play")
            if ld.table.version != expected_version:
                raise ServiceError("stale_version", "the table changed: reload and try again")
            new = apply(ld.match, mine.seat, action)
            if isinstance(action, ClaimAbsence) and self._now() - ld.table.turn_started_at <= ABSENCE_AFTER:
                raise ServiceError("not_absent_yet", "the seat to play has 48 hours to move")
            version = self._commit_match(s, ld, new, mine.seat, action, f"player:{p.id}")
        self._notify(code)
        return version

    def _commit_match(
        self,
        s: Session,
        ld: _Loaded,
        new: Match,
        seat: int | None,
        action: Action,
        actor: str,
        *,
        old: Match | None = None,
        expected: int | None = None,
    ) -> int:
        """Write ``new`` (already applied to ``old``, default the loaded match) with the
        bookkeeping: status, clocks, left seats. Returns the new version."""
        now = self._now()
        t = ld.table
        old = old or ld.match
        assert old is not None and old.round is not None and new.round is not None
        values: dict[str, Any] = {"match_json": _dump_match(new), "last_move_at": now}
        turn_moved = (new.round_number, new.round.turn, new.round.phase in (Phase.DRAW, Phase.DISCARD)) != (
            old.round_number,
            old.round.turn,
            old.round.phase in (Phase.DRAW, Phase.DISCARD),
        )
        if turn_moved or seat == old.round.turn:
            values["turn_started_at"] = now
        if new.round.phase is Phase.MATCH_OVER and old.round.phase is not Phase.MATCH_OVER:
            values["status"] = "finished"
            values["rematch_json"] = '{"votes": []}'
        if isinstance(action, LeaveTable) and seat is not None:
            assert t.id is not None
            s.execute(
                sa.update(Seat).where(col(Seat.table_id) == t.id, col(Seat.seat) == seat).values(left=True)
            )
        expected = t.version if expected is None else expected
        return self._save(s, t, expected, action.to_dict(), seat=seat, actor=actor, **values)

    def snapshot(self, code: str, who: Identity | None) -> TableSnapshot:
        """What ``who`` may see (None, or an identity that does not verify: a spectator).

        ``view`` is ``player_view`` for the viewer's seat or ``spectator_view``: never the Match.
        Raises ServiceError("table_not_found").
        """
        return self.snapshots(code, [who])[0]

    def snapshots(self, code: str, whos: Sequence[Identity | None]) -> list[TableSnapshot]:
        """:meth:`snapshot` for each of ``whos``, in order, from ONE read of the table.

        After a change every open tab needs its own projection; reading the table, seats and
        chat once for all of them (and the players in one query) instead of once per tab keeps
        the refresh of a table of 4 players + spectators to a few queries. Each snapshot is
        still built from that viewer's own projection only. Raises ServiceError("table_not_found").
        """
        now = self._now()
        with self._read() as s:
            ids = {w.player_id for w in whos if w is not None and w.player_id and w.secret}
            rows = (
                {p.id: p for p in s.exec(select(Player).where(col(Player.id).in_(ids))).all()} if ids else {}
            )
            ld = self._load(s, code)
            t, m = ld.table, ld.match
            chat_rows = list(
                s.exec(
                    select(ChatMessage)
                    .where(ChatMessage.table_id == t.id)
                    .order_by(col(ChatMessage.id).desc())
                    .limit(CHAT_HISTORY)
                ).all()
            )
        rules = rules_from_json(t.rules_json)
        creator = next((x.seat for x in ld.seats if x.player_id == t.creator_id), None)
        votes = frozenset(int(v) for v in json.loads(t.rematch_json).get("votes", []))
        chat = tuple(ChatLine(c.seat, c.name, c.text, c.at) for c in reversed(chat_rows))
        rematch_offered = self._rematch_offered(ld)
        spectator: PlayerView | None = None
        out: list[TableSnapshot] = []
        for who in whos:
            me: Player | None = None
            if who is not None and who.secret:
                p = rows.get(who.player_id)
                if p is not None and hmac.compare_digest(p.secret_hash, _hash_secret(who.secret)):
                    me = p
            mine = ld.seat_of(me.id) if me is not None else None
            my_seat = mine.seat if mine is not None and not mine.left else None
            view = None
            if m is not None:
                if my_seat is not None:
                    view = player_view(m, my_seat)
                else:
                    spectator = spectator or spectator_view(m)
                    view = spectator
            out.append(
                TableSnapshot(
                    code=t.code,
                    rules=rules,
                    status=t.status,
                    version=t.version,
                    creator_seat=creator,
                    seats=tuple(
                        SeatInfo(
                            seat=x.seat,
                            name=x.name,
                            is_bot=x.bot is not None,
                            is_me=me is not None and x.player_id == me.id,
                            left=x.left,
                        )
                        for x in ld.seats
                    ),
                    my_seat=my_seat,
                    view=view,
                    chat=chat,
                    absence_claimable=self._absence_claimable(ld, my_seat, now),
                    rematch_votes=votes,
                    rematch_offered=rematch_offered,
                )
            )
        return out

    @staticmethod
    def _absence_claimable(ld: _Loaded, my_seat: int | None, now: datetime) -> bool:
        m = ld.match
        if my_seat is None or m is None or m.outcome is not None or m.round is None:
            return False
        if m.round.phase not in (Phase.DRAW, Phase.DISCARD) or m.round.turn == my_seat:
            return False
        if my_seat not in active_seats(m):  # FORA players cannot claim (seed 000 line 72)
            return False
        return now - ld.table.turn_started_at > ABSENCE_AFTER

    @staticmethod
    def _rematch_offered(ld: _Loaded) -> bool:
        """Seed 000 line 70: at the end of a normally finished match, unless a FORA player left."""
        m = ld.match
        return (
            m is not None
            and m.outcome is not None
            and m.round is not None
            and m.round.phase is Phase.MATCH_OVER
            and m.outcome.termination in _NORMAL_END
            and not m.left
            and not any(x.left for x in ld.seats)
        )

    # --- chat and rematch -----------------------------------------------------------------

    def chat(self, code: str, who: Identity, text: str) -> None:
        """Post a chat line as ``who``'s seat (seed 000 line 74: seated players write, spectators read).

        The text is stored as plain text after removing control characters and stripping.
        Raises ServiceError ``spectator_cannot_chat``, ``chat_empty``, ``chat_too_long`` (> 200),
        ``chat_rate_limited`` (more than 5 lines in 10 s), ``table_expired`` (a table that expired
        in the lobby is closed: its page offers no chat box either).
        """
        now = self._now()
        clean = _clean_chat(text)
        with self._tx() as s:
            p = self._verify(s, who)
            ld = self._load(s, code)
            self._refuse_expired(ld.table)
            mine = ld.seat_of(p.id)
            if mine is None or mine.left:
                raise ServiceError("spectator_cannot_chat", "only seated players can write")
            if not clean:
                raise ServiceError("chat_empty", "empty message")
            if len(clean) > CHAT_MAX:
                raise ServiceError("chat_too_long", f"at most {CHAT_MAX} characters")
            recent = s.exec(
                select(sa.func.count())
                .select_from(ChatMessage)
                .where(
                    ChatMessage.table_id == ld.table.id,
                    ChatMessage.seat == mine.seat,
                    col(ChatMessage.at) > now - CHAT_RATE_WINDOW,
                )
            ).one()
            if recent >= CHAT_RATE_COUNT:
                raise ServiceError("chat_rate_limited", "too many messages: wait a few seconds")
            assert ld.table.id is not None
            s.add(ChatMessage(table_id=ld.table.id, seat=mine.seat, name=mine.name, text=clean, at=now))
        self._notify(code)

    def vote_rematch(self, code: str, who: Identity) -> None:
        """Vote for a rematch; when every human player has voted, a new match (new seed) is
        dealt at the same table with the same seats (seed 000 line 70).

        Raises ServiceError ``not_seated``, ``rematch_not_offered``.
        """
        now = self._now()
        with self._tx() as s:
            p = self._verify(s, who)
            ld = self._load(s, code)
            t = ld.table
            mine = ld.seat_of(p.id)
            if mine is None or mine.left:
                raise ServiceError("not_seated", "only the table's players can vote")
            if not self._rematch_offered(ld):
                raise ServiceError("rematch_not_offered", "no rematch for this match")
            votes = set(json.loads(t.rematch_json).get("votes", [])) | {mine.seat}
            humans = {x.seat for x in ld.seats if x.player_id is not None}
            actor = f"player:{p.id}"
            if humans <= votes:
                match = new_match(rules_from_json(t.rules_json), len(ld.seats), seed=self._new_seed())
                self._save(
                    s,
                    t,
                    t.version,
                    {"type": "rematch"},
                    seat=mine.seat,
                    actor=actor,
                    status="playing",
                    match_json=_dump_match(match),
                    last_move_at=now,
                    turn_started_at=now,
                    rematch_json='{"votes": []}',
                )
            else:
                self._save(
                    s,
                    t,
                    t.version,
                    {"type": "vote_rematch"},
                    seat=mine.seat,
                    actor=actor,
                    rematch_json=json.dumps({"votes": sorted(votes)}),
                )
        self._notify(code)

    # --- bots ----------------------------------------------------------------------------

    def _bot_turn(self, ld: _Loaded) -> tuple[str, int] | None:
        """Why a bot should act now: ("turn", seat) or ("round_over", seat); None if no bot must."""
        m = ld.match
        if ld.table.status != "playing" or m is None or m.round is None or m.round.phase is Phase.MATCH_OVER:
            return None
        bots = {x.seat: x for x in ld.seats if x.bot is not None}
        if not bots:
            return None
        if m.round.phase is Phase.ROUND_OVER:
            # seed 000 line 68: when only bots still play, FIM DA RODADA closes by itself
            if all(a in bots for a in active_seats(m)):
                closer = next((b for b in sorted(bots) if b not in m.left), None)
                return None if closer is None else ("round_over", closer)
            return None
        if m.round.turn in bots:
            return ("turn", m.round.turn)
        return None

    def pending_bot_delay(self, code: str) -> float | None:
        """Seconds until a bot should act at ``code`` (0 = now), or None when no bot has to act.

        Counts from the last move: ``bot_delay`` for a bot's move,
        ``round_over_delay`` for closing FIM DA RODADA when only bots still play.
        """
        now = self._now()
        with self._read() as s:
            ld = self._load(s, code)
        why = self._bot_turn(ld)
        if why is None:
            return None
        wait = self.round_over_delay if why[0] == "round_over" else self.bot_delay
        return max(0.0, wait - (now - ld.table.last_move_at).total_seconds())

    def bot_step(self, code: str) -> bool:
        """If a bot must act at ``code``, apply ONE bot action through the same checked path as
        people (version-guarded). Returns True if an action was applied (ignores the delay:
        callers wait :meth:`pending_bot_delay` first).

        The bot gets only its own PlayerView (``pifecacheta.bots.bot_action``); a bot that
        returns nothing or an illegal move on its own turn falls back to the placeholder policy.
        Right after a bot's discard, if it is one card away in Cacheta (``can_announce``), the bot
        is asked once more and may announce NA BOA (seed 000 line 64) in the same transaction,
        as a second logged action (its hand does not change again before its next turn).
        """
        try:
            with self._tx() as s:
                ld = self._load(s, code)
                why = self._bot_turn(ld)
                if why is None or ld.match is None:
                    return False
                kind, seat = why
                m = ld.match
                bot = ld.by_index(seat)
                assert bot is not None and bot.bot is not None
                rng = random.Random(f"{m.seed}:{ld.table.version}:{seat}")
                policy = _bot_policy()
                action: Action | None = None
                new: Match | None = None
                if kind == "round_over":
                    action = NextRound()
                    new = apply(m, seat, action)
                elif policy is not None:
                    action = policy(bot.bot, player_view(m, seat), rng)
                    if action is not None:
                        try:
                            new = apply(m, seat, action)
                        except IllegalActionError as e:
                            log.warning("bot %s at %s: illegal %r (%s)", bot.bot, code, action, e.code)
                if new is None:
                    fallback = _placeholder_bot_action(m, seat, rng)
                    action, new = fallback if fallback is not None else (None, None)
                if new is None or action is None:
                    return False
                version = self._commit_match(s, ld, new, seat, action, f"bot:{bot.bot}")
                if (
                    policy is not None
                    and isinstance(action, Discard)
                    and new.rules.mode is Mode.CACHETA
                    and new.round is not None
                    and new.round.phase is Phase.DRAW
                    and seat not in new.round.announced
                ):
                    view = player_view(new, seat)
                    if view.can_announce:
                        extra = policy(bot.bot, view, rng)
                        if isinstance(extra, AnnounceOneAway):
                            newer = apply(new, seat, extra)
                            self._commit_match(
                                s, ld, newer, seat, extra, f"bot:{bot.bot}", old=new, expected=version
                            )
        except ServiceError as e:
            if e.code == "stale_version":
                return False
            raise
        self._notify(code)
        return True

    def bot_tables(self) -> list[str]:
        """Codes of tables in play that have a bot seat (what the background driver polls)."""
        with self._read() as s:
            rows = s.exec(
                select(GameTable.code)
                .join(Seat, col(Seat.table_id) == GameTable.id)
                .where(GameTable.status == "playing", col(Seat.bot).is_not(None))
                .distinct()
            ).all()
        return list(rows)

    # --- time ----------------------------------------------------------------------------

    @staticmethod
    def _refuse_expired(t: GameTable) -> None:
        """Raise ServiceError("table_expired") for a table that expired in the lobby."""
        if t.status == "expired":
            raise ServiceError("table_expired", "the table expired before its match started")

    @staticmethod
    def _last_activity(s: Session, t: GameTable) -> datetime:
        """When the table last changed: ``last_move_at`` or its newest action-log row, whichever
        is later (rows written before joins and bots moved ``last_move_at`` count too)."""
        last = s.exec(
            select(ActionLog.at).where(ActionLog.table_id == t.id).order_by(col(ActionLog.id).desc()).limit(1)
        ).first()
        if last is not None and last.tzinfo is None:
            last = last.replace(tzinfo=UTC)
        return t.last_move_at if last is None else max(t.last_move_at, last)

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
        now = now or self._now()
        cutoff = now - EXPIRE_AFTER
        with self._read() as s:
            stale = s.exec(
                select(GameTable.code).where(
                    col(GameTable.status).in_(("playing", "lobby")), col(GameTable.last_move_at) <= cutoff
                )
            ).all()
        changed = []
        for code in stale:
            try:
                with self._tx() as s:
                    ld = self._load(s, code)
                    t = ld.table
                    if t.status == "lobby":
                        if self._last_activity(s, t) > cutoff:
                            continue
                        self._save(
                            s,
                            t,
                            t.version,
                            {"type": "expire"},
                            seat=None,
                            actor="system",
                            status="expired",
                            last_move_at=now,
                        )
                    else:
                        if ld.match is None or t.status != "playing" or t.last_move_at > cutoff:
                            continue
                        action: Action = Expire()
                        seat = None
                        if ld.match.outcome is not None:  # decided, left at FIM DA RODADA: close it
                            action = NextRound()
                            seat = next(x for x in range(ld.match.seats) if x not in ld.match.left)
                        new = apply(ld.match, seat, action)
                        self._commit_match(s, ld, new, seat, action, "system")
            except (ServiceError, IllegalActionError) as e:
                log.info("sweep skipped %s: %s", code, e)
                continue
            changed.append(code)
            self._notify(code)
        return changed

    def action_log(self, code: str) -> list[dict[str, Any]]:
        """The table's action log in order: dicts with version, seat, actor, action, at."""
        with self._read() as s:
            ld = self._load(s, code)
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


_service: TableService | None = None
_service_lock = threading.Lock()


def get_service() -> TableService:
    """The process-wide service on ``pifecacheta.db.init_db()`` (database from the environment)."""
    global _service
    with _service_lock:
        if _service is None:
            from .db import init_db

            _service = TableService(init_db())
        return _service
