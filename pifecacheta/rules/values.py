"""The match as immutable values: :class:`Match` (the whole hidden state), its current
:class:`Round`, the :class:`Phase` of the turn, a go-out's :class:`RoundResult` and the match's
:class:`Outcome`, each with a JSON-safe dict form (``to_dict`` / ``from_dict``).

The rules that move these values from one to the next are in :mod:`.match` (the entry points)
and :mod:`.turns` (one handler per action).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from .cards import Card
from .config import Mode, Rules
from .errors import RulesError
from .melds import Meld, MeldKind
from .shuffle import RoundKey
from .solver import GoOutPlan

__all__ = ["HAND_SIZE", "Phase", "Termination", "Outcome", "RoundResult", "Round", "Match"]

#: Cards dealt to each seat (seed 000 line 50).
HAND_SIZE = 9


class Phase(enum.Enum):
    """Where the round is: the seat to move must DRAW (or take the discard), then DISCARD
    (or go out); ROUND_OVER after a go-out (FIM DA RODADA); MATCH_OVER at the end."""

    DRAW = "draw"
    DISCARD = "discard"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"


class Termination(enum.Enum):
    """Why the match ended (seed 000 lines 48, 66, 72)."""

    GONE_OUT = "gone_out"  # Pife: the first go-out wins
    LAST_WITH_LIVES = "last_with_lives"  # Cacheta: one active seat left
    RESIGNED = "resigned"  # DESISTIR / SAIR DO JOGO
    ABSENCE = "absence"  # ENCERRAR POR AUSÊNCIA
    EXPIRED = "expired"  # 7 days without a move, no winner


@dataclass(frozen=True)
class Outcome:
    """The end of a match: ``winner`` (None: expired, or nobody left), ``loser`` (the seat
    that resigned or was absent, else None)."""

    termination: Termination
    winner: int | None
    loser: int | None = None


@dataclass(frozen=True)
class RoundResult:
    """A go-out: ``winner`` seat, its ``plan`` (melds are public at round end, seed 000
    line 68), ``out_of_turn`` (Pife: bater com a louca; Cacheta: jumped the queue),
    ``lives_lost`` per seat this round (all zero in Pife), and ``discarder``: for an
    out-of-turn go-out, the seat whose discard the winner went out on (None otherwise)."""

    winner: int
    plan: GoOutPlan
    out_of_turn: bool
    lives_lost: tuple[int, ...]
    discarder: int | None = None


@dataclass(frozen=True, kw_only=True)
class Round:
    """One deal, hidden state included.

    Attributes:
        hands: per seat, the cards held (empty for a seat that is out). After a go-out the
            winner's hand is the cards of its melds.
        stock: the face-down stock, top = last.
        discard_pile: the pile, top = last; ``discarded_by`` the seat that put each card.
        vira: the turned card (Cacheta), out of play; None in Pife.
        turn: the seat to move (the winner once the round is over).
        phase: DRAW, DISCARD, ROUND_OVER or MATCH_OVER.
        taken: the card taken from the pile this turn (None after a draw from the stock).
        plain: wild cards held that came from the pile: they count only as themselves.
        announced: seats that announced NA BOA.
        picked_up: per seat, cards publicly taken from the pile and still held.
        result: the go-out, once the round is over.
        rebuilds: how many times the stock was rebuilt from the pile this round.
    """

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    discarded_by: tuple[int, ...]
    vira: Card | None
    turn: int
    phase: Phase
    taken: Card | None = None
    plain: frozenset[Card] = frozenset()
    announced: frozenset[int] = frozenset()
    picked_up: tuple[tuple[Card, ...], ...] = ()
    result: RoundResult | None = None
    rebuilds: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (cards in notation, sets as sorted lists)."""
        return {
            "hands": [_cards_out(h) for h in self.hands],
            "stock": _cards_out(self.stock),
            "discard_pile": _cards_out(self.discard_pile),
            "discarded_by": list(self.discarded_by),
            "vira": None if self.vira is None else str(self.vira),
            "turn": self.turn,
            "phase": self.phase.value,
            "taken": None if self.taken is None else str(self.taken),
            "plain": _cards_out(sorted(self.plain)),
            "announced": sorted(self.announced),
            "picked_up": [_cards_out(p) for p in self.picked_up],
            "result": None if self.result is None else _result_out(self.result),
            "rebuilds": self.rebuilds,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Round:
        """Inverse of :meth:`to_dict`. Raises RulesError on a malformed dict."""
        try:
            return cls(
                hands=tuple(_cards_in(h) for h in d["hands"]),
                stock=_cards_in(d["stock"]),
                discard_pile=_cards_in(d["discard_pile"]),
                discarded_by=tuple(int(s) for s in d["discarded_by"]),
                vira=None if d["vira"] is None else Card.parse(d["vira"]),
                turn=int(d["turn"]),
                phase=Phase(d["phase"]),
                taken=None if d["taken"] is None else Card.parse(d["taken"]),
                plain=frozenset(_cards_in(d["plain"])),
                announced=frozenset(int(s) for s in d["announced"]),
                picked_up=tuple(_cards_in(p) for p in d["picked_up"]),
                result=None if d["result"] is None else _result_in(d["result"]),
                rebuilds=int(d["rebuilds"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise RulesError(f"malformed round: {e}") from None


@dataclass(frozen=True, kw_only=True)
class Match:
    """The whole state of a match, hidden parts included (never send it to a client: use
    :func:`pifecacheta.rules.player_view`).

    Attributes:
        rules: the match's fixed rules; ``seats`` 2..4; ``seed`` of the deals.
        round_number: 1, 2, ...; ``dealer`` the seat that dealt this round.
        lives: per seat (Cacheta); all zero and unused in Pife.
        left: seats that left the table (SAIR DA MESA, only FORA seats in Cacheta).
        round: the current (or last) round; ``outcome`` once the match is decided.
        version: 0 at the deal, +1 on every applied action.
        key: the verifiable source of the current round's deal and rebuilds (secret until the
            round is over); None: they come from ``seed`` (shuffle.py).
    """

    rules: Rules
    seats: int
    seed: int
    round_number: int
    dealer: int
    lives: tuple[int, ...]
    left: frozenset[int] = frozenset()
    round: Round | None = None
    outcome: Outcome | None = None
    version: int = 0
    key: RoundKey | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict: ``Match.from_dict(json.loads(json.dumps(m.to_dict()))) == m``."""
        return {
            "rules": {f.name: _plain_value(getattr(self.rules, f.name)) for f in fields(self.rules)},
            "seats": self.seats,
            "seed": self.seed,
            "round_number": self.round_number,
            "dealer": self.dealer,
            "lives": list(self.lives),
            "left": sorted(self.left),
            "round": None if self.round is None else self.round.to_dict(),
            "outcome": None
            if self.outcome is None
            else {
                "termination": self.outcome.termination.value,
                "winner": self.outcome.winner,
                "loser": self.outcome.loser,
            },
            "version": self.version,
            "key": None if self.key is None else self.key.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Match:
        """Inverse of :meth:`to_dict`. Raises RulesError on a malformed dict."""
        try:
            rd = dict(d["rules"])
            rd["mode"] = Mode(rd["mode"])
            out = d["outcome"]
            return cls(
                rules=Rules(**rd),
                seats=int(d["seats"]),
                seed=int(d["seed"]),
                round_number=int(d["round_number"]),
                dealer=int(d["dealer"]),
                lives=tuple(int(x) for x in d["lives"]),
                left=frozenset(int(s) for s in d["left"]),
                round=None if d["round"] is None else Round.from_dict(d["round"]),
                outcome=None
                if out is None
                else Outcome(Termination(out["termination"]), out["winner"], out["loser"]),
                version=int(d["version"]),
                key=None if d.get("key") is None else RoundKey.from_dict(d["key"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, RulesError):
                raise
            raise RulesError(f"malformed match: {e}") from None


# --- serialisation helpers -------------------------------------------------------------


def _plain_value(v: Any) -> Any:
    """An enum as its value, anything else as it is (for the rules dict)."""
    return v.value if isinstance(v, enum.Enum) else v


def _cards_out(cards: Sequence[Card]) -> list[str]:
    """Cards in notation, in their order."""
    return [str(c) for c in cards]


def _cards_in(texts: Sequence[str]) -> tuple[Card, ...]:
    """Inverse of :func:`_cards_out`; raises NotationError on bad notation."""
    return tuple(Card.parse(t) for t in texts)


def _result_out(r: RoundResult) -> dict[str, Any]:
    """JSON-safe dict of a round result (melds with their kind, cards and wild)."""
    return {
        "winner": r.winner,
        "out_of_turn": r.out_of_turn,
        "discarder": r.discarder,
        "lives_lost": list(r.lives_lost),
        "melds": [
            {
                "kind": m.kind.value,
                "cards": _cards_out(m.cards),
                "wild": None if m.wild is None else str(m.wild),
            }
            for m in r.plan.melds
        ],
        "discard": None if r.plan.discard is None else str(r.plan.discard),
    }


def _result_in(d: dict[str, Any]) -> RoundResult:
    """Inverse of :func:`_result_out`."""
    melds = tuple(
        Meld(
            MeldKind(m["kind"]),
            _cards_in(m["cards"]),
            None if m["wild"] is None else Card.parse(m["wild"]),
        )
        for m in d["melds"]
    )
    discard = None if d["discard"] is None else Card.parse(d["discard"])
    return RoundResult(
        winner=int(d["winner"]),
        plan=GoOutPlan(melds=melds, discard=discard),
        out_of_turn=bool(d["out_of_turn"]),
        lives_lost=tuple(int(x) for x in d["lives_lost"]),
        discarder=None if d.get("discarder") is None else int(d["discarder"]),
    )
