"""Determinized rollouts of the rest of a round: who goes out first, for each choice of Luna's.

For one :class:`~.sampling.Determinization` (every hand and the stock order guessed), a
**rollout** plays the next ``horizon`` draws of the round with a fast playout policy, the one
the table's simple players follow: each seat draws from the stock, goes out if the card
completes its hand, otherwise throws the card it drew (its hand stays as it is: a "static"
playout, so each seat is summed up once by its *outs*, the faces that let its 9 cards go out,
from :meth:`~.hand.HandIndex.outs`). After every discard the seats that may claim it do, as in
the engine (seed 000 line 60: in Pife the first seat in order after the discarder that can go
out with it; line 64: in Cacheta a seat that announced NA BOA jumps the queue, and the next
seat may take the discard to go out, line 54). A wild thrown on the pile counts only as itself
(line 62), so a claim needs its face among the seat's natural outs.

The result of a rollout is +1 (Luna went out first), -1 (someone else did) or 0 (nobody within
the horizon). :func:`evaluate` averages it over the samples for each candidate 9-card hand and
her discard; ties and the rounds nobody finishes within the horizon are decided by the hand's
heuristic value (Luna v1's :class:`~.strategy.Style` scorer: melds, pairs with live copies,
outs, one-draw lookahead), worth ``LEAF`` per melded card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pifecacheta.rules.cards import Card, Face
from pifecacheta.rules.config import Mode
from pifecacheta.rules.views import PlayerView

from .hand import HandIndex
from .sampling import Determinization

__all__ = ["Seating", "Outs", "NO_OUTS", "rollout", "claim", "opponent_outs", "LEAF"]

#: value of one melded card of the heuristic, in rounds won (0.04 = 4 points of win rate)
LEAF = 0.04


@dataclass(frozen=True)
class Seating:
    """The turn order of one view: ``after[s]`` the active seats in order after ``s`` (``s``
    excluded), ``nxt[s]`` the first of them; ``pife`` the game (claims differ)."""

    me: int
    after: dict[int, tuple[int, ...]]
    nxt: dict[int, int]
    pife: bool
    wilds: frozenset[Face]

    @staticmethod
    def of(view: PlayerView) -> Seating:
        """The seating of ``view`` (active seats: in the round, not out, not left)."""
        assert view.seat is not None
        active = [s for s in range(view.seats) if view.hand_counts[s] > 0 and s not in view.out]
        active = [s for s in active if s not in view.left] or [view.seat]
        after: dict[int, tuple[int, ...]] = {}
        for s in active:
            after[s] = tuple(t for t in ((s + i) % view.seats for i in range(1, view.seats)) if t in active)
        nxt = {s: (after[s][0] if after[s] else s) for s in active}
        return Seating(view.seat, after, nxt, view.rules.mode is Mode.PIFE, view.wilds)


@dataclass(frozen=True)
class Outs:
    """One seat's outs in a rollout: ``draw`` (a stock card of these faces lets it go out) and
    ``claim`` (a discard of these faces does: natural cards only)."""

    draw: frozenset[Face]
    claim: frozenset[Face]

    @staticmethod
    def of(idx: HandIndex, mask: int) -> Outs:
        """The outs of the sub-hand ``mask`` of ``idx``."""
        d = idx.outs(mask)
        if len(d) > 60:  # already out: any card
            return Outs(d, d)
        return Outs(d, d - idx.wilds)


#: the outs of a seat that cannot go out
NO_OUTS = Outs(frozenset(), frozenset())


def opponent_outs(view: PlayerView, det: Determinization, seats: Sequence[int]) -> dict[int, Outs]:
    """Outs of each opponent's guessed hand (9 cards; a hand of another size has none)."""
    out: dict[int, Outs] = {}
    picked = view.picked_up
    for s in seats:
        hand = det.hands[s]
        if len(hand) != 9:
            out[s] = NO_OUTS
            continue
        plain = frozenset(c for c in (picked[s] if s < len(picked) else ()) if c.face in view.wilds)
        idx = HandIndex.of(hand, wilds=view.wilds, plain=plain, rules=view.rules)
        out[s] = Outs.of(idx, idx.full)
    return out


def claim(
    seating: Seating, outs: dict[int, Outs], announced: frozenset[int], by: int, card: Card
) -> int | None:
    """The seat that goes out on ``by``'s discard of ``card``, or None: in Pife the first seat
    after ``by`` with it among its claim outs (seed 000 line 60); in Cacheta an announced seat
    first (line 64), then the next seat (line 54)."""
    f = card.face
    after = seating.after.get(by, ())
    if seating.pife:
        for s in after:
            if f in outs[s].claim:
                return s
        return None
    for s in after:
        if s in announced and f in outs[s].claim:
            return s
    n = seating.nxt.get(by)
    if n is not None and n != by and f in outs[n].claim:
        return n
    return None


def rollout(
    seating: Seating,
    outs: dict[int, Outs],
    announced: frozenset[int],
    stock: Sequence[Card],
    *,
    by: int,
    top: Card | None,
    horizon: int,
) -> int | None:
    """Who goes out first: the static playout from the moment ``top`` was thrown by seat
    ``by`` (None: no claim to check) and the seat after ``by`` is to draw; at most ``horizon``
    draws. ``stock`` is read from its end (top = last) and not changed. Returns the winning
    seat or None."""
    if top is not None:
        w = claim(seating, outs, announced, by, top)
        if w is not None:
            return w
    t = seating.nxt[by]
    k = len(stock) - 1
    for _ in range(horizon):
        if k < 0:
            return None
        x = stock[k]
        k -= 1
        if x.face in outs[t].draw:
            return t
        w = claim(seating, outs, announced, t, x)
        if w is not None:
            return w
        t = seating.nxt[t]
    return None
