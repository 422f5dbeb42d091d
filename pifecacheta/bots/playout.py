"""Playouts where hands improve: every seat plays the table's ``simple`` rules on a guessed deal.

A :class:`~.search.rollout` keeps every hand as it is; here, in one
:class:`~.sampling.Determinization`, each seat in turn (Luna too) plays the Gin Rummy
"Simple" player's rules (:func:`~.baselines.simple`), as most of the table does:

- it takes the top discard when the card completes or extends a meld (more cards in melds
  after its best throw than before; the taken face may not be thrown, seed 000 line 54),
  otherwise draws the next card of the sampled stock;
- it goes out when 9 of its 10 cards fit in melds (line 56), otherwise throws the card that
  leaves the most cards in melds, ties broken by the fewest near-melds it belongs to (a wild
  is kept), and the drawn card goes first among equals;
- after every throw the seats that may claim it do, as in the engine (:func:`~.search.claim`:
  Pife's louca, line 60; in Cacheta an announced seat jumps the queue and the next seat may
  take it to go out, lines 54 and 64); in Cacheta a seat announces NA BOA as soon as it is one
  away (line 64).

After ``horizon`` turns of improving play the rest is the static race of
:func:`~.search.rollout` over ``tail`` more draws (each seat keeps its hand and goes out on
one of its outs). The result is the seat that went out first, or None.

One step of a seat (its 9 cards and the card it considers) is computed once per decision by
a :class:`Playout` and remembered by faces: Luna's own hands repeat across the samples and
across her candidates, the opponents' repeat across her candidates. Approximations: a wild
is always a wild in the playout (the cards a seat picked up from the pile are not kept
``plain``), and the bots' :class:`~.hand.HandIndex` decides melds (it lists every meld the
engine accepts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pifecacheta.rules.cards import SUITS, Card, Face
from pifecacheta.rules.views import PlayerView

from .hand import HandIndex, face_neighbours
from .search import Outs, Seating, claim, rollout

__all__ = ["Hand", "Step", "Playout", "key_of"]

#: a hand by its faces, sorted (rank * 4 + suit index per card): the steps' memo key
Key = tuple[int, ...]


def _fid(c: Card | Face) -> int:
    return c.rank * 4 + c.suit.index


def key_of(hand: Sequence[Card]) -> Key:
    """The memo key of ``hand``: its faces, sorted (the deck of a card does not matter)."""
    return tuple(sorted(_fid(c) for c in hand))


@cache
def _neighbours(fid: int) -> frozenset[int]:
    r, s = divmod(fid, 4)
    return frozenset(_fid(g) for g in face_neighbours(Face(r, SUITS[s])))


@dataclass(frozen=True)
class Hand:
    """One seat's 9 cards in a playout: ``cover`` (cards in melds), ``outs``, ``melding`` (face
    ids that complete or extend one of its near-melds or melds: only they can put more cards
    in melds) and ``near`` (face ids that meld with one of its cards: any other card is
    thrown again at once)."""

    cards: tuple[Card, ...]
    cover: int
    outs: Outs
    melding: frozenset[int]
    near: frozenset[int]

    @staticmethod
    def of(cards: tuple[Card, ...], idx: HandIndex, mask: int) -> Hand:
        """The state of ``cards``, the sub-hand ``mask`` of ``idx``."""
        melding: set[int] = set()
        for m, fs in idx.near.items():
            if m & mask == m:
                melding.update(_fid(f) for f in fs)
        near = frozenset().union(*(_neighbours(_fid(c)) for c in cards))
        return Hand(cards, idx.max_cover(mask), Outs.of(idx, mask), frozenset(melding), near)


@dataclass(frozen=True)
class Step:
    """One seat's move with a card added to its 9 cards: ``out`` (the 10 cards go out), else
    ``thrown`` (the face id it throws) and ``kept`` (the 9 cards it keeps)."""

    out: bool
    thrown: int
    kept: Hand | None


class Playout:
    """The improving playouts of one decision of ``view``'s seat, sharing one step memo
    (see the module docstring).

    Args:
        view: the deciding seat's view (rules, wilds, seating).
        horizon: turns of improving play (all seats together).
        tail: further draws of the static race after them.
    """

    def __init__(self, view: PlayerView, *, horizon: int, tail: int) -> None:
        self.rules = view.rules
        self.wilds = view.wilds if view.rules.has_wild else frozenset()
        self._wild_ids = frozenset(_fid(f) for f in self.wilds)
        self.seating = Seating.of(view)
        self.cacheta = not self.seating.pife
        self.horizon, self.tail = horizon, tail
        self._steps: dict[tuple[Key, int, bool], Step] = {}
        self._hands: dict[Key, Hand] = {}
        #: how many steps were computed (the memo's misses)
        self.computed = 0

    def hand(self, cards: Sequence[Card]) -> Hand:
        """The :class:`Hand` of 9 ``cards`` (memoised by faces)."""
        k = key_of(cards)
        got = self._hands.get(k)
        if got is None:
            cs = tuple(cards)
            idx = HandIndex(cs, wilds=self.wilds, rules=self.rules)
            got = Hand.of(cs, idx, idx.full)
            self._hands[k] = got
        return got

    def step(self, hand: Hand, x: Card, *, taken: bool) -> Step:
        """The simple rules' move of a seat holding ``hand`` with ``x`` added (drawn, or
        ``taken`` from the pile: then its face may not be thrown; the caller takes it only
        when it puts more cards in melds)."""
        fx = _fid(x)
        if not taken and fx not in hand.near and fx not in self._wild_ids:
            if hand.cover >= 9:
                return Step(True, -1, None)
            return Step(False, fx, hand)  # it melds with nothing: thrown again
        k = (key_of(hand.cards), fx, taken)
        got = self._steps.get(k)
        if got is not None:
            return got
        self.computed += 1
        cards = (*hand.cards, x)
        idx = HandIndex(cards, wilds=self.wilds, rules=self.rules)
        n = len(cards)
        if idx.max_cover(idx.full) >= n - 1:
            got = Step(True, -1, None)
        else:
            near = [0] * n
            for m in idx.near:
                for i in range(n):
                    if m >> i & 1:
                        near[i] += 1
            wild = set(idx.wild_positions)
            best: tuple[int, int, bool] | None = None
            pick = n - 1
            for i, c in enumerate(cards):
                if taken and c.face == x.face:
                    continue
                score = (idx.max_cover(idx.full ^ (1 << i)), -near[i] - 4 * (i in wild), i == n - 1)
                if best is None or score > best:
                    best, pick = score, i
            kept = cards[:pick] + cards[pick + 1 :]
            got = Step(False, _fid(cards[pick]), Hand.of(kept, idx, idx.full ^ (1 << pick)))
        self._steps[k] = got
        return got

    def run(
        self,
        hands: Sequence[Sequence[Card]],
        announced: frozenset[int],
        stock: Sequence[Card],
        *,
        by: int,
        top: Card,
    ) -> int | None:
        """Who goes out first after seat ``by`` threw ``top`` and the seat after it is to play,
        each seat holding ``hands[s]`` (9 cards) and drawing from ``stock`` (top = last, not
        changed). Returns the winning seat or None (nobody within horizon and tail)."""
        seating = self.seating
        cur = {s: self.hand(hands[s]) for s in seating.after}
        outs = {s: h.outs for s, h in cur.items()}
        ann = set(announced)
        if self.cacheta:
            ann.update(s for s, o in outs.items() if o.draw)
        k = len(stock) - 1
        pile: Card | None = top
        for _ in range(self.horizon):
            if pile is not None:
                w = claim(seating, outs, frozenset(ann), by, pile)
                if w is not None:
                    return w
            t = seating.nxt[by]
            h = cur[t]
            st: Step | None = None
            x = pile
            if x is not None and _fid(x) in h.melding:
                st = self.step(h, x, taken=True)
                if st.out:
                    return t
                assert st.kept is not None
                if st.kept.cover <= h.cover:
                    st = None  # it neither completes nor extends a meld: draw
            if st is None or x is None:
                if k < 0:
                    return None
                x = stock[k]
                k -= 1
                st = self.step(h, x, taken=False)
            if st.out:
                return t
            assert st.kept is not None
            # the memo keeps faces: the kept cards may be another sample's twins
            thrown = x if _fid(x) == st.thrown else next(c for c in h.cards if _fid(c) == st.thrown)
            cur[t] = st.kept
            outs[t] = st.kept.outs
            if self.cacheta and st.kept.outs.draw:
                ann.add(t)
            pile, by = thrown, t
        return rollout(seating, outs, frozenset(ann), stock[: k + 1], by=by, top=pile, horizon=self.tail)
