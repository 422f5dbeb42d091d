"""Turn flow: rounds and matches as immutable values, and the actions that change them.

Rules from seed 000, section "No Selminha.com" (lines 46-75):

- line 50: 2 to 4 seats, 9 cards each; round 1: seat 0 deals and the next seat starts;
  play goes in seat order (increasing index, wrapping); in Cacheta the dealer moves to the
  next active seat each round.
- line 54: a turn is Draw (stock) or TakeDiscard (top of the pile), then Discard or GoOut.
  The card taken from the pile and its twin may not be discarded that turn, nor be the
  go-out discard.
- line 56: GoOut(None) = BATER, the engine's best plan (10 in melds preferred);
  GoOut(card) = drag the leftover: that card is the discard, the other 9 in melds.
- line 58: stock empty at a draw: the pile minus its top card is shuffled into the stock,
  as often as needed; the round ends only at a go-out.
- line 60 (Pife): after a discard, the first seat in order after the discarder that can go
  out with that card goes out at once (bater com a louca); the first go-out wins the match.
- line 62: Cacheta turns up the vira, out of play; a wild taken from the pile counts only
  as itself (``Round.plain``).
- line 64: NA BOA: a seat holding 9 cards, one away, announces; a discard that completes an
  announced seat makes it jump the queue (first in order after the discarder); a discarder
  who is no longer one away loses the announcement.
- line 66: lives 7 or 10; a go-out takes 1 life (2 with ten) from every other active seat,
  floor 0; 0 lives = FORA (out), skipped from the next round; the last with lives wins.
- line 68: after a go-out the round is over (ROUND_OVER); any seat of the match, even
  FORA, applies NextRound: a new round, or MATCH_OVER when the match is decided.
- line 72: Resign / ClaimAbsence end the match (winner: Cacheta, most lives among the
  others, ties to the first in seat order after the loser; Pife, the next seat after the
  loser); Expire ends it with no winner; LeaveTable is for a FORA seat in Cacheta only.
  A FORA seat may not claim absence (line 72, "menos quem já está FORA") nor resign
  (it has nothing to resign; it may LeaveTable).

Randomness: ``random.Random(f"{seed}:{round_number}")`` shuffles the deal and
``random.Random(f"{seed}:{round_number}:rebuild:{n}")`` the n-th rebuild (n = 1, 2, ...),
so a round is reproducible from the seed and its action list.

>>> from .config import PIFE
>>> m = new_match(PIFE, 2, seed=7)
>>> m.round.turn, m.round.phase, [len(h) for h in m.round.hands], len(m.round.stock)
(1, <Phase.DRAW: 'draw'>, [9, 9], 86)
>>> m2 = apply(m, 1, Draw())
>>> m2.version, m2.round.phase, len(m2.round.hands[1])
(1, <Phase.DISCARD: 'discard'>, 10)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from .actions import (
    Action,
    AnnounceOneAway,
    ClaimAbsence,
    Discard,
    Draw,
    Expire,
    GoOut,
    LeaveTable,
    NextRound,
    Resign,
    TakeDiscard,
)
from .cards import Card, Face, full_deck
from .config import Mode, Rules
from .errors import IllegalActionError, NotYourTurnError, RulesError, WrongPhaseError
from .melds import Meld, MeldKind, wild_faces
from .solver import GoOutPlan, best_go_out, go_out_with_discard, is_one_away

__all__ = [
    "HAND_SIZE",
    "Phase",
    "Termination",
    "Outcome",
    "RoundResult",
    "Round",
    "Match",
    "new_match",
    "apply",
    "legal_actions",
    "active_seats",
    "wilds_of",
]

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


# --- seats and dealing ---------------------------------------------------------------


def active_seats(match: Match) -> tuple[int, ...]:
    """Seats still playing, in seat order: every seat in Pife; seats with lives in Cacheta
    (0 lives = FORA, seed 000 line 66)."""
    if match.rules.mode is Mode.PIFE:
        return tuple(s for s in range(match.seats) if s not in match.left)
    return tuple(s for s in range(match.seats) if match.lives[s] > 0 and s not in match.left)


def wilds_of(match: Match) -> frozenset[Face]:
    """The wild faces of the current round (empty in Pife or with no round)."""
    return wild_faces(None if match.round is None else match.round.vira, match.rules)


def _after(seat: int, among: Sequence[int], seats: int) -> list[int]:
    """Seats of ``among`` in play order starting after ``seat`` (``seat`` itself last)."""
    order = [(seat + i) % seats for i in range(1, seats + 1)]
    return [s for s in order if s in among]


def _deal(
    rules: Rules, seats: int, seed: int, round_number: int, dealer: int, active: Sequence[int]
) -> Round:
    """Shuffle with ``Random(f"{seed}:{round_number}")`` and deal 9 cards to each active
    seat, one at a time, starting after the dealer; Cacheta turns up the vira."""
    deck = list(full_deck())
    random.Random(f"{seed}:{round_number}").shuffle(deck)
    order = _after(dealer, active, seats)
    hands: dict[int, list[Card]] = {s: [] for s in range(seats)}
    for _ in range(HAND_SIZE):
        for s in order:
            hands[s].append(deck.pop())
    vira = deck.pop() if rules.has_wild else None
    return Round(
        hands=tuple(tuple(hands[s]) for s in range(seats)),
        stock=tuple(deck),
        discard_pile=(),
        discarded_by=(),
        vira=vira,
        turn=order[0],
        phase=Phase.DRAW,
        picked_up=((),) * seats,
    )


def new_match(rules: Rules, seats: int, *, seed: int) -> Match:
    """Start a match and deal round 1 (seat 0 deals, seat 1 starts; seed 000 line 50).

    Args:
        rules: the match's rules; seats: 2..4 (seed 000 line 50); seed: any int.

    Raises:
        RulesError: seats outside 2..4.
    """
    if not isinstance(seats, int) or not 2 <= seats <= 4:
        raise RulesError(f"2 to 4 seats, not {seats!r}")
    lives = (rules.lives if rules.has_wild else 0,) * seats
    return Match(
        rules=rules,
        seats=seats,
        seed=seed,
        round_number=1,
        dealer=0,
        lives=lives,
        round=_deal(rules, seats, seed, 1, 0, range(seats)),
    )


# --- checks ----------------------------------------------------------------------------


def _live_round(match: Match, action: Action) -> Round:
    """The round, refusing once the match is over or decided (only NextRound then)."""
    r = match.round
    if r is None or r.phase is Phase.MATCH_OVER:
        raise IllegalActionError("match_over", "the match is over")
    if match.outcome is not None and not isinstance(action, NextRound):
        raise IllegalActionError("match_over", "the match is decided: only NextRound")
    return r


def _check_member(match: Match, seat: int | None) -> int:
    """The seat, if it is a seat of the match that has not left; else ``not_a_player``."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < match.seats:
        raise IllegalActionError("not_a_player", f"seat {seat!r} is not a seat of this match")
    if seat in match.left:
        raise IllegalActionError("not_a_player", f"seat {seat} left the table")
    return seat


