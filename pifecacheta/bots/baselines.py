"""Two reference policies the bots are measured against (bench/bench_bots.py).

- :func:`random_legal`: uniform over the legal playing actions of the view, except that it
  always goes out when it can (otherwise a round could last for ever) and presses PRÓXIMA
  RODADA at the round's end. Out of its turn, when NA BOA is allowed, it announces half the
  time.
- :func:`greedy`: draws from the stock unless the top discard lets it go out or puts more
  cards in melds; discards the card whose removal leaves the fewest unmatched cards (ties at
  random); goes out whenever it can; announces NA BOA whenever allowed.

Both take only a :class:`~pifecacheta.rules.views.PlayerView` (seed 000 line 70: bots see only
their own hand and the table).
"""

from __future__ import annotations

import random

from pifecacheta.rules.actions import Action, AnnounceOneAway, Discard, Draw, GoOut, TakeDiscard
from pifecacheta.rules.match import Phase
from pifecacheta.rules.views import PlayerView

from .common import (
    allowed_discards,
    go_out_plan,
    index_with_top,
    is_my_turn,
    off_turn_action,
    settled_draw,
    view_legal_actions,
)
from .hand import HandIndex

__all__ = ["random_legal", "greedy", "simple"]


def random_legal(view: PlayerView, rng: random.Random) -> Action | None:
    """Uniform over the view's legal actions; GoOut whenever legal; None when nothing to do."""
    if not is_my_turn(view):
        if view.can_announce:
            return AnnounceOneAway() if rng.random() < 0.5 else None
        return off_turn_action(view, announce=False)
    acts = view_legal_actions(view)
    if not acts:
        return None
    if any(isinstance(a, GoOut) for a in acts):
        return GoOut()
    return rng.choice(acts)


def greedy(view: PlayerView, rng: random.Random) -> Action | None:
    """Maximise cards in melds now; no memory, no defence (see the module docstring)."""
    if not is_my_turn(view):
        return off_turn_action(view, announce=True)
    if view.can_announce:
        return AnnounceOneAway()
    if view.phase is Phase.DRAW:
        settled = settled_draw(view)
        if settled is not None:
            return settled
        top = view.discard_pile[-1]
        idx = index_with_top(view)
        n = len(idx.cards) - 1
        before = idx.max_cover(idx.full ^ (1 << n))
        after = max(idx.max_cover(idx.full ^ (1 << i)) for i, c in enumerate(idx.cards) if c.face != top.face)
        return TakeDiscard() if after > before else Draw()
    if go_out_plan(view) is not None:
        return GoOut()
    idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
    allowed = set(allowed_discards(view))
    scored = [(idx.max_cover(idx.full ^ (1 << i)), i) for i, c in enumerate(idx.cards) if c in allowed]
    top_cover = max(s for s, _ in scored)
    choice = rng.choice([i for s, i in scored if s == top_cover])
    return Discard(idx.cards[choice])


def simple(view: PlayerView, rng: random.Random) -> Action | None:
    """The Gin Rummy "Simple" player (see the module docstring): melds first, then the card
    in the fewest near-melds goes; no memory of the others' cards, no defence."""
    if not is_my_turn(view):
        return off_turn_action(view, announce=True)
    if view.can_announce:
        return AnnounceOneAway()
    if view.phase is Phase.DRAW:
        return greedy(view, rng)  # the same rule: take only to complete or extend a meld
    if go_out_plan(view) is not None:
        return GoOut()
    idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
    allowed = set(allowed_discards(view))
    near_count = [0] * len(idx.cards)
    for m in idx.near:
        for i in range(len(idx.cards)):
            if m >> i & 1:
                near_count[i] += 1
    scored = [
        ((idx.max_cover(idx.full ^ (1 << i)), -near_count[i] - 4 * (i in idx.wild_positions)), i)
        for i, c in enumerate(idx.cards)
        if c in allowed
    ]
    top = max(s for s, _ in scored)
    choice = rng.choice([i for s, i in scored if s == top])
    return Discard(idx.cards[choice])
