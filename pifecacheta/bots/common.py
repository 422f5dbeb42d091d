"""What every bot needs from a :class:`PlayerView`: its legal actions, go-out checks and what is
still unseen. Pure functions of the view (a bot never sees a Match, so it cannot peek).

Rules cited: seed 000 line 54 (the card taken from the pile and its twin cannot be the
discard), line 56 (go out after drawing, with 9 in melds + a discard or with 10), line 64
(NA BOA), line 68 (PRÓXIMA RODADA), and the variant "take the discard only to go out"
(seed 000 line 38, ``Rules.discard_only_to_go_out``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pifecacheta.rules.actions import (
    Action,
    AnnounceOneAway,
    Discard,
    Draw,
    GoOut,
    NextRound,
    TakeDiscard,
)
from pifecacheta.rules.cards import Card, Face
from pifecacheta.rules.match import Phase
from pifecacheta.rules.solver import GoOutPlan, best_go_out
from pifecacheta.rules.views import PlayerView

from .hand import HandIndex, unseen_counts

__all__ = [
    "Policy",
    "is_my_turn",
    "allowed_discards",
    "go_out_plan",
    "take_to_go_out_plan",
    "can_take_discard",
    "view_legal_actions",
    "unseen_of",
    "off_turn_action",
]

#: A policy: ``(view, rng) -> action or None`` (None: nothing to do now).
Policy = Callable[[PlayerView, random.Random], Action | None]


def is_my_turn(view: PlayerView) -> bool:
    """True when the round is in play and it is this seat's turn."""
    return view.seat is not None and view.turn == view.seat and view.phase in (Phase.DRAW, Phase.DISCARD)


def allowed_discards(view: PlayerView) -> list[Card]:
    """Cards of the hand that may be discarded now (not the taken card nor its twin, line 54)."""
    t = view.taken
    return [c for c in view.hand if t is None or c.face != t.face]


def go_out_plan(view: PlayerView) -> GoOutPlan | None:
    """The engine's best go-out for the 10 cards held in the DISCARD phase, or None.

    The bots' own :class:`~.hand.HandIndex` first rules out hands with fewer than 9 cards
    in melds (it lists every meld the engine accepts, so it never hides a go-out); the
    engine's ``best_go_out`` decides the rest."""
    if not is_my_turn(view) or view.phase is not Phase.DISCARD:
        return None
    t = view.taken
    idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
    if idx.max_cover(idx.full) < len(view.hand) - 1:
        return None  # fast filter: fewer than 9 cards fit in melds, the solver would say None
    return best_go_out(
        view.hand,
        wilds=view.wilds,
        plain=view.plain,
        forbidden_discards=frozenset() if t is None else frozenset({t.face}),
        must_meld=t,
        rules=view.rules,
    )


def take_to_go_out_plan(view: PlayerView) -> GoOutPlan | None:
    """In the DRAW phase: the go-out that taking the top discard would allow, or None.

    The taken card must end in a meld, its face may not be the discard, and a wild taken from
    the pile counts only as itself (seed 000 lines 54 and 62)."""
    if not view.discard_pile:
        return None
    top = view.discard_pile[-1]
    hand = (*view.hand, top)
    if len(set(hand)) != len(hand):
        return None
    plain = view.plain | ({top} if top.face in view.wilds else frozenset())
    idx = HandIndex.of(hand, wilds=view.wilds, plain=plain, rules=view.rules)
    if idx.max_cover(idx.full) < len(hand) - 1:
        return None  # fast filter (see go_out_plan)
    return best_go_out(
        hand,
        wilds=view.wilds,
        plain=plain,
        forbidden_discards=frozenset({top.face}),
        must_meld=top,
        rules=view.rules,
    )


def can_take_discard(view: PlayerView) -> bool:
    """TakeDiscard is legal: own turn, DRAW phase, pile not empty, and with the variant
    ``discard_only_to_go_out`` only when it lets the seat go out."""
    if not is_my_turn(view) or view.phase is not Phase.DRAW or not view.discard_pile:
        return False
    if view.rules.discard_only_to_go_out:
        return take_to_go_out_plan(view) is not None
    return True


def settled_draw(view: PlayerView) -> Action | None:
    """The draw-phase choice every policy makes the same way, or None when it must be weighed.

    Draw when the top discard may not be taken, or (variant, seed 000 line 38) may be taken only
    to go out and does not let this seat go out; TakeDiscard when it lets this seat go out.
    """
    if not can_take_discard(view):
        return Draw()
    if take_to_go_out_plan(view) is not None:
        return TakeDiscard()
    if view.rules.discard_only_to_go_out:
        return Draw()
    return None


def index_with_top(view: PlayerView) -> HandIndex:
    """The hand plus the top discard, indexed; the top card is the last one (index 9).

    A wild taken from the pile counts only as itself (seed 000 line 62), so it joins ``plain``.
    """
    top = view.discard_pile[-1]
    plain = view.plain | ({top} if top.face in view.wilds else frozenset())
    return HandIndex.of((*view.hand, top), wilds=view.wilds, plain=plain, rules=view.rules)


def view_legal_actions(view: PlayerView) -> list[Action]:
    """The playing actions this view allows, as the engine's ``legal_actions`` would list
    them (GoOut only as ``GoOut()``, the best plan). Empty when the seat has nothing to do."""
    if view.seat is None:
        return []
    if view.phase is Phase.ROUND_OVER:
        return [NextRound()] if view.seat not in view.left else []
    if view.phase is Phase.MATCH_OVER or view.outcome is not None or view.seat in view.out:
        return []
    out: list[Action] = []
    if is_my_turn(view):
        if view.phase is Phase.DRAW:
            out.append(Draw())
            if can_take_discard(view):
                out.append(TakeDiscard())
        else:
            if go_out_plan(view) is not None:
                out.append(GoOut())
            if not (view.rules.discard_only_to_go_out and view.taken is not None):
                out.extend(Discard(c) for c in allowed_discards(view))
    if view.can_announce:
        out.append(AnnounceOneAway())
    return out


def unseen_of(view: PlayerView) -> dict[Face, int]:
    """Per face, physical copies this seat cannot see (0..2): not in its hand, the discard
    pile, the cards others publicly took and still hold, nor the vira."""
    visible: list[Card] = list(view.hand) + list(view.discard_pile)
    for s, cards in enumerate(view.picked_up):
        if s != view.seat:
            visible.extend(cards)
    if view.vira is not None:
        visible.append(view.vira)
    return unseen_counts(visible)


def off_turn_action(view: PlayerView, *, announce: bool = True) -> Action | None:
    """What a bot does outside its own turn: NextRound at FIM DA RODADA (line 68), NA BOA when
    allowed and ``announce`` (line 64), else None."""
    if view.phase is Phase.ROUND_OVER and view.seat is not None and view.seat not in view.left:
        return NextRound()
    if view.can_announce and announce:
        return AnnounceOneAway()
    return None