def _check_in_play(match: Match, seat: int) -> None:
    """Refuse a seat that is out (FORA, or left) with ``player_out``."""
    if seat not in active_seats(match):
        raise IllegalActionError("player_out", f"seat {seat} is out (FORA)")


def _turn(match: Match, seat: int | None, action: Action, phase: Phase) -> tuple[int, Round]:
    """Checks for a turn action, in order: match over, player, out, round over, turn, phase."""
    r = _live_round(match, action)
    s = _check_member(match, seat)
    _check_in_play(match, s)
    if r.phase is Phase.ROUND_OVER:
        raise IllegalActionError("round_over", "the round is over: NextRound")
    if s != r.turn:
        raise NotYourTurnError(f"it is seat {r.turn}'s turn, not seat {s}'s")
    if r.phase is not phase:
        raise WrongPhaseError(f"{type(action).__name__} is not allowed in the {r.phase.value} phase")
    return s, r


def _with(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of ``items`` with ``items[index]`` replaced by ``value``."""
    return items[:index] + (value,) + items[index + 1 :]


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """The cards other than ``card``, in order."""
    return tuple(c for c in cards if c != card)


def _plain_in(r: Round, hand: Sequence[Card]) -> frozenset[Card]:
    """The round's plain wild cards that are in ``hand``."""
    return r.plain & frozenset(hand)


# --- the actions ------------------------------------------------------------------------


def _rebuild(match: Match, r: Round) -> Round:
    """The pile minus its top card becomes the stock (seed 000 line 58): shuffled with
    ``Random(f"{seed}:{round_number}:rebuild:{n}")``, or with ``rebuild_without_shuffle`` turned
    face down as it lies (the first card discarded becomes the top of the stock)."""
    if len(r.discard_pile) < 2:
        raise IllegalActionError("stock_empty", "no card left to rebuild the stock")
    n = r.rebuilds + 1
    body = list(r.discard_pile[:-1])
    if match.rules.rebuild_without_shuffle:
        body.reverse()
    else:
        random.Random(f"{match.seed}:{match.round_number}:rebuild:{n}").shuffle(body)
    return replace(
        r,
        stock=tuple(body),
        discard_pile=r.discard_pile[-1:],
        discarded_by=r.discarded_by[-1:],
        rebuilds=n,
    )


def _draw(match: Match, seat: int | None, action: Action) -> Match:
    """Draw: the top of the stock joins the hand, rebuilding the stock first when empty
    (seed 000 lines 54 and 58)."""
    s, r = _turn(match, seat, action, Phase.DRAW)
    if not r.stock:
        r = _rebuild(match, r)
    card = r.stock[-1]
    r = replace(
        r,
        stock=r.stock[:-1],
        hands=_with(r.hands, s, r.hands[s] + (card,)),
        phase=Phase.DISCARD,
        taken=None,
    )
    return replace(match, round=r)


def _take_discard(match: Match, seat: int | None, action: Action) -> Match:
    """TakeDiscard: the top of the pile joins the hand and ``picked_up``; a wild becomes
    plain (seed 000 lines 54 and 62; variant ``discard_only_to_go_out``, line 38)."""
    s, r = _turn(match, seat, action, Phase.DRAW)
    if not r.discard_pile:
        raise IllegalActionError("discard_empty", "the discard pile is empty")
    card = r.discard_pile[-1]
    wilds = wilds_of(match)
    hand = r.hands[s]
    if match.rules.discard_only_to_go_out:
        if _plan_with_discard_top(match, r, hand, card) is None:
            raise IllegalActionError("discard_only_to_go_out", f"{card} does not let seat {s} go out")
    r = replace(
        r,
        hands=_with(r.hands, s, hand + (card,)),
        discard_pile=r.discard_pile[:-1],
        discarded_by=r.discarded_by[:-1],
        phase=Phase.DISCARD,
        taken=card,
        plain=r.plain | {card} if card.face in wilds else r.plain,
        picked_up=_with(r.picked_up, s, r.picked_up[s] + (card,)),
    )
    return replace(match, round=r)


def _plan_with_discard_top(match: Match, r: Round, hand9: Sequence[Card], card: Card) -> GoOutPlan | None:
    """How ``hand9`` goes out with ``card`` taken from the pile, or None.

    Same test as ``card.face in completing_faces(hand9, from_discard=True)`` (the card must be
    melded, it and its twin may not be the discard, a wild counts only as itself: seed 000
    lines 54 and 62), done with a single solver call for the one card on the pile.
    """
    return best_go_out(
        tuple(hand9) + (card,),
        wilds=wilds_of(match),
        plain=_plain_in(r, hand9) | {card},
        forbidden_discards=frozenset({card.face}),
        must_meld=card,
        rules=match.rules,
    )


def _check_not_taken(r: Round, card: Card) -> None:
    """Refuse the card taken from the pile this turn, or its twin, with ``taken_card``
    (seed 000 line 54)."""
    if r.taken is not None and card in (r.taken, r.taken.twin):
        raise IllegalActionError(
            "taken_card", f"{card} (or its twin) was taken from the discard pile this turn"
        )


def _discard(match: Match, seat: int | None, action: Action) -> Match:
    """Discard: the card goes on the pile, then the first seat that may go out on it out of
    turn does (Pife: anyone, line 60; Cacheta: announced seats, line 64), else the turn passes."""
    assert isinstance(action, Discard)
    s, r = _turn(match, seat, action, Phase.DISCARD)
    card = action.card
    hand = r.hands[s]
    if card not in hand:
        raise IllegalActionError("card_not_in_hand", f"{card} is not in seat {s}'s hand")
    if match.rules.discard_only_to_go_out and r.taken is not None:
        raise IllegalActionError(
            "discard_only_to_go_out", "the discard was taken to go out: only GoOut is allowed"
        )
    _check_not_taken(r, card)
    wilds = wilds_of(match)
    new_hand = _without(hand, card)
    r = replace(
        r,
        hands=_with(r.hands, s, new_hand),
        discard_pile=r.discard_pile + (card,),
        discarded_by=r.discarded_by + (s,),
        taken=None,
        plain=r.plain - {card},
        picked_up=_with(r.picked_up, s, _without(r.picked_up[s], card)),
    )
    if s in r.announced and not is_one_away(
        new_hand, wilds=wilds, plain=_plain_in(r, new_hand), rules=match.rules
    ):
        r = replace(r, announced=r.announced - {s})  # seed 000 line 64
    # Out-of-turn go-out: Pife anyone (line 60), Cacheta announced seats (line 64).
    pife = match.rules.mode is Mode.PIFE
    for other in _after(s, active_seats(match), match.seats):
        if other == s or not (pife or other in r.announced):
            continue
        other_hand = r.hands[other]
        plan = _plan_with_discard_top(match, r, other_hand, card)
        if plan is None:
            continue
        plain = _plain_in(r, other_hand) | ({card} if card.face in wilds else frozenset())
        hand10 = other_hand + (card,)
        r = replace(
            r,
            hands=_with(r.hands, other, hand10),
            discard_pile=r.discard_pile[:-1],
            discarded_by=r.discarded_by[:-1],
            plain=r.plain | plain,
            picked_up=_with(r.picked_up, other, r.picked_up[other] + (card,)),
        )
        return _gone_out(match, r, other, plan, out_of_turn=True, discarder=s)
    nxt = _after(s, active_seats(match), match.seats)[0]
    return replace(match, round=replace(r, turn=nxt, phase=Phase.DRAW))


def _gone_out(
    match: Match, r: Round, seat: int, plan: GoOutPlan, *, out_of_turn: bool, discarder: int | None = None
) -> Match:
    """Apply a go-out: melds on the table, lives, result, maybe the outcome (lines 60, 66)."""
    hand = r.hands[seat]
    melded = tuple(c for m in plan.melds for c in m.cards)
    laid = melded + (() if plan.discard is None else (plan.discard,))
    if sorted(laid) != sorted(hand):
        raise RulesError(f"go-out plan {plan} does not use exactly the hand {hand}")
    pile, by = r.discard_pile, r.discarded_by
    picked, plain = r.picked_up, r.plain
    if plan.discard is not None:
        pile, by = pile + (plan.discard,), by + (seat,)
        picked = _with(picked, seat, _without(picked[seat], plan.discard))
        plain = plain - {plan.discard}
    before = active_seats(match)
    lost = [0] * match.seats
    lives = list(match.lives)
    outcome: Outcome | None
    if match.rules.mode is Mode.PIFE:
        outcome = Outcome(Termination.GONE_OUT, seat)
    else:
        take = 2 if plan.with_ten else 1
        for s in before:
            if s != seat:
                lost[s] = min(lives[s], take)
                lives[s] -= lost[s]
        still = [s for s in range(match.seats) if lives[s] > 0 and s not in match.left]
        outcome = None
        if len(still) <= 1:
            outcome = Outcome(Termination.LAST_WITH_LIVES, still[0] if still else None)
    result = RoundResult(
        winner=seat, plan=plan, out_of_turn=out_of_turn, lives_lost=tuple(lost), discarder=discarder
    )
    r = replace(
        r,
        hands=_with(r.hands, seat, melded),
        discard_pile=pile,
        discarded_by=by,
        picked_up=picked,
        plain=plain,
        taken=None,
        turn=seat,
        phase=Phase.ROUND_OVER,
        result=result,
    )
    return replace(match, round=r, lives=tuple(lives), outcome=outcome)


def _go_out(match: Match, seat: int | None, action: Action) -> Match:
    """GoOut: the best plan (``discard`` None) or the plan discarding ``discard`` (line 56)."""
    assert isinstance(action, GoOut)
    s, r = _turn(match, seat, action, Phase.DISCARD)
    hand = r.hands[s]
    wilds = wilds_of(match)
    forbidden = frozenset() if r.taken is None else frozenset({r.taken.face})
    plain = _plain_in(r, hand)
    if action.discard is None:
        plan = best_go_out(
            hand, wilds=wilds, plain=plain, forbidden_discards=forbidden, must_meld=r.taken, rules=match.rules
        )
    else:
        if action.discard not in hand:
            raise IllegalActionError("card_not_in_hand", f"{action.discard} is not in seat {s}'s hand")
        _check_not_taken(r, action.discard)
        plan = go_out_with_discard(
            hand,
            action.discard,
            wilds=wilds,
            plain=plain,
            forbidden_discards=forbidden,
            must_meld=r.taken,
            rules=match.rules,
        )
    if plan is None:
        raise IllegalActionError("cannot_go_out", f"seat {s} cannot go out that way")
    return _gone_out(match, r, s, plan, out_of_turn=False)


def _announce(match: Match, seat: int | None, action: Action) -> Match:
    """AnnounceOneAway: NA BOA for an active Cacheta seat holding 9 cards, one away (line 64)."""
    r = _live_round(match, action)
    s = _check_member(match, seat)
    if match.rules.mode is Mode.PIFE:
        raise IllegalActionError("no_announce_in_pife", "NA BOA is a Cacheta rule")
    _check_in_play(match, s)
    if r.phase is Phase.ROUND_OVER:
        raise IllegalActionError("round_over", "the round is over: NextRound")
    hand = r.hands[s]
    if len(hand) != HAND_SIZE:
        raise WrongPhaseError("announce with 9 cards, before drawing or after discarding")
    if s in r.announced:
        raise IllegalActionError("already_announced", f"seat {s} already announced")
    if not is_one_away(hand, wilds=wilds_of(match), plain=_plain_in(r, hand), rules=match.rules):
        raise IllegalActionError("not_one_away", f"seat {s} is not one card away from going out")
    return replace(match, round=replace(r, announced=r.announced | {s}))


def _next_round(match: Match, seat: int | None, action: Action) -> Match:
    """NextRound at ROUND_OVER: deal the next round (the dealer moves on), or MATCH_OVER
    when the outcome is set (seed 000 line 68)."""
    r = _live_round(match, action)
    _check_member(match, seat)
    if r.phase is not Phase.ROUND_OVER:
        raise IllegalActionError("round_not_over", "the round is still being played")
    if match.outcome is not None:
        return replace(match, round=replace(r, phase=Phase.MATCH_OVER))
    active = active_seats(match)
    dealer = _after(match.dealer, active, match.seats)[0]
    number = match.round_number + 1
    return replace(
        match,
        round_number=number,
        dealer=dealer,
        round=_deal(match.rules, match.seats, match.seed, number, dealer, active),
    )


def _winner_after_loss(match: Match, loser: int) -> int | None:
    """Cacheta: most lives among the other active seats, ties to the first in seat order
    after the loser; Pife: the next seat after the loser (seed 000 line 72)."""
    others = [s for s in _after(loser, active_seats(match), match.seats) if s != loser]
    if not others:
        return None
    if match.rules.mode is Mode.PIFE:
        return others[0]
    best = max(match.lives[s] for s in others)
    return next(s for s in others if match.lives[s] == best)


def _end(match: Match, r: Round, outcome: Outcome) -> Match:
    """The match over: phase MATCH_OVER with ``outcome``."""
    return replace(match, round=replace(r, phase=Phase.MATCH_OVER), outcome=outcome)


def _resign(match: Match, seat: int | None, action: Action) -> Match:
    """Resign: the seat loses and the match ends (seed 000 line 72)."""
    r = _live_round(match, action)
    s = _check_member(match, seat)
    _check_in_play(match, s)
    return _end(match, r, Outcome(Termination.RESIGNED, _winner_after_loss(match, s), s))


def _claim_absence(match: Match, seat: int | None, action: Action) -> Match:
    """ClaimAbsence: the seat to move loses and the match ends (seed 000 line 72)."""
    r = _live_round(match, action)
    s = _check_member(match, seat)
    _check_in_play(match, s)  # seed 000 line 72: "menos quem já está FORA"
    if r.phase is Phase.ROUND_OVER:
        raise IllegalActionError("round_over", "nobody has the turn at the end of a round")
    if s == r.turn:
        raise IllegalActionError("not_absent", "a seat cannot claim its own absence")
    return _end(match, r, Outcome(Termination.ABSENCE, _winner_after_loss(match, r.turn), r.turn))


def _expire(match: Match, seat: int | None, action: Action) -> Match:
    """Expire: the match ends with no winner (seed 000 line 72)."""
    r = _live_round(match, action)
    return _end(match, r, Outcome(Termination.EXPIRED, None))


def _leave_table(match: Match, seat: int | None, action: Action) -> Match:
    """LeaveTable: a FORA seat leaves the table; the match goes on (seed 000 line 72)."""
    _live_round(match, action)
    s = _check_member(match, seat)
    if s in active_seats(match):
        raise IllegalActionError("not_out", "only a FORA seat in Cacheta may leave the table")
    return replace(match, left=match.left | {s})


_HANDLERS = {
    Draw: _draw,
    TakeDiscard: _take_discard,
    Discard: _discard,
    GoOut: _go_out,
    AnnounceOneAway: _announce,
    NextRound: _next_round,
    Resign: _resign,
    ClaimAbsence: _claim_absence,
    Expire: _expire,
    LeaveTable: _leave_table,
}


def apply(match: Match, seat: int | None, action: Action) -> Match:
    """Apply ``action`` by ``seat`` and return the new match (``version`` + 1).

    Checks run in a fixed order and stop at the first refusal: match over or decided
    (``match_over``), seat of the match (``not_a_player``), seat out (``player_out``), round
    over (``round_over``), turn (``not_your_turn``), phase (``wrong_phase``), then the action's
    own conditions. ``seat`` is ignored for :class:`Expire` (pass None).

    Raises:
        IllegalActionError: with a ``code`` from errors.py; the match is unchanged.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalActionError("bad_action", f"not an action: {action!r}")
    new = handler(match, seat, action)
    return replace(new, version=match.version + 1)


def legal_actions(match: Match, seat: int) -> tuple[Action, ...]:
    """The playing actions ``apply`` would accept from ``seat`` now, in a fixed order:
    Draw, TakeDiscard, GoOut() and GoOut(card) for each possible leftover, Discard(card) in
    hand order, AnnounceOneAway, NextRound. Resign, ClaimAbsence, Expire and LeaveTable are
    never listed (see actions.py). Empty for a seat that cannot act."""
    r = match.round
    if r is None or r.phase is Phase.MATCH_OVER:
        return ()
    if not isinstance(seat, int) or not 0 <= seat < match.seats or seat in match.left:
        return ()
    if r.phase is Phase.ROUND_OVER:
        return (NextRound(),)
    if match.outcome is not None or seat not in active_seats(match):
        return ()
    rules = match.rules
    wilds = wilds_of(match)
    hand = r.hands[seat]
    plain = _plain_in(r, hand)
    out: list[Action] = []
    if seat == r.turn and r.phase is Phase.DRAW:
        out.append(Draw())
        if r.discard_pile:
            top = r.discard_pile[-1]
            if not rules.discard_only_to_go_out or _plan_with_discard_top(match, r, hand, top):
                out.append(TakeDiscard())
    elif seat == r.turn and r.phase is Phase.DISCARD:
        forbidden = frozenset() if r.taken is None else frozenset({r.taken.face})
        if best_go_out(
            hand, wilds=wilds, plain=plain, forbidden_discards=forbidden, must_meld=r.taken, rules=rules
        ):
            out.append(GoOut())
            for c in hand:
                if r.taken is not None and c in (r.taken, r.taken.twin):
                    continue
                if go_out_with_discard(
                    hand,
                    c,
                    wilds=wilds,
                    plain=plain,
                    forbidden_discards=forbidden,
                    must_meld=r.taken,
                    rules=rules,
                ):
                    out.append(GoOut(c))
        if not (rules.discard_only_to_go_out and r.taken is not None):
            out.extend(Discard(c) for c in hand if r.taken is None or c not in (r.taken, r.taken.twin))
    if (
        rules.has_wild
        and len(hand) == HAND_SIZE
        and seat not in r.announced
        and is_one_away(hand, wilds=wilds, plain=plain, rules=rules)
    ):
        out.append(AnnounceOneAway())
    return tuple(out)
