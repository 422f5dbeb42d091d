"""What one seat (or a spectator) may see of a match: :class:`PlayerView`.

Everything sent to a browser or a bot goes through :func:`player_view` or
:func:`spectator_view`. A view holds the seat's own hand, the other hands' sizes, the
discard pile (and who discarded each card), the stock's size, the vira and wild faces,
lives, who is out / left / announced, the cards each seat publicly took from the pile and
still holds, the seat's own ``taken`` and ``plain`` cards, the round result (the winner's
melds are public at the end of a round, seed 000 line 68) and the outcome. Never the seed,
the stock or another seat's hand (seed 000 line 70: the bots see only their own hand and the
table).

>>> from .config import CACHETA_7
>>> from .match import new_match
>>> m = new_match(CACHETA_7, 3, seed=1)
>>> v = player_view(m, 2)
>>> v.hand == m.round.hands[2], v.hand_counts, v.stock_size
(True, (9, 9, 9), 76)
>>> spectator_view(m).hand
()
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Face
from .config import Mode, Rules
from .match import HAND_SIZE, Match, Outcome, Phase, RoundResult, active_seats, wilds_of
from .one_away import is_one_away
from .solver import best_go_out
from .turns import pile_top_takeable

__all__ = ["PlayerView", "player_view", "spectator_view"]


@dataclass(frozen=True, kw_only=True)
class PlayerView:
    """One seat's (``seat``) or a spectator's (``seat=None``) view of a match.

    Attributes:
        turn: the seat to move, None once the round or match is over.
        hand: own cards in the engine's order (empty for a spectator).
        hand_counts: per seat, how many cards it holds.
        stock_size: cards left in the stock.
        discard_pile / discarded_by: the pile (top = last) and who discarded each card.
        vira / wilds: the turned card and the wild faces (Cacheta), None / empty in Pife.
        lives: per seat (Cacheta; all zero in Pife); out: Cacheta seats with 0 lives (FORA).
        left: seats that left the table; announced: seats that announced NA BOA.
        picked_up: per seat, cards publicly taken from the pile and still held.
        taken: own card taken from the pile this turn; plain: own wild cards counting as
            themselves (they came from the pile).
        result: the round's go-out (winner, melds, lives lost) once the round is over.
        outcome: the end of the match, once decided.
        version: the ``Match.version`` this view was made from (actions applied since the
            deal of round 1).
        can_announce: the seat may announce NA BOA now (Cacheta, 9 cards, one away, not
            yet announced, round in play).
        can_go_out: it is this seat's discard turn and ``GoOut()`` (BATER, seed 000 line 56)
            would be accepted now: the engine's best plan exists, with the same limits as
            ``apply`` (a card taken from the pile stays in the melds and is not the discard,
            line 54). False for every other seat and for spectators.
        can_take: it is this seat's draw turn and ``TakeDiscard`` (PEGAR DO LIXO) would be
            accepted now: the pile has a card and, under the house rule
            ``discard_only_to_go_out`` (seed 000 line 38), the seat goes out with it. False for
            every other seat and for spectators.
    """

    seat: int | None
    rules: Rules
    seats: int
    round_number: int
    dealer: int
    turn: int | None
    phase: Phase
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[Card, ...]
    discarded_by: tuple[int, ...]
    vira: Card | None
    wilds: frozenset[Face]
    lives: tuple[int, ...]
    out: frozenset[int]
    left: frozenset[int]
    announced: frozenset[int]
    picked_up: tuple[tuple[Card, ...], ...]
    taken: Card | None
    plain: frozenset[Card]
    result: RoundResult | None
    outcome: Outcome | None
    version: int
    can_announce: bool
    can_go_out: bool = False
    can_take: bool = False


def _view(match: Match, seat: int | None) -> PlayerView:
    r = match.round
    if r is None:
        raise ValueError("the match has no round")
    in_play = r.phase in (Phase.DRAW, Phase.DISCARD)
    own = seat is not None and 0 <= seat < match.seats
    hand: tuple[Card, ...] = r.hands[seat] if own and seat is not None else ()
    wilds = wilds_of(match)
    plain = r.plain & frozenset(hand)
    active = active_seats(match)
    can_announce = (
        own
        and in_play
        and match.outcome is None
        and match.rules.has_wild
        and seat in active
        and len(hand) == HAND_SIZE
        and seat not in r.announced
        and is_one_away(hand, wilds=wilds, plain=plain, rules=match.rules)
    )
    taken = r.taken if own and seat == r.turn else None
    can_go_out = (
        own
        and r.phase is Phase.DISCARD
        and seat == r.turn
        and match.outcome is None
        and best_go_out(
            hand,
            wilds=wilds,
            plain=plain,
            forbidden_discards=frozenset() if taken is None else frozenset({taken.face}),
            must_meld=taken,
            rules=match.rules,
        )
        is not None
    )
    can_take = (
        own
        and r.phase is Phase.DRAW
        and seat == r.turn
        and match.outcome is None
        and pile_top_takeable(match, r, hand)
    )
    out = (
        frozenset(s for s in range(match.seats) if match.lives[s] == 0)
        if match.rules.mode is Mode.CACHETA
        else frozenset()
    )
    return PlayerView(
        seat=seat if own else None,
        rules=match.rules,
        seats=match.seats,
        round_number=match.round_number,
        dealer=match.dealer,
        turn=r.turn if in_play else None,
        phase=r.phase,
        hand=hand,
        hand_counts=tuple(len(h) for h in r.hands),
        stock_size=len(r.stock),
        discard_pile=r.discard_pile,
        discarded_by=r.discarded_by,
        vira=r.vira,
        wilds=wilds,
        lives=match.lives,
        out=out,
        left=match.left,
        announced=r.announced,
        picked_up=r.picked_up,
        taken=taken,
        plain=plain,
        result=r.result,
        outcome=match.outcome,
        version=match.version,
        can_announce=bool(can_announce),
        can_go_out=bool(can_go_out),
        can_take=bool(can_take),
    )


def player_view(match: Match, seat: int) -> PlayerView:
    """The view of ``seat`` (0..seats-1): its own hand and the public table.

    Raises:
        ValueError: seat outside the match.
    """
    if not isinstance(seat, int) or not 0 <= seat < match.seats:
        raise ValueError(f"seat {seat!r} is not a seat of this match")
    return _view(match, seat)


def spectator_view(match: Match) -> PlayerView:
    """The public view (``seat=None``, ``hand=()``, ``taken=None``, ``plain`` empty)."""
    return _view(match, None)
