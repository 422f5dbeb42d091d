"""One card away: which faces complete 9 cards into a go-out, and NA BOA's question.

Seed 000 lines 54-64: a card taken from the discard pile must end up in a meld, and neither it
nor its twin may be the discard; a card drawn from the stock may be discarded again. A Cacheta
player with 9 cards one card away from going out may announce it (NA BOA, line 64).
Memoized like :func:`~.solver.best_go_out` (:data:`~.solver.MEMO_SIZE` answers each).

>>> h = parse_hand("AH 2H 3H QS KS AS 7C 7D 9S")
>>> sorted(str(f) for f in completing_faces(h, from_discard=True, rules=PIFE)), is_one_away(h, rules=PIFE)
(['7H', '7S'], True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

from .candidates import candidates, candidates_of_groups
from .cards import ALL_FACES, Card, Face, parse_hand  # noqa: F401 (doctests)
from .config import CACHETA_7, PIFE, Rules  # noqa: F401 (doctests)
from .errors import RulesError
from .melds import effective_wilds, wild_faces  # noqa: F401 (doctests)
from .solver import MEMO_SIZE

__all__ = ["completing_faces", "is_one_away"]


def _near(face: Face, ranks: Sequence[int], suits: Sequence[int]) -> bool:
    """Could a natural card of ``face`` share a meld with one of the cards? (same rank, or
    same suit within two places, the ace at both ends)"""
    fr, fs = face.rank, face.suit.index
    for r, st in zip(ranks, suits, strict=True):
        if r == fr:
            return True
        if st == fs:
            d = abs(r - fr)
            if d <= 2 or d >= 11:  # 11, 12: the ace next to Q, K
                return True
    return False


def _lonely(ranks: Sequence[int], suits: Sequence[int]) -> int:
    """How many of the cards (natural: no usable wild among them) share a meld with no other.

    A meld holds at least 3 cards and the added card is one, so a card in a meld at the end
    shares it with at least one other of these: one of the same rank (a set), or of the same
    suit within two places (a run: of the two places on either side of it that the run covers,
    at most one is the added card), the ace at both ends (:func:`_near`). A card with no such
    partner can only be the discard; two of them, and no added card lets the hand go out.
    """
    count = 0
    for i, (r, st) in enumerate(zip(ranks, suits, strict=True)):
        for j, (r2, st2) in enumerate(zip(ranks, suits, strict=True)):
            if i != j and (r == r2 or (st == st2 and ((d := abs(r - r2)) <= 2 or d >= 11))):
                break
        else:
            count += 1
    return count


def completing_faces(
    hand9: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    from_discard: bool,
    rules: Rules = CACHETA_7,
) -> frozenset[Face]:
    """The faces whose card, added to these 9, lets the hand go out (seed 000 lines 54-62).

    ``from_discard=True``: the added card must end up in a meld, neither it nor its twin can
    be the discard, and a wild face counts only as itself. ``from_discard=False`` (drawn from
    the stock): a wild face works as wild and any discard is allowed. A face whose two
    physical cards are both in ``hand9`` is never included (no third copy exists).

    Method: the 9 are bits 0..8 and the added card bit 9. Unless the 9 alone are all in melds
    (then, from the stock, every face works: discard the new card), the new card must be in a
    meld M, and the rest of the 9 outside M must be coverable whole or but one card. Only
    faces near a held card (or wild, from the stock) can be in a meld with the 9.

    >>> h = parse_hand("AH 2H 3H QS KS AS 7C 7D 9S")
    >>> sorted(str(f) for f in completing_faces(h, from_discard=True, rules=PIFE))
    ['7H', '7S']
    >>> w = wild_faces(Card.parse("4C"), CACHETA_7)   # the 5C is wild
    >>> sorted(str(f) for f in completing_faces(h, wilds=w, from_discard=False))
    ['5C', '7H', '7S']
    >>> sorted(str(f) for f in completing_faces(h, wilds=w, from_discard=True))
    ['7H', '7S']
    """
    return _completing_faces(tuple(hand9), frozenset(wilds), frozenset(plain), from_discard, rules)


@lru_cache(maxsize=MEMO_SIZE)
def _completing_faces(
    hand9: Sequence[Card], wilds: frozenset[Face], plain: frozenset[Card], from_discard: bool, rules: Rules
) -> frozenset[Face]:
    """:func:`completing_faces` on hashable arguments, remembered (``__wrapped__``: not)."""
    return frozenset(_each_completing_face(hand9, wilds, plain, from_discard, rules))


@lru_cache(maxsize=MEMO_SIZE)
def _one_away(hand9: Sequence[Card], wilds: frozenset[Face], plain: frozenset[Card], rules: Rules) -> bool:
    """:func:`is_one_away` on hashable arguments, remembered: stops at the first completing face."""
    return next(iter(_each_completing_face(hand9, wilds, plain, False, rules)), None) is not None


def _each_completing_face(
    hand9: Sequence[Card], wilds: frozenset[Face], plain: frozenset[Card], from_discard: bool, rules: Rules
) -> Iterator[Face]:
    """The faces of :func:`completing_faces` one by one, wilds first (:func:`_one_away` stops at one)."""
    ws = effective_wilds(wilds, rules)
    cards9 = list(hand9)
    if len(set(cards9)) != len(cards9):
        raise RulesError("the same physical card appears twice in the hand")
    n = len(cards9)
    ranks, suits = [c.rank for c in cards9], [c.suit.index for c in cards9]
    usable = [c.face in ws and c not in plain for c in cards9]
    if not any(usable) and _lonely(ranks, suits) >= 2:
        return  # two cards that no meld can hold: one could be the discard, not both
    wild_bits = [1 << i for i in range(n) if usable[i]]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, dict[int, list[int]]] = {}
    for i in range(n):
        by_rank.setdefault(ranks[i], []).append(i)
        by_suit.setdefault(suits[i], {}).setdefault(ranks[i], []).append(1 << i)
    # every coverable part of the 9 (unions of disjoint melds), and for each part with one
    # card more, the bits of the cards that may be that extra card (the discard)
    coverable = {0}
    for m in candidates_of_groups(by_rank, by_suit, suits, wild_bits, rules, 0):
        coverable.update([c | m for c in coverable if not c & m])
    full9 = (1 << n) - 1
    held = Counter(c.face for c in cards9)
    faces = sorted((f for f in ALL_FACES if held[f] < 2), key=lambda f: f not in ws)  # wilds first
    if not from_discard and full9 in coverable:
        yield from faces
        return
    spare: dict[int, int] = {}
    for part in coverable:
        for i in range(n):
            b = 1 << i
            if not part & b:
                spare[part | b] = spare.get(part | b, 0) | b
    bit = 1 << n
    for f in faces:
        fr, fs = f.rank, f.suit.index
        if not from_discard and f in ws:
            cands = candidates([*ranks, fr], [*suits, fs], [*usable, True], rules)
        elif _near(f, ranks, suits):
            rmap = {r: list(bs) for r, bs in by_suit.get(fs, {}).items()}
            rmap.setdefault(fr, []).append(bit)
            cands = candidates_of_groups(
                {fr: [*by_rank.get(fr, ()), n]}, {fs: rmap}, [*suits, fs], wild_bits, rules, bit
            )
        else:
            continue
        # from the discard pile, the taken card's twin may not be the discard (seed 000 line 54)
        allowed = full9
        if from_discard:
            for i in by_rank.get(fr, ()):
                if suits[i] == fs:
                    allowed &= ~(1 << i)
        for m in cands:
            if m & bit:
                rest = full9 & ~m
                if rest in coverable or spare.get(rest, 0) & allowed:
                    yield f
                    break


def is_one_away(
    hand9: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    rules: Rules = CACHETA_7,
) -> bool:
    """True when some card drawn from the stock would let these 9 go out (NA BOA, seed 000 line 64).

    >>> is_one_away(parse_hand("AH 2H 3H QS KS AS 7C 7D 9S"), rules=PIFE)
    True
    """
    return _one_away(tuple(hand9), frozenset(wilds), frozenset(plain), rules)
