"""What each action does to a match: the checks every action runs, in order, and one handler
per action class (:data:`HANDLERS`), each citing its seed line. :func:`~.match.apply` runs
them; the rules they follow are summed up in :mod:`.match`.

Also the seat helpers both use: :func:`active_seats`, :func:`wilds_of`, the deal of a round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
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
from .melds import wild_faces
from .one_away import is_one_away
from .shuffle import RoundKey, source_of
from .solver import GoOutPlan, best_go_out, go_out_with_discard
from .values import HAND_SIZE, Match, Outcome, Phase, Round, RoundResult, Termination

__all__ = ["active_seats", "wilds_of", "HANDLERS", "Handler"]

#: ``handler(match, seat, action) -> new match`` (the version is bumped by ``apply``).
Handler = Callable[[Match, int | None, Action], Match]

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


def deal_round(
    rules: Rules,
    seats: int,
    seed: int,
    round_number: int,
    dealer: int,
    active: Sequence[int],
    key: RoundKey | None = None,
) -> Round:
    """Shuffle the full deck (context ``deal`` of the round's source: ``key``, else ``seed``,
    see shuffle.py) and deal 9 cards to each active seat, one at a time from the end of the
    shuffled deck, starting after the dealer; Cacheta turns up the vira."""
    deck = source_of(seed, round_number, key).shuffle(full_deck(), "deal")
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


def plain_in(r: Round, hand: Sequence[Card]) -> frozenset[Card]:
    """The round's plain wild cards that are in ``hand``."""
    return r.plain & frozenset(hand)


# --- the actions ------------------------------------------------------------------------


def _rebuild(match: Match, r: Round) -> Round:
    """The pile minus its top card becomes the stock (seed 000 line 58): shuffled by the
    round's source (context ``rebuild:{n}``, shuffle.py), or with ``rebuild_without_shuffle`` turned
    face down as it lies (the first card discarded becomes the top of the stock)."""
    if len(r.discard_pile) < 2:
        raise IllegalActionError("stock_empty", "no card left to rebuild the stock")
    n = r.rebuilds + 1
    body = list(r.discard_pile[:-1])
    if match.rules.rebuild_without_shuffle:
        body.reverse()
    else:
        body = source_of(match.seed, match.round_number, match.key).shuffle(body, f"rebuild:{n}")
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
        if plan_with_discard_top(match, r, hand, card) is None:
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


def plan_with_discard_top(match: Match, r: Round, hand9: Sequence[Card], card: Card) -> GoOutPlan | None:
    """How ``hand9`` goes out with ``card`` taken from the pile, or None.

    Same test as ``card.face in completing_faces(hand9, from_discard=True)`` (the card must be
    melded, it and its twin may not be the discard, a wild counts only as itself: seed 000
    lines 54 and 62), done with a single solver call for the one card on the pile.
    """
    return best_go_out(
        tuple(hand9) + (card,),
        wilds=wilds_of(match),
        plain=plain_in(r, hand9) | {card},
        forbidden_discards=frozenset({card.face}),
        must_meld=card,
        rules=match.rules,
    )


def pile_top_takeable(match: Match, r: Round, hand9: Sequence[Card]) -> bool:
    """True when ``hand9``'s seat, at its draw, may take the top of ``r``'s pile: the pile has
    a card and, under the variant ``discard_only_to_go_out`` (seed 000 line 38), the seat goes
    out with it (:func:`plan_with_discard_top`). The turn and phase are the caller's to check."""
    if not r.discard_pile:
        return False
    top = r.discard_pile[-1]
    return not match.rules.discard_only_to_go_out or plan_with_discard_top(match, r, hand9, top) is not None


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
        new_hand, wilds=wilds, plain=plain_in(r, new_hand), rules=match.rules
    ):
        r = replace(r, announced=r.announced - {s})  # seed 000 line 64
    # Out-of-turn go-out: Pife anyone (line 60), Cacheta announced seats (line 64).
    pife = match.rules.mode is Mode.PIFE
    for other in _after(s, active_seats(match), match.seats):
        if other == s or not (pife or other in r.announced):
            continue
        other_hand = r.hands[other]
        plan = plan_with_discard_top(match, r, other_hand, card)
        if plan is None:
            continue
        plain = plain_in(r, other_hand) | ({card} if card.face in wilds else frozenset())
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
    plain = plain_in(r, hand)
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
    if not is_one_away(hand, wilds=wilds_of(match), plain=plain_in(r, hand), rules=match.rules):
        raise IllegalActionError("not_one_away", f"seat {s} is not one card away from going out")
    return replace(match, round=replace(r, announced=r.announced | {s}))


def _next_round(match: Match, seat: int | None, action: Action) -> Match:
    """NextRound at ROUND_OVER: deal the next round (the dealer moves on) from the action's
    key (None: from the seed), or MATCH_OVER when the outcome is set (seed 000 line 68)."""
    assert isinstance(action, NextRound)
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
        key=action.key,
        round=deal_round(match.rules, match.seats, match.seed, number, dealer, active, action.key),
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


HANDLERS: dict[type[Action], Handler] = {
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
