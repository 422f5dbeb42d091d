"""The lobby: creating a table, sitting down, adding bots, dealing the first round.

A table starts in ``lobby`` with its creator at seat 0 (who deals round 1, seed 000 line 50);
people join until it is full (4) or started; the creator may fill seats with bots and starts
once at least two are seated. Before the start a seated person may leave their seat and the
creator may remove a person or a bot; the seats after it move up one, so the seated stay
numbered 0..n-1 (the match deals to seats 0..n-1). Every join, bot added or seat freed
restarts the lobby's 7-day expiry.

House rules (the variants of :class:`~pifecacheta.rules.Rules`, seed 000 "Variações" and lines
33-38) are chosen at creation and stored with the table in ``rules_json``, so every deal of
the table, a rematch's too, uses them. Dicas (hints for beginners) is a table option, not a
rule: it is stored in ``TableOptions``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from sqlmodel import Session

from ..models import GameTable, Player, Seat, TableOptions, TableStatus
from ..rules import Mode, Rules
from . import fair_deal
from .errors import (
    AlreadyStarted,
    BadBot,
    BadRules,
    CreatorStays,
    NeedTwoPlayers,
    NotCreator,
    NotSeated,
    SeatNotFound,
    StaleVersion,
    TableFull,
)
from .identity import distinct_name, verify
from .rows import Loaded, SeatRow, refuse_expired, rules_to_json
from .store import Store
from .values import Identity

MAX_SEATS = 4  # seed 000 line 50: "De 2 a 4 na mesa"
BOT_NAMES = ("Carmen", "Tito", "Luna")  # seed 000 line 70
JOIN_ATTEMPTS = 5  # a join that loses a race for a seat tries again this many times in all

#: The house rules a creator may turn on, the names of the boolean fields of ``Rules``, in the
#: order the lobby lists them: set with a repeated suit (seed 000 line 35), wild in both suits
#: of the vira's colour (line 36), the discard pile only to go out (line 38), the stock rebuilt
#: without shuffling (line 33), no wild in sets (seed 003 line 33).
HOUSE_RULES: tuple[str, ...] = (
    "set_may_repeat_suit",
    "wild_same_colour",
    "discard_only_to_go_out",
    "rebuild_without_shuffle",
    "no_wild_in_sets",
)
#: The house rules about the wild: only Cacheta has one (seed 000 line 60: Pife has none).
WILD_RULES: frozenset[str] = frozenset({"wild_same_colour", "no_wild_in_sets"})


def house_rules_for(mode: Mode) -> tuple[str, ...]:
    """The house rules that make sense in ``mode``, in :data:`HOUSE_RULES` order.

    >>> house_rules_for(Mode.PIFE)
    ('set_may_repeat_suit', 'discard_only_to_go_out', 'rebuild_without_shuffle')
    """
    return tuple(r for r in HOUSE_RULES if mode is Mode.CACHETA or r not in WILD_RULES)


def house_rules_on(rules: Rules) -> tuple[str, ...]:
    """The house rules turned on in ``rules``, in :data:`HOUSE_RULES` order.

    >>> house_rules_on(Rules(mode=Mode.PIFE, rebuild_without_shuffle=True))
    ('rebuild_without_shuffle',)
    """
    return tuple(r for r in HOUSE_RULES if getattr(rules, r))


def check_house_rules(rules: Rules) -> None:
    """Refuse ``rules`` with a house rule that does not fit its game.

    Raises:
        BadRules: a wild variant in Pife (``bad_rules``).
    """
    misfit = set(house_rules_on(rules)) - set(house_rules_for(rules.mode))
    if misfit:
        raise BadRules(f"{', '.join(sorted(misfit))} do not apply to {rules.mode.value}")


class Lobby:
    """Creating, joining, adding bots and starting tables, on one :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def create_table(self, who: Identity, rules: Rules, *, hints: bool = False) -> str:
        """Create a table in the lobby with ``rules`` (its house rules included); the creator
        sits at seat 0 (and deals round 1, seed 000 line 50). ``hints``: Dicas on for the
        table. Returns the unguessable invite code (``/mesa/<code>``).

        Raises BadRules (a house rule that does not fit the game, or ``hints`` not a bool),
        BadIdentity; nothing is written then. Logged as ``{"type": "create"}`` at table
        version 0.
        """
        if not isinstance(rules, Rules):
            raise BadRules("rules must be a Rules")
        check_house_rules(rules)
        if type(hints) is not bool:
            raise BadRules("hints is on or off")
        store = self._store
        now = store.now()
        with store.tx() as s:
            p = verify(s, who)
            t = GameTable(
                code=secrets.token_urlsafe(12),
                mode=rules.mode.value,
                lives=rules.lives,
                rules_json=rules_to_json(rules),
                creator_id=p.id,
                status=TableStatus.LOBBY,
                version=0,
                created_at=now,
                last_move_at=now,
                turn_started_at=now,
            )
            s.add(t)
            s.flush()
            assert t.id is not None
            s.add(Seat(table_id=t.id, seat=0, player_id=p.id, name=p.name))
            s.add(TableOptions(table_id=t.id, hints=hints))
            store.add_log(s, t, 0, {"type": "create"}, seat=0, actor=f"player:{p.id}")
            if store.verifiable():  # round 1's commitment, shown in the waiting room
                fair_deal.open_pending(s, t.id, now, 1)
            code = t.code
        store.notify(code)
        return code

    def join(self, code: str, who: Identity) -> int | None:
        """Sit ``who`` at the lowest free seat and return it; their seat if already seated;
        None = spectator, when the table is full (4) or the match started (seed 000 line 46).

        The seat's name is made distinct from the others' (:func:`distinct_name`). A join
        that loses a race for a seat tries again; raises BadIdentity, TableNotFound, or
        StaleVersion after :data:`JOIN_ATTEMPTS` lost races.
        """
        store = self._store
        for _attempt in range(JOIN_ATTEMPTS):
            try:
                with store.tx() as s:
                    p = verify(s, who)
                    ld = store.load(s, code)
                    mine = ld.seat_of(p.id)
                    if mine is not None:
                        return mine.seat
                    if ld.table.status != TableStatus.LOBBY or len(ld.seats) >= MAX_SEATS:
                        return None
                    taken = {x.seat for x in ld.seats}
                    seat = min(i for i in range(MAX_SEATS) if i not in taken)
                    assert ld.table.id is not None
                    name = distinct_name(p.name, (x.name for x in ld.seats))
                    s.add(Seat(table_id=ld.table.id, seat=seat, player_id=p.id, name=name))
                    store.save(
                        s,
                        ld.table,
                        ld.table.version,
                        {"type": "join"},
                        seat=seat,
                        actor=f"player:{p.id}",
                        last_move_at=store.now(),  # lobby activity: restarts the 7-day expiry
                    )
                store.notify(code)
                return seat
            except (sa.exc.IntegrityError, StaleVersion):  # a racing joiner took the seat
                continue
        raise StaleVersion("the table changed: reload and try again")

    def _creator_in_lobby(self, s: Session, code: str, who: Identity, what: str) -> tuple[Player, Loaded]:
        """The creator's player row and table ``code``, loaded in transaction ``s``, for a
        creator-only lobby step (``what`` names it in the refusal's text).

        Raises BadIdentity, TableNotFound, NotCreator, TableExpired, AlreadyStarted.
        """
        p = verify(s, who)
        ld = self._store.load(s, code)
        if ld.table.creator_id != p.id:
            raise NotCreator(f"only the table's creator can {what}")
        refuse_expired(ld.table)
        if ld.table.status != TableStatus.LOBBY:
            raise AlreadyStarted("the match has started")
        return p, ld

    def add_bots(self, code: str, who: Identity, names: Sequence[str]) -> None:
        """Fill empty seats with bots ``names`` (from Carmen, Tito, Luna; seed 000 line 70).

        A bot's seat name is made distinct from the people's (a person may be called "Tito").
        Raises NotCreator, TableExpired, AlreadyStarted, BadBot (unknown, repeated or already
        seated), TableFull (more bots than empty seats), BadIdentity, TableNotFound.
        """
        store = self._store
        with store.tx() as s:
            p, ld = self._creator_in_lobby(s, code, who, "add bots")
            t = ld.table
            seated = {x.bot for x in ld.seats if x.bot}
            names = list(names)
            if any(n not in BOT_NAMES for n in names) or len(set(names)) != len(names) or seated & set(names):
                raise BadBot(f"bots are {', '.join(BOT_NAMES)}, each once")
            free = [i for i in range(MAX_SEATS) if i not in {x.seat for x in ld.seats}]
            if len(names) > len(free):
                raise TableFull("not enough empty seats")
            if not names:
                return
            assert t.id is not None
            shown = [x.name for x in ld.seats]
            for seat, name in zip(free, names, strict=False):
                shown.append(distinct_name(name, shown))
                s.add(Seat(table_id=t.id, seat=seat, bot=name, name=shown[-1]))
            store.save(
                s,
                t,
                t.version,
                {"type": "add_bots", "names": names},
                seat=None,
                actor=f"player:{p.id}",
                last_move_at=store.now(),  # lobby activity: restarts the 7-day expiry
            )
        store.notify(code)

    def start(self, code: str, who: Identity) -> None:
        """Deal the first round (creator only, in the lobby, at least 2 seated; seed 000 line 50).

        Raises NotCreator, TableExpired, AlreadyStarted, NeedTwoPlayers, BadIdentity,
        TableNotFound, StaleVersion.
        """
        store = self._store
        with store.tx() as s:
            p, ld = self._creator_in_lobby(s, code, who, "start")
            if len(ld.seats) < 2:
                raise NeedTwoPlayers("at least two players are needed")
            store.deal_new_match(
                s, ld, {"type": "start", "seats": len(ld.seats)}, seat=None, actor=f"player:{p.id}"
            )
        store.notify(code)

    def leave_seat(self, code: str, who: Identity) -> None:
        """``who`` gets up from their seat in the waiting room (before the start) and watches.

        The creator stays (they start the match, seed 000 line 50). Logged as
        ``{"type": "leave_seat"}`` with the seat it had. Raises BadIdentity, TableNotFound,
        TableExpired, AlreadyStarted, NotSeated, CreatorStays.
        """
        store = self._store
        with store.tx() as s:
            p = verify(s, who)
            ld = store.load(s, code)
            refuse_expired(ld.table)
            if ld.table.status != TableStatus.LOBBY:
                raise AlreadyStarted("the match has started: leave through the pause menu")
            mine = ld.seat_of(p.id)
            if mine is None:
                raise NotSeated("you do not sit at this table")
            if ld.table.creator_id == p.id:
                raise CreatorStays("the creator stays seated")
            self._drop_seat(s, ld, mine, {"type": "leave_seat", "seat": mine.seat}, f"player:{p.id}")
        store.notify(code)

    def remove_seat(self, code: str, who: Identity, seat: int) -> None:
        """The creator removes the person or bot at ``seat`` (0..3) before the start; the seats
        after it move up one. Logged as ``{"type": "remove_seat", "seat": seat}``.

        Raises NotCreator, TableExpired, AlreadyStarted, SeatNotFound (nobody there),
        CreatorStays (their own seat), BadIdentity, TableNotFound.
        """
        store = self._store
        with store.tx() as s:
            p, ld = self._creator_in_lobby(s, code, who, "remove a seat")
            target = ld.by_index(seat) if isinstance(seat, int) else None
            if target is None:
                raise SeatNotFound(f"nobody sits at seat {seat!r}")
            if target.player_id == p.id:
                raise CreatorStays("the creator stays seated")
            self._drop_seat(s, ld, target, {"type": "remove_seat", "seat": seat}, f"player:{p.id}")
        store.notify(code)

    def _drop_seat(self, s: Session, ld: Loaded, gone: SeatRow, entry: dict[str, object], actor: str) -> None:
        """Delete seat ``gone`` of ``ld`` and move each later seat up one (in order, so the
        unique (table, seat) pair never collides), then the guarded save of ``entry``."""
        store = self._store
        s.execute(sa.delete(Seat).where(Seat.id == gone.id))  # type: ignore[arg-type]
        for later in sorted((x for x in ld.seats if x.seat > gone.seat), key=lambda x: x.seat):
            s.execute(sa.update(Seat).where(Seat.id == later.id).values(seat=later.seat - 1))  # type: ignore[arg-type]
        store.save(
            s,
            ld.table,
            ld.table.version,
            dict(entry),
            seat=None,
            actor=actor,
            last_move_at=store.now(),  # lobby activity: restarts the 7-day expiry
        )
