"""Turn flow: :func:`new_match` deals round 1, :func:`apply` plays one action and returns the
new match, :func:`legal_actions` lists the playing actions a seat may take now.

The values (:class:`Match`, :class:`Round`, ...) are in :mod:`.values` and the handler of each
action in :mod:`.turns`; every public name is importable from here.

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

Randomness (shuffle.py): a round with a :class:`~.shuffle.RoundKey` (``new_match(..., key=)``
for round 1, ``NextRound(key)`` for the next ones) is dealt and rebuilt by the verifiable
construction ``pifecacheta-deal-1``; without one, ``random.Random(f"{seed}:{round_number}")``
shuffles the deal and ``random.Random(f"{seed}:{round_number}:rebuild:{n}")`` the n-th rebuild
(n = 1, 2, ...). Either way a round is reproducible from its source and its action list.

>>> from .config import PIFE
>>> m = new_match(PIFE, 2, seed=7)
>>> m.round.turn, m.round.phase, [len(h) for h in m.round.hands], len(m.round.stock)
(1, <Phase.DRAW: 'draw'>, [9, 9], 86)
>>> m2 = apply(m, 1, Draw())
>>> m2.version, m2.round.phase, len(m2.round.hands[1])
(1, <Phase.DISCARD: 'discard'>, 10)
"""

from __future__ import annotations

from dataclasses import replace

from .actions import Action, AnnounceOneAway, Discard, Draw, GoOut, NextRound, TakeDiscard
from .config import Rules
from .errors import IllegalActionError, RulesError
from .one_away import is_one_away
from .shuffle import RoundKey
from .solver import best_go_out, go_out_with_discard
from .turns import HANDLERS, active_seats, deal_round, pile_top_takeable, plain_in, wilds_of
from .values import HAND_SIZE, Match, Outcome, Phase, Round, RoundResult, Termination

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


def new_match(rules: Rules, seats: int, *, seed: int, key: RoundKey | None = None) -> Match:
    """Start a match and deal round 1 (seat 0 deals, seat 1 starts; seed 000 line 50).

    Args:
        rules: the match's rules; seats: 2..4 (seed 000 line 50); seed: any int.
        key: round 1's verifiable source; None deals it from ``seed`` (shuffle.py).

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
        key=key,
        round=deal_round(rules, seats, seed, 1, 0, range(seats), key),
    )


def apply(match: Match, seat: int | None, action: Action) -> Match:
    """Apply ``action`` by ``seat`` and return the new match (``version`` + 1).

    Checks run in a fixed order and stop at the first refusal: match over or decided
    (``match_over``), seat of the match (``not_a_player``), seat out (``player_out``), round
    over (``round_over``), turn (``not_your_turn``), phase (``wrong_phase``), then the action's
    own conditions. ``seat`` is ignored for :class:`Expire` (pass None).

    Raises:
        IllegalActionError: with a ``code`` from errors.py; the match is unchanged.
    """
    handler = HANDLERS.get(type(action))
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
    plain = plain_in(r, hand)
    out: list[Action] = []
    if seat == r.turn and r.phase is Phase.DRAW:
        out.append(Draw())
        if pile_top_takeable(match, r, hand):
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
