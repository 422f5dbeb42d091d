"""The shared decision machinery of Carmen, Tito and Luna, weighted by a :class:`Style`.

How a bot decides (seed 000 lines 39-43, "Dicas", and the site rules from line 44):

1. Go out whenever the engine's solver says it can (``GoOut()``, the best plan: 10 in melds
   preferred).
2. DRAW phase: take the top discard only if it lets the bot go out, or if it completes or
   extends a meld (more cards in melds than before) and the hand is worth more with it than
   without it (the pick is public: everyone sees it, "Dicas" line 43). Otherwise draw.
3. DISCARD phase: for each card it may discard, value the 9 cards left:
   ``value = 10 per card in melds + pairs (two cards a card away from a meld), each worth more
   the more *live* copies of the faces that complete it remain unseen + a bonus when one away,
   growing with the live outs + the expected gain of the next draw (lookahead)
   - defence * danger(card)``, and discard the card with the best value. Danger estimates how
   likely the card feeds the next player or an announced (NA BOA) player: faces next to the
   cards they publicly picked up are dangerous, faces they discarded are safe, faces whose
   neighbours are all visible are dead and safe.
4. Outside its turn: NA BOA when one away (Cacheta), PRÓXIMA RODADA at the round's end.

All values are computed from the :class:`~pifecacheta.rules.views.PlayerView` only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pifecacheta.rules.actions import Action, AnnounceOneAway, Discard, Draw, GoOut, TakeDiscard
from pifecacheta.rules.cards import Face
from pifecacheta.rules.config import Mode
from pifecacheta.rules.match import Phase
from pifecacheta.rules.views import PlayerView

from .common import (
    allowed_discards,
    go_out_plan,
    index_with_top,
    is_my_turn,
    off_turn_action,
    settled_draw,
    unseen_of,
)
from .hand import HandIndex, face_neighbours

__all__ = ["Style", "decide", "Table", "most_cover"]


@dataclass(frozen=True)
class Style:
    """How one bot weighs things (all weights are points on the scale of 10 per melded card).

    Attributes:
        live_weight: extra points per live copy completing a pair (0: every pair alike).
        outs_bonus: points for a 9-card hand that is one card away.
        outs_weight: points per live out (unseen copy of a completing face) when one away.
        lookahead: points per expected extra melded card after the next draw (0: none).
        defence: multiplier of the danger penalty (0: ignores the others).
        defend_all: weigh every opponent (Pife: any can go out on a discard), not only the
            next player and the announced ones.
        take_margin: how much better the hand must get to take the discard (the pick is public).
        announce_needs_live: announce NA BOA only if some out is still unseen.
        cacheta_announced_only: in Cacheta, defend only against announced (NA BOA) players,
            who jump the queue on any discard of an out (seed 000 line 64); the next player's
            plain pick is not worth the cards kept back to avoid it.
        noise: random jitter added to values (a human-looking, weaker bot).
        cover_first: throw only among the cards whose removal leaves the most cards in melds
            (the ``simple`` player's first rule), the value choosing among those: no melded
            card is broken up to keep a pair or a live out.
    """

    live_weight: float = 0.0
    outs_bonus: float = 20.0
    outs_weight: float = 0.0
    lookahead: float = 0.0
    defence: float = 0.0
    defend_all: bool = False
    take_margin: float = 0.0
    announce_needs_live: bool = False
    noise: float = 0.0
    cacheta_announced_only: bool = False
    cover_first: bool = False


class Table:
    """Public knowledge of one view: unseen copies per face and the danger of each face."""

    def __init__(self, view: PlayerView, style: Style) -> None:
        self.view = view
        self.unseen = unseen_of(view)
        self.unseen_total = max(1, sum(self.unseen.values()))
        self._danger: dict[Face, float] = {}
        self.style = style
        self.threats = self._threats()
        self.picked = [tuple(c.face for c in cs) for cs in view.picked_up]
        self.thrown: list[set[Face]] = [set() for _ in range(view.seats)]
        #: per seat, the face of its latest discard still on the pile
        self.last_thrown: list[Face | None] = [None] * view.seats
        for c, by in zip(view.discard_pile, view.discarded_by, strict=False):
            self.thrown[by].add(c.face)
            self.last_thrown[by] = c.face

    def _threats(self) -> list[tuple[int, float]]:
        """(seat, weight) of the opponents a discard may feed."""
        v = self.view
        me = v.seat
        if me is None:
            return []
        active = [s for s in range(v.seats) if s not in v.out and s not in v.left and s != me]
        if not active:
            return []
        nxt = min(active, key=lambda s: (s - me) % v.seats)
        pife = v.rules.mode is Mode.PIFE
        # Late in the round every hand is closer to going out.
        late = min(1.0, len(v.discard_pile) / 24.0)
        out: list[tuple[int, float]] = []
        if not pife and self.style.cacheta_announced_only:
            return [(s, 4.0) for s in active if s in v.announced]
        for s in active:
            w = 0.0
            if s == nxt:
                w += 1.0
            if s in v.announced:
                w += 4.0
            elif pife and (self.style.defend_all or s == nxt):
                w += 1.5 * late  # Pife: anyone goes out on a discard ("louca")
            if w:
                out.append((s, w))
        return out

    def danger(self, face: Face) -> float:
        """How likely discarding ``face`` helps an opponent (0 = safe); memoised."""
        got = self._danger.get(face)
        if got is not None:
            return got
        unseen = self.unseen
        neigh = face_neighbours(face)
        live = sum(unseen[g] for g in neigh) / 12.0  # dead faces are safe
        total = 0.0
        for s, w in self.threats:
            if self.style.cacheta_announced_only and s in self.view.announced and self.last_thrown[s] == face:
                continue  # an announced player who threw this face could not go out with it
            wanted = 0.15 + live
            for p in self.picked[s]:
                if p != face and p in neigh:
                    gap = abs(p.rank - face.rank)
                    wanted += 1.5 if gap in (0, 1, 12) else 0.8
            thrown = self.thrown[s]
            if face in thrown:
                wanted *= 0.2
            near = sum(1 for g in neigh if g in thrown)
            if near:
                wanted *= 0.85**near
            total += w * wanted
        self._danger[face] = total
        return total


class _Scorer:
    """Values of the sub-hands of one indexed hand for one decision (memoised)."""

    def __init__(self, idx: HandIndex, table: Table, style: Style) -> None:
        self.idx, self.table, self.style = idx, table, style
        unseen = table.unseen
        wm = idx.wild_mask
        self.pairs_by_low: dict[int, list[tuple[int, float]]] = {}
        for m, fs in idx.near.items():
            if m.bit_count() == 2 and not m & wm:
                val = 6.0 + style.live_weight * min(4, sum(unseen[f] for f in fs))
                self.pairs_by_low.setdefault((m & -m).bit_length() - 1, []).append((m, val))
        self.melds_by_low: dict[int, list[int]] = {}
        for m in idx.melds:
            self.melds_by_low.setdefault((m & -m).bit_length() - 1, []).append(m)
        self.memo: dict[tuple[int, int], float] = {}

    def struct(self, mask: int, groups: int = 3) -> float:
        """Best split of ``mask`` into at most ``groups`` groups: melds (10 per card) and pairs
        (6 + live_weight * live copies of their completing faces); a lone wild is worth 12."""
        if not mask:
            return 0.0
        key = (mask, groups)
        got = self.memo.get(key)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        b = self.struct(mask ^ low, groups) + (12.0 if low & self.idx.wild_mask else 0.0)
        if groups:
            for m in self.melds_by_low.get(i, ()):
                if m & mask == m:
                    g = 2 if m.bit_count() >= 6 else 1
                    if g <= groups:
                        val = 10.0 * m.bit_count() + self.struct(mask ^ m, groups - g)
                        if val > b:
                            b = val
            for m, pv in self.pairs_by_low.get(i, ()):
                if m & mask == m:
                    val = pv + self.struct(mask ^ m, groups - 1)
                    if val > b:
                        b = val
        self.memo[key] = b
        return b

    def value(self, mask: int) -> float:
        """Value of the 9-card sub-hand ``mask`` (no danger term): structure, one-away bonus
        with its live outs, and the lookahead's expected gain."""
        idx, table, style = self.idx, self.table, self.style
        v = self.struct(mask)
        outs = idx.outs(mask)
        if outs:
            live = sum(table.unseen[f] for f in outs)
            if live or not style.outs_weight:
                v += style.outs_bonus + style.outs_weight * min(live, 16)
        if style.lookahead:
            v += style.lookahead * 10.0 * _expected_gain(idx, mask, table)
        return v


def _expected_gain(idx: HandIndex, mask: int, table: Table) -> float:
    """Expected extra melded cards after one draw from the stock (a one-step lookahead):
    for each near-meld inside ``mask``, the cover it would reach, weighted by the unseen
    copies of the faces that complete it."""
    base = idx.max_cover(mask)
    gain: dict[Face, int] = {}
    for m, fs in idx.near.items():
        if m & mask != m:
            continue
        g = m.bit_count() + 1 + idx.max_cover(mask ^ m) - base
        if g > 0:
            for f in fs:
                if g > gain.get(f, 0):
                    gain[f] = g
    return sum(g * table.unseen[f] for f, g in gain.items()) / table.unseen_total


def most_cover(idx: HandIndex, cand: list[int]) -> list[int]:
    """The positions of ``cand`` (cards of ``idx``) whose removal leaves the most cards in
    melds, in their order (``cand`` must not be empty)."""
    cover = {i: idx.max_cover(idx.full ^ (1 << i)) for i in cand}
    top = max(cover.values())
    return [i for i in cand if cover[i] == top]


def _best_discard(
    idx: HandIndex, table: Table, style: Style, forbidden: Face | None, rng: random.Random
) -> tuple[float, int, _Scorer]:
    """(value, position, scorer) of the best card to discard from the indexed 10 cards."""
    best: tuple[float, int] | None = None
    scorer = _Scorer(idx, table, style)
    cand = [i for i, c in enumerate(idx.cards) if forbidden is None or c.face != forbidden]
    if style.cover_first:
        cand = most_cover(idx, cand)
    for i in cand:
        c = idx.cards[i]
        mask = idx.full ^ (1 << i)
        val = scorer.value(mask)
        if style.defence:
            val -= style.defence * table.danger(c.face)
        if style.noise:
            val += rng.uniform(0, style.noise)
        if best is None or val > best[0]:
            best = (val, i)
    assert best is not None
    return best[0], best[1], scorer


def wants_announce(view: PlayerView, style: Style) -> bool:
    """NA BOA now? Always when allowed, unless the style wants a live out first."""
    if not view.can_announce:
        return False
    if not style.announce_needs_live:
        return True
    idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
    unseen = unseen_of(view)
    outs = idx.outs(idx.full)
    return not outs or any(unseen[f] for f in outs)  # unsure (exotic wild layout): announce


def decide(view: PlayerView, style: Style, rng: random.Random) -> Action | None:
    """The action ``style`` chooses for ``view`` (see the module docstring), or None."""
    if not is_my_turn(view):
        return off_turn_action(view, announce=wants_announce(view, style))
    if view.can_announce and wants_announce(view, style):
        return AnnounceOneAway()
    table = Table(view, style)
    if view.phase is Phase.DRAW:
        return _draw_or_take(view, style, table, rng)
    if go_out_plan(view) is not None:
        return GoOut()
    idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
    t = view.taken
    _, i, _ = _best_discard(idx, table, style, None if t is None else t.face, rng)
    card = idx.cards[i]
    assert card in allowed_discards(view)
    return Discard(card)


def _draw_or_take(view: PlayerView, style: Style, table: Table, rng: random.Random) -> Action:
    settled = settled_draw(view)
    if settled is not None:
        return settled
    top = view.discard_pile[-1]
    idx = index_with_top(view)
    keep = idx.full ^ (1 << (len(idx.cards) - 1))
    before = idx.max_cover(keep)
    val, i, scorer = _best_discard(idx, table, style, top.face, rng)
    if idx.max_cover(idx.full ^ (1 << i)) <= before:
        return Draw()  # it neither completes nor extends a meld (seed 000 line 43)
    if style.defence or style.live_weight or style.lookahead:
        now = scorer.value(keep)
        if val < now + style.take_margin:
            return Draw()
    return TakeDiscard()
