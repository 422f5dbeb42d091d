"""The actions a seat can ask the engine to apply: small frozen values with a dict form.

Each action is a frozen dataclass; :meth:`Action.to_dict` gives a JSON-safe dict for the
action log and :func:`action_from_dict` reads it back (cards in notation, see cards.py).

>>> Discard(Card.parse("7H'")).to_dict()
{'type': 'discard', 'card': "7H'"}
>>> action_from_dict({'type': 'go_out', 'discard': None})
GoOut(discard=None)
>>> action_from_dict(GoOut(Card.parse("QS")).to_dict()) == GoOut(Card.parse("QS"))
True

The playing actions (what :func:`pifecacheta.rules.legal_actions` lists) are :class:`Draw`,
:class:`TakeDiscard`, :class:`Discard`, :class:`GoOut`, :class:`AnnounceOneAway` and
:class:`NextRound`; the table actions :class:`Resign`, :class:`ClaimAbsence`, :class:`Expire`
and :class:`LeaveTable` are never listed there (their conditions are checked by ``apply``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card
from .errors import IllegalActionError, NotationError, RulesError
from .shuffle import RoundKey

__all__ = [
    "Action",
    "Draw",
    "TakeDiscard",
    "Discard",
    "GoOut",
    "AnnounceOneAway",
    "NextRound",
    "Resign",
    "ClaimAbsence",
    "Expire",
    "LeaveTable",
    "action_from_dict",
]


@dataclass(frozen=True)
class Action:
    """Base class of every action; ``type`` is its stable name in the action log."""

    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: ``{"type": ...}`` plus the action's fields (cards in notation)."""
        return {"type": self.type}


@dataclass(frozen=True)
class Draw(Action):
    """COMPRAR: take the top card of the stock (seed 000 line 54). DRAW phase, own turn."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True)
class TakeDiscard(Action):
    """PEGAR DO LIXO: take the top card of the discard pile (seed 000 line 54). DRAW phase,
    own turn. That card and its twin may not be discarded this turn, nor be the go-out
    discard (seed 000 line 54)."""

    type: ClassVar[str] = "take_discard"


@dataclass(frozen=True)
class Discard(Action):
    """Put ``card`` from the hand on the discard pile, ending the turn. DISCARD phase."""

    type: ClassVar[str] = "discard"
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "card": str(self.card)}


@dataclass(frozen=True)
class GoOut(Action):
    """BATER (seed 000 line 56), DISCARD phase, own turn.

    ``discard=None``: the engine picks the best way to go out (10 in melds preferred).
    ``discard=card``: drag the leftover to the pile; that card must be the discard with the
    other 9 in melds, else the action is refused with ``cannot_go_out``.
    """

    type: ClassVar[str] = "go_out"
    discard: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "discard": None if self.discard is None else str(self.discard)}


@dataclass(frozen=True)
class AnnounceOneAway(Action):
    """NA BOA (Cacheta, seed 000 line 64): the seat holds 9 cards and is one card away."""

    type: ClassVar[str] = "announce_one_away"


@dataclass(frozen=True)
class NextRound(Action):
    """PRÓXIMA RODADA (seed 000 line 68): any seat of the match, even FORA, at ROUND_OVER.

    ``key``: the verifiable source of the round it deals (the service sets it; None deals from
    the match's integer seed, see shuffle.py). Logged with the action, so a replay of the log
    deals the same round.
    """

    type: ClassVar[str] = "next_round"
    key: RoundKey | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"type": "next_round"}``, plus ``"key"`` when it has one."""
        return {"type": self.type} if self.key is None else {"type": self.type, "key": self.key.to_dict()}


@dataclass(frozen=True)
class Resign(Action):
    """DESISTIR / SAIR DO JOGO (seed 000 line 72): the seat loses and the match ends."""

    type: ClassVar[str] = "resign"


@dataclass(frozen=True)
class ClaimAbsence(Action):
    """ENCERRAR POR AUSÊNCIA (seed 000 line 72) against the seat whose turn it is; the 48 h
    are checked by the service, not here."""

    type: ClassVar[str] = "claim_absence"


@dataclass(frozen=True)
class Expire(Action):
    """7 days without a move (seed 000 line 72): the match ends with no winner. Pass seat None."""

    type: ClassVar[str] = "expire"


@dataclass(frozen=True)
class LeaveTable(Action):
    """SAIR DA MESA (seed 000 line 72): a FORA seat in Cacheta leaves; the match goes on."""

    type: ClassVar[str] = "leave_table"


_SIMPLE: dict[str, Action] = {
    a.type: a
    for a in (
        Draw(),
        TakeDiscard(),
        AnnounceOneAway(),
        NextRound(),
        Resign(),
        ClaimAbsence(),
        Expire(),
        LeaveTable(),
    )
}


def action_from_dict(d: Any) -> Action:
    """Inverse of :meth:`Action.to_dict`.

    Raises:
        IllegalActionError: code ``bad_action`` for an unknown type, a missing field or bad
            card notation.
    """
    if not isinstance(d, dict):
        raise IllegalActionError("bad_action", f"an action is a dict, not {type(d).__name__}")
    kind = d.get("type")
    try:
        if kind == NextRound.type and d.get("key") is not None:
            return NextRound(RoundKey.from_dict(d["key"]))
        if kind in _SIMPLE:
            return _SIMPLE[kind]
        if kind == Discard.type:
            return Discard(Card.parse(d["card"]))
        if kind == GoOut.type:
            raw = d.get("discard")
            return GoOut(None if raw is None else Card.parse(raw))
    except (KeyError, NotationError, RulesError) as e:
        raise IllegalActionError("bad_action", f"malformed action {d!r}: {e}") from None
    raise IllegalActionError("bad_action", f"unknown action type {kind!r}")
