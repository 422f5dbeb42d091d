"""Determinizations: the cards one seat cannot see, dealt out consistently with its own view.

A :class:`Sampler` is built from a :class:`~pifecacheta.rules.views.PlayerView` only (never a
Match). It knows, from the view:

- the **unseen pool**: both decks minus the seat's own hand, the discard pile, the cards the
  other seats publicly took from the pile and still hold (``picked_up``) and the vira;
- per opponent, how many cards it holds (``hand_counts``) and which of them are known (its
  ``picked_up``); the rest of the pool is the stock (``stock_size`` cards, in random order);
- **how each opponent played**, read from the pile: ``discarded_by[i + 1]`` is the seat that
  played the turn after ``discard_pile[i]`` was thrown and left it there, i.e. it *passed* on
  that card; what each seat threw itself; what it picked up. The bots of the table (and most
  people) take a card only when it melds, and throw what they cannot use, so a seat that passed
  on or threw a face probably holds few cards that meld with it, and a seat that picked a face
  up holds cards that meld with it (seed 000 line 54: the taken card must end in a meld to go
  out; "Dicas", line 43).

:meth:`Sampler.sample` deals the hidden cards: each opponent's unknown cards are drawn without
replacement with per-card weights from those signals (Efraimidis-Spirakis keys), a seat that
announced NA BOA gets a hand that is one card away (seed 000 line 64: a few fresh draws per
sample, and the one-away hands found so far are kept and reused when none of them is; they are
drawn first, from the whole pool, so a kept hand never clashes), and what is left, shuffled,
is the stock (top = last).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pifecacheta.rules.cards import Card, Face, full_deck
from pifecacheta.rules.views import PlayerView

from .hand import HandIndex, face_neighbours

__all__ = ["Determinization", "Sampler"]

#: weight of an unseen card for a seat, per signal touching its face (same rank or a run
#: neighbour within two): passed on it, threw it, picked it up.
PASSED, THROWN, PICKED = 0.55, 0.75, 2.5
#: how much more likely an unknown card that melds with the seat's other cards is, per turn
#: the seat has played (its discards), and the cap
STRUCTURE_PER_TURN, STRUCTURE_MAX = 0.4, 3.0
#: fresh draws per sample of an announced seat's hand, looking for one that is one card away
#: (2 once some are kept)
ANNOUNCED_TRIES = 6


@dataclass(frozen=True)
class Determinization:
    """One guess at the hidden cards: ``hands`` per seat (the viewer's own hand at its seat,
    empty for seats out of the round) and the ``stock`` (top = last)."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]


def _near(near: dict[Face, float], face: Face) -> None:
    """Count one more held card of ``face`` for every face that melds with it (1 for the same
    rank or a run neighbour, 0.5 two ranks away)."""
    for g in face_neighbours(face):
        close = g.suit is not face.suit or abs(g.rank - face.rank) in (1, 12)
        near[g] = near.get(g, 0.0) + (1.0 if close else 0.5)


def _touch(signals: dict[Face, float], face: Face, factor: float) -> None:
    """Multiply the weight of ``face`` and of every face that melds with it by ``factor``
    (half the effect on run neighbours two ranks away)."""
    for g in (face, *face_neighbours(face)):
        near = g.suit is not face.suit or abs(g.rank - face.rank) in (0, 1, 12)
        f = factor if near else (1 + factor) / 2
        signals[g] = signals.get(g, 1.0) * f


