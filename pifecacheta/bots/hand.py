"""Fast card arithmetic for the bots: every meld and near-meld inside one hand, as bitmasks.

The engine's solver (``best_go_out``, ``completing_faces``) is the referee and decides every
go-out; this module is the bots' own, faster estimate of *how close* a hand is, used to
choose discards and draws in a few milliseconds (rules: seed 000 lines 52 and 62).

A :class:`HandIndex` is built once for a hand of up to 10 physical cards; a sub-hand is a
bitmask over its positions (bit ``i`` = ``cards[i]``), so the ten 9-card hands left by the ten
possible discards share one index and one memo table.

- *meld*: a bitmask of cards that is a valid set or run (a wild standing in for at most one
  card, seed 000 line 62; a wild taken from the discard pile is ``plain`` and counts only as
  itself).
- *near-meld*: a bitmask that becomes a meld with one more natural card; :attr:`HandIndex.near`
  maps it to the faces that complete it (a pair ``5H 6H`` -> ``{4H, 7H}``, ``7C 7D`` -> ``{7H, 7S}``,
  ``5H 6H 7H`` -> ``{4H, 8H}``).

>>> from pifecacheta.rules.cards import parse_hand
>>> from pifecacheta.rules.config import PIFE
>>> h = HandIndex(parse_hand("5H 6H 7H 9C 9D 9S KS KD 2C"), rules=PIFE)
>>> h.max_cover(h.full)
6
>>> sorted(str(f) for f in h.outs(h.full))   # a third king, then discard 2C
['KC', 'KH']
>>> h = HandIndex(parse_hand("5H 6H 7H 9C 9D 9S KS KD QS"), rules=PIFE)
>>> sorted(str(f) for f in h.outs(h.full))   # KS KD + KC/KH, or QS KS + JS/AS
['AS', 'JS', 'KC', 'KH']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product

from pifecacheta.rules.cards import ALL_FACES, SUITS, Card, Face, Suit
from pifecacheta.rules.config import Rules
from pifecacheta.rules.melds import MAX_SET, MAX_SET_REPEAT

__all__ = ["HandIndex", "face_neighbours", "unseen_counts"]


def _pos_rank(p: int) -> int:
    """Run position 1..14 -> rank (14 is the ace after the king)."""
    return 1 if p == 14 else p


def _fill_window(
    pos: list[list[int]],
    b: int,
    wild: bool,
    p: int,
    mask: int,
    w: int,
    hole: int,
    out: list[tuple[int, int, int]],
) -> None:
    """Append to ``out`` each way to fill run positions ``p``..``b`` of one suit as
    ``(mask of naturals, wild slot used, hole position)``: each position takes a natural card
    of ``pos[position]`` (card indexes), the one wild slot (when ``wild``) or the one hole (the
    missing card of a near-meld); depth-first with at most one of each.

    A module function, not a closure: a closure that calls itself is a reference cycle, left
    for the cyclic collector with everything it holds after every call.
    """
    if p > b:
        out.append((mask, w, hole))
        return
    for i in pos[p]:
        bit = 1 << i
        if not mask & bit:  # the same ace cannot sit at both ends
            _fill_window(pos, b, wild, p + 1, mask | bit, w, hole, out)
    if wild and not w:
        _fill_window(pos, b, wild, p + 1, mask, 1, hole, out)
    if not hole:
        _fill_window(pos, b, wild, p + 1, mask, w, p, out)


def face_neighbours(face: Face) -> tuple[Face, ...]:
    """Faces that make a meld together with ``face``: same rank other suits, same suit +-1 and +-2
    (ace next to both 2 and K). Used to weigh how live or dangerous a card is."""
    out: list[Face] = [Face(face.rank, s) for s in SUITS if s is not face.suit]
    positions = (1, 14) if face.rank == 1 else (face.rank,)
    seen: set[int] = set()
    for p in positions:
        for d in (-2, -1, 1, 2):
            q = p + d
            if 1 <= q <= 14:
                r = _pos_rank(q)
                if r not in seen and r != face.rank:
                    seen.add(r)
                    out.append(Face(r, face.suit))
    return tuple(out)


def unseen_counts(visible: Iterable[Card]) -> dict[Face, int]:
    """How many physical copies (0..2) of each face are not among ``visible`` cards."""
    counts = {f: 2 for f in ALL_FACES}
    for c in visible:
        f = c.face
        if counts[f] > 0:
            counts[f] -= 1
    return counts


@lru_cache(maxsize=256)
def _cached(
    cards: tuple[Card, ...], wilds: frozenset[Face], plain: frozenset[Card], rules: Rules
) -> HandIndex:
    return HandIndex(cards, wilds=wilds, plain=plain, rules=rules)


class HandIndex:
    """All melds and near-melds of ``cards`` (at most 10), with memoised coverage.

    Args:
        cards: the physical cards (positions 0..n-1 in the bitmasks).
        wilds: wild faces (``view.wilds``); empty in Pife.
        plain: wild cards that count only as themselves (``view.plain``).
        rules: variants ``set_may_repeat_suit`` and ``no_wild_in_sets`` are honoured.
    """

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        wilds: frozenset[Face] = frozenset(),
        plain: frozenset[Card] = frozenset(),
        rules: Rules,
    ) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        self.rules = rules
        n = len(self.cards)
        self.full: int = (1 << n) - 1
        ws = wilds if rules.has_wild else frozenset()
        self.wilds: frozenset[Face] = ws
        #: positions of the wild cards that may stand in (a wild face, not ``plain``)
        self.wild_positions: tuple[int, ...] = (
            tuple(i for i, c in enumerate(self.cards) if c.face in ws and c not in plain) if ws else ()
        )
        #: the same positions as a bitmask
        self.wild_mask: int = sum(1 << i for i in self.wild_positions)
        melds: set[int] = set()
        near: dict[int, set[Face]] = {}
        self._runs(melds, near)
        self._sets(melds, near)
        self.melds: tuple[int, ...] = tuple(sorted(melds))
        self.near: dict[int, frozenset[Face]] = {m: frozenset(fs) for m, fs in near.items()}
        self._by_low: list[list[int]] = [[] for _ in range(n)]
        for m in self.melds:
            self._by_low[(m & -m).bit_length() - 1].append(m)
        self._cover: dict[int, int] = {0: 0}

    @staticmethod
    def of(
        cards: Sequence[Card],
        *,
        wilds: frozenset[Face] = frozenset(),
        plain: frozenset[Card] = frozenset(),
        rules: Rules,
    ) -> HandIndex:
        """A shared (cached) index for these cards: the same hand is indexed once per decision
        although the go-out check, the draw and the discard all ask for it."""
        ws = wilds if rules.has_wild else frozenset()
        return _cached(tuple(cards), ws, frozenset(c for c in plain if c.face in ws), rules)

    # -- enumeration ---------------------------------------------------------------
    def _runs(self, melds: set[int], near: dict[int, set[Face]]) -> None:
        n = len(self.cards)
        has_wild = bool(self.wild_positions)
        for suit in SUITS:
            pos: list[list[int]] = [[] for _ in range(15)]
            for i, c in enumerate(self.cards):
                if c.suit is suit:
                    pos[c.rank].append(i)
                    if c.rank == 1:
                        pos[14].append(i)
            if sum(len(p) for p in pos[1:14]) + len(self.wild_positions) < 2:
                continue
            for a in range(1, 13):
                empties = 0
                for b in range(a, 15):
                    if not pos[b]:
                        empties += 1
                    if empties > 1 + has_wild:
                        break
                    length = b - a + 1
                    if length > n + 1 or length > 13:
                        break
                    if length < 3:
                        continue
                    self._run_window(suit, pos, a, b, melds, near)

    def _run_window(
        self, suit: Suit, pos: list[list[int]], a: int, b: int, melds: set[int], near: dict[int, set[Face]]
    ) -> None:
        """Add the melds and near-melds of the run window ``a``..``b`` of ``suit`` (``pos``:
        card indexes by run position, :func:`_fill_window`)."""
        wild_positions = self.wild_positions
        out: list[tuple[int, int, int]] = []  # (mask of naturals, wild slot used, hole position)
        _fill_window(pos, b, bool(wild_positions), a, 0, 0, 0, out)
        for mask, w, hole in out:
            masks = [mask]
            if w:
                masks = [mask | (1 << k) for k in wild_positions if not mask & (1 << k)]
            for m in masks:
                if hole == 0:
                    melds.add(m)
                elif m.bit_count() >= 2:
                    near.setdefault(m, set()).add(Face(_pos_rank(hole), suit))

    def _sets(self, melds: set[int], near: dict[int, set[Face]]) -> None:
        rules = self.rules
        wild_sets = bool(self.wild_positions) and not rules.no_wild_in_sets
        repeat = rules.set_may_repeat_suit
        cap = MAX_SET_REPEAT if repeat else MAX_SET
        by_rank: dict[int, list[int]] = {}
        for i, c in enumerate(self.cards):
            by_rank.setdefault(c.rank, []).append(i)
        for rank, idxs in by_rank.items():
            if len(idxs) + wild_sets < 2:
                continue
            # candidate natural groups: repeat -> any subset; else one card per distinct suit
            groups: list[int] = []
            if repeat:
                for sub in range(1, 1 << len(idxs)):
                    groups.append(sum(1 << idxs[k] for k in range(len(idxs)) if sub >> k & 1))
            else:
                per_suit: dict[Suit, list[int]] = {}
                for i in idxs:
                    per_suit.setdefault(self.cards[i].suit, []).append(i)
                choices = [[None, *v] for v in per_suit.values()]
                for combo in product(*choices):
                    g = sum(1 << i for i in combo if i is not None)
                    if g:
                        groups.append(g)
            for g in groups:
                k = g.bit_count()
                suits = {self.cards[i].suit for i in range(len(self.cards)) if g >> i & 1}
                missing = [Face(rank, s) for s in SUITS if repeat or s not in suits]
                for use_wild in (False, True) if wild_sets else (False,):
                    masks = [g]
                    if use_wild:
                        masks = [g | (1 << w) for w in self.wild_positions if not g & (1 << w)]
                    size = k + use_wild
                    # with repeats, three different suits at least (a standing-in wild takes
                    # one): seed 000 line 35, seed 003 line 19
                    distinct = len(suits) + use_wild
                    whole = not repeat or distinct >= 3
                    completing = [f for f in missing if not repeat or distinct + (f.suit not in suits) >= 3]
                    for m in masks:
                        if 3 <= size <= cap and whole:
                            melds.add(m)
                        if 3 <= size + 1 <= cap and m.bit_count() >= 2:
                            if completing:
                                near.setdefault(m, set()).update(completing)

    # -- queries --------------------------------------------------------------------
    def max_cover(self, mask: int) -> int:
        """Most cards of ``mask`` that disjoint melds can hold (memoised)."""
        memo = self._cover
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        rest = mask ^ low
        best = self.max_cover(rest)
        for m in self._by_low[i]:
            if m & mask == m:
                v = m.bit_count() + self.max_cover(mask ^ m)
                if v > best:
                    best = v
        # a meld whose lowest card is above i cannot contain i; covered by the skip branch
        memo[mask] = best
        return best

    def near_melds(self, mask: int) -> list[tuple[int, frozenset[Face]]]:
        """Near-melds inside ``mask`` with their completing faces."""
        return [(m, fs) for m, fs in self.near.items() if m & mask == m]

    def outs(self, mask: int, *, target: int | None = None) -> frozenset[Face]:
        """Faces whose card, drawn from the stock, lets the sub-hand ``mask`` go out.

        ``target`` = cards that must end in melds after the draw (default: popcount(mask)),
        i.e. 9 in melds plus a discard for a 9-card hand. A drawn wild fills any near-meld,
        so the wild faces are outs whenever any near-meld works (seed 000 line 62).
        An approximation of the engine's ``completing_faces(from_discard=False)`` that
        ignores only exotic double-wild layouts.
        """
        size = mask.bit_count()
        need = size if target is None else target
        if self.max_cover(mask) >= need:
            return frozenset(ALL_FACES)
        found: set[Face] = set()
        any_near = False
        for m, fs in self.near.items():
            if m & mask == m and m.bit_count() + 1 + self.max_cover(mask ^ m) >= need:
                found |= fs
                any_near = True
        if any_near:
            found |= self.wilds
        return frozenset(found)

    def free_wilds(self, mask: int) -> int:
        """How many wild cards that may stand in (not ``plain``) are in ``mask``."""
        return (mask & self.wild_mask).bit_count()
