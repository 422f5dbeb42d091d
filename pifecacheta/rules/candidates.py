"""Every valid meld among a few cards, as bitmasks: what the go-out search covers a hand with.

Card ``i`` of a group is bit ``1 << i``; a candidate is the bitmask of a valid set or run (seed
000 line 52) mapped to the number of wilds standing in it (0 or 1). Built structurally from the
cards' ranks and suits, never by trying every subset: sets from each rank's cards, runs laid on
positions 1..14 of each suit (the ace at both ends). Used by :mod:`.solver` (best go-out) and
:mod:`.one_away` (the completing faces).

>>> from pifecacheta.rules.cards import parse_hand
>>> from pifecacheta.rules.config import PIFE
>>> sorted(candidates_of_cards(parse_hand("AH 2H 3H 3C"), frozenset(), frozenset(), PIFE))
[7]
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Face
from .config import Rules
from .melds import MAX_SET, MAX_SET_REPEAT

__all__ = ["candidates", "candidates_of_groups", "candidates_of_cards"]


def candidates(
    ranks: Sequence[int],
    suits: Sequence[int],
    usable: Sequence[bool],
    rules: Rules,
    *,
    only_rank: int | None = None,
    only_suit: int | None = None,
    must: int = 0,
) -> dict[int, int]:
    """Every valid meld among the cards, as bitmask -> wilds standing in (0 or 1).

    Card ``i`` has ``ranks[i]`` (1..13), ``suits[i]`` (0..3) and may stand in when
    ``usable[i]``. Built structurally: sets from each rank's cards, runs from each suit's
    cards laid on positions 1..14 (ace at both ends), each with at most one position or suit
    left to a usable wild. ``only_rank``/``only_suit`` restrict the sets/runs generated to one
    rank/suit, ``must`` (a bitmask of one natural card, of that rank and suit) keeps only the
    melds holding it: used when only melds with the added card are wanted. Agrees with
    :func:`~.melds.meld_of` on every group (checked by the tests).
    """
    n = len(ranks)
    wild_bits = [1 << i for i in range(n) if usable[i]]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, dict[int, list[int]]] = {}
    for i in range(n):
        r, st = ranks[i], suits[i]
        if only_rank is None or r == only_rank:
            by_rank.setdefault(r, []).append(i)
        if only_suit is None or st == only_suit:
            by_suit.setdefault(st, {}).setdefault(r, []).append(1 << i)
    return candidates_of_groups(by_rank, by_suit, suits, wild_bits, rules, must)


def candidates_of_groups(
    by_rank: dict[int, list[int]],
    by_suit: dict[int, dict[int, list[int]]],
    suits: Sequence[int],
    wild_bits: list[int],
    rules: Rules,
    must: int,
) -> dict[int, int]:
    """The work of :func:`candidates`, from cards already grouped: bitmask -> wilds standing in.

    ``by_rank``: rank (1..13) -> indices of the cards of that rank (the sets are built from
    these); ``by_suit``: suit index (0..3) -> rank -> bits of the cards of that suit and rank
    (the runs); ``suits[i]``: card i's suit; ``wild_bits``: the bits of the cards that may
    stand in; ``must``: the bit of one natural card every meld returned holds, or 0. A caller
    may pass only some groups (:mod:`.one_away` passes the added card's rank and suit).
    """
    out: dict[int, int] = {}
    repeat = rules.set_may_repeat_suit
    max_set = MAX_SET_REPEAT if repeat else MAX_SET
    wild_sets = bool(wild_bits) and not rules.no_wild_in_sets
    # sets (seed 000 line 52; variants set_may_repeat_suit, no_wild_in_sets)
    for idxs in by_rank.values():
        k = len(idxs)
        if k < 2 or (k == 2 and not wild_sets):
            continue
        must_j = 0
        if must:
            must_j = next(1 << j for j in range(k) if 1 << idxs[j] == must)
        for sub in range(3, 1 << k):
            cnt = sub.bit_count()
            if cnt < 2 or cnt > max_set or sub & must_j != must_j:
                continue
            mask = 0
            seen = 0
            ok = True
            for j in range(k):
                if sub >> j & 1:
                    i = idxs[j]
                    sb = 1 << suits[i]
                    if seen & sb and not repeat:
                        ok = False
                        break
                    seen |= sb
                    mask |= 1 << i
            if not ok:
                continue
            # with repeats, at least three different suits (a standing-in wild takes one)
            distinct = seen.bit_count()
            if cnt >= 3 and (not repeat or distinct >= 3):
                out[mask] = 0
            if wild_sets and cnt < max_set and (not repeat or distinct >= 2):
                for w in wild_bits:
                    if not w & mask and (mask | w) not in out:
                        out[mask | w] = 1
    # runs (seed 000 line 52: ace low or high, never around)
    for rmap in by_suit.values():
        if len(rmap) < (2 if wild_bits else 3):
            continue
        last = 15  # the last position a run may start at or pass without the must card
        if must:
            must_rank = next(r for r, bs in rmap.items() if must in bs)
            last = 14 if must_rank == 1 else must_rank
        for lo in range(1, min(13, last + 1)):
            if lo not in rmap and (not wild_bits or lo + 1 not in rmap):
                continue
            states: list[tuple[int, int]] = [(0, 0)]
            for p in range(lo, 15):
                opts = rmap.get(p if p <= 13 else 1, ())
                new: list[tuple[int, int]] = []
                for mask, miss in states:
                    for b in opts:
                        if not mask & b:
                            new.append((mask | b, miss))
                    if not miss and wild_bits:
                        new.append((mask, 1))
                states = new
                if p >= last:
                    states = [t for t in states if t[0] & must]
                if not states:
                    break
                if p - lo >= 2:
                    for mask, miss in states:
                        if not miss:
                            out[mask] = 0
                        else:
                            for w in wild_bits:
                                if not w & mask and (mask | w) not in out:
                                    out[mask | w] = 1
    return out


def candidates_of_cards(
    cards: Sequence[Card], wilds: frozenset[Face], plain: frozenset[Card], rules: Rules
) -> dict[int, int]:
    """Every valid meld among ``cards`` (see :func:`candidates`), a card usable as a wild
    when its face is wild and it is not plain."""
    return candidates(
        [c.rank for c in cards],
        [c.suit.index for c in cards],
        [c.face in wilds and c not in plain for c in cards],
        rules,
    )