class Sampler:
    """The hidden cards of ``view``'s seat, and how to deal them (see the module docstring).

    Raises:
        ValueError: a spectator's view (``seat`` None).
    """

    def __init__(self, view: PlayerView) -> None:
        if view.seat is None:
            raise ValueError("a spectator has no hidden cards to guess")
        self.view = view
        me = view.seat
        visible: set[Card] = set(view.hand) | set(view.discard_pile)
        for s, cs in enumerate(view.picked_up):
            if s != me:
                visible.update(cs)
        if view.vira is not None:
            visible.add(view.vira)
        #: the cards this seat cannot see, in a fixed order (the deck's)
        self.pool: tuple[Card, ...] = tuple(c for c in full_deck() if c not in visible)
        self.opponents: tuple[int, ...] = tuple(
            s for s in range(view.seats) if s != me and view.hand_counts[s] > 0
        )
        known = {s: tuple(view.picked_up[s]) if s < len(view.picked_up) else () for s in self.opponents}
        self.known = known
        self.need = {s: max(0, view.hand_counts[s] - len(known[s])) for s in self.opponents}
        signals: dict[int, dict[Face, float]] = {s: {} for s in self.opponents}
        pile, by = view.discard_pile, view.discarded_by
        for i, c in enumerate(pile):
            if i < len(by) and by[i] in signals:
                _touch(signals[by[i]], c.face, THROWN)
            if i + 1 < len(by) and by[i + 1] in signals and by[i + 1] != by[i]:
                _touch(signals[by[i + 1]], c.face, PASSED)
        for s in self.opponents:
            for c in known[s]:
                _touch(signals[s], c.face, PICKED)
        #: per opponent, the turns it played (its discards, on the pile or taken since)
        self.turns = {s: sum(1 for b in by if b == s) + len(known[s]) for s in self.opponents}
        #: per opponent, the weight of each pool card (same order as ``pool``)
        self.weights = {s: [signals[s].get(c.face, 1.0) for c in self.pool] for s in self.opponents}
        self._plain = {s: frozenset(c for c in known[s] if c.face in view.wilds) for s in self.opponents}
        #: per announced seat, the one-away hands found so far (pool positions)
        self._bank: dict[int, list[list[int]]] = {s: [] for s in self.opponents}

    def one_away(self, seat: int, hand: tuple[Card, ...]) -> bool:
        """Whether ``hand`` (9 cards of ``seat``) has an out, by the bots' hand index."""
        v = self.view
        idx = HandIndex.of(hand, wilds=v.wilds, plain=self._plain[seat], rules=v.rules)
        return bool(idx.outs(idx.full))

    def _kept(self, seat: int, k: int, taken: set[int], w: list[float], rng: random.Random) -> list[int]:
        """``k`` pool positions for ``seat``'s unknown cards, drawn one by one: each card's
        weight is its signal weight times ``1 + structure * (cards already drawn or known
        that meld with it)``, ``structure`` growing with the turns the seat has played
        (:data:`STRUCTURE_PER_TURN`), since a hand that kept what melds for a while is not a
        random one."""
        beta = min(STRUCTURE_MAX, STRUCTURE_PER_TURN * self.turns[seat])
        avail = [i for i in range(len(self.pool)) if i not in taken]
        if not beta:
            keys = sorted(((rng.random() ** (1.0 / w[i]), i) for i in avail), reverse=True)
            return [i for _, i in keys[:k]]
        near: dict[Face, float] = {}
        for c in self.known[seat]:
            _near(near, c.face)
        faces = [self.pool[i].face for i in avail]
        pick: list[int] = []
        for _ in range(min(k, len(avail))):
            ws = [w[i] * (1.0 + beta * near.get(f, 0.0)) for i, f in zip(avail, faces, strict=True)]
            x = rng.random() * sum(ws)
            j = 0
            for j, v in enumerate(ws):  # noqa: B007
                x -= v
                if x <= 0:
                    break
            pick.append(avail.pop(j))
            _near(near, faces.pop(j))
        return pick

    def _built(self, seat: int, taken: set[int], rng: random.Random) -> list[int]:
        """Pool positions for a hand of ``seat`` built to be one away: random three-card melds
        of free pool cards (a set of three suits or a run of three), a pair that a card
        completes unless the seat holds picked-up cards (they are its pair or meld), and one
        loose card (the caller checks the result)."""
        free = [i for i in range(len(self.pool)) if i not in taken]
        by_face: dict[Face, list[int]] = {}
        for i in free:
            by_face.setdefault(self.pool[i].face, []).append(i)
        faces = list(by_face)
        need = self.need[seat]
        got: list[int] = []
        used: set[int] = set()

        def grab(fs: list[Face]) -> bool:
            idxs = []
            for f in fs:
                cs = [i for i in by_face.get(f, ()) if i not in used]
                if not cs:
                    return False
                idxs.append(cs[0])
            used.update(idxs)
            got.extend(idxs)
            return True

        pair_needed = len(self.known[seat]) < 2  # cards it picked up: its pair or meld
        room = need - 1 - (2 if pair_needed else 0)  # one loose card to throw
        for _ in range(40):
            if len(got) + 3 > room or not faces:
                break
            f = rng.choice(faces)
            if rng.random() < 0.5:
                others = [Face(f.rank, t) for t in type(f.suit) if t is not f.suit]
                rng.shuffle(others)
                grab([f, *others[:2]])
            elif f.rank <= 11:
                grab([f, Face(f.rank + 1, f.suit), Face(f.rank + 2, f.suit)])
        for _ in range(20 if pair_needed else 0):
            if len(got) + 2 > need or not faces:
                break
            f = rng.choice(faces)
            g = Face(f.rank + 1, f.suit) if f.rank <= 12 and rng.random() < 0.5 else rng.choice(faces)
            if g.rank == f.rank and g.suit is not f.suit or g.suit is f.suit and g.rank == f.rank + 1:
                if grab([f, g]):
                    break
        rest = [i for i in free if i not in used]
        rng.shuffle(rest)
        got.extend(rest[: max(0, need - len(got))])
        return got[:need]

    def sample(self, rng: random.Random) -> Determinization:
        """One determinization drawn with ``rng`` (deterministic for a given rng state)."""
        v = self.view
        taken: set[int] = set()
        hands: list[tuple[Card, ...]] = [()] * v.seats
        assert v.seat is not None
        hands[v.seat] = v.hand
        order = list(self.opponents)
        rng.shuffle(order)
        # announced seats first: their redraws see the whole pool
        order.sort(key=lambda s: s not in v.announced)
        for s in order:
            k = self.need[s]
            w = self.weights[s]
            tries = 1
            if s in v.announced and len(self.known[s]) + k == 9:
                tries = 2 if self._bank[s] else ANNOUNCED_TRIES
            pick: list[int] = []
            for t in range(tries):
                pick = self._kept(s, k, taken, w, rng)
                if tries == 1:
                    break
                if t % 2 == 0:
                    pick = self._built(s, taken, rng) or pick
                if self.one_away(s, self.known[s] + tuple(self.pool[i] for i in pick)):
                    self._bank[s].append(pick)
                    break
                bank = [b for b in self._bank[s] if not taken.intersection(b)]
                if t == tries - 1 and bank:
                    pick = rng.choice(bank)
            taken.update(pick)
            hands[s] = self.known[s] + tuple(self.pool[i] for i in pick)
        rest = [c for i, c in enumerate(self.pool) if i not in taken]
        rng.shuffle(rest)
        return Determinization(tuple(hands), tuple(rest[-v.stock_size :] if v.stock_size else ()))
