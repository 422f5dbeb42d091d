"""Going out (bater): the best split of a hand into melds, and which cards complete a hand.

Seed 000 line 56: after drawing, a player goes out with 9 cards in melds and discards the
tenth, or with all 10 in melds and no discard ("bater com 10", preferred here since it costs
the others two lives, seed 000 line 66). Seed 000 line 54: the card taken from the discard
pile (and its twin) cannot be the discard that goes out.

Tie-break among equally good plans (deterministic, the same in :mod:`.brute`):
1. all 10 cards in melds before 9 + a discard;
2. fewest wilds standing in;
3. the highest discard in the cards' own order (:class:`~.cards.Card`: rank with the ace
   low, suit C<D<H<S, deck);
4. the melds compared as tuples of their cards' positions in the sorted hand, each meld
   listed by its lowest card, lowest first.

>>> plan = best_go_out(parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S"), rules=PIFE)
>>> [str(m) for m in plan.melds], str(plan.discard)
(['AH 2H 3H', 'QS KS AS', '7C 7D 7H'], '9S')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import ALL_FACES, Card, Face, parse_hand  # noqa: F401 (doctests)
from .config import CACHETA_7, PIFE, Rules  # noqa: F401 (doctests)
from .errors import RulesError
from .melds import MAX_SET, MAX_SET_REPEAT, Meld, effective_wilds, meld_of, wild_faces  # noqa: F401

__all__ = ["GoOutPlan", "best_go_out", "go_out_with_discard", "completing_faces", "is_one_away"]

#: Answers :func:`best_go_out` and :func:`completing_faces` (so :func:`is_one_away`) each keep,
#: least recently used dropped: each is a pure function of its arguments, and the same hand is
#: asked again at every view of the table until it changes.
MEMO_SIZE = 8192


@dataclass(frozen=True)
class GoOutPlan:
    """How a hand goes out.

    Attributes:
        melds: the melds, each in display order (see :class:`~.melds.Meld`), ordered by their
            lowest card in the cards' own order.
        discard: the card discarded to go out, or ``None`` when all 10 cards are in melds
            (bater com 10, seed 000 line 56).
    """

    melds: tuple[Meld, ...]
    discard: Card | None

    @property
    def with_ten(self) -> bool:
        """True when every card is in a meld (no discard): the others lose two lives."""
        return self.discard is None

    def __str__(self) -> str:
        parts = [str(m) for m in self.melds]
        return " | ".join(parts) + (f" / {self.discard}" if self.discard is not None else "")


def _candidates(
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
    return _generate(by_rank, by_suit, suits, wild_bits, rules, must)


def _generate(
    by_rank: dict[int, list[int]],
    by_suit: dict[int, dict[int, list[int]]],
    suits: Sequence[int],
    wild_bits: list[int],
    rules: Rules,
    must: int,
) -> dict[int, int]:
    """The work of :func:`_candidates`, from cards grouped by rank (indices) and by suit then
    rank (bits); ``suits[i]`` is card i's suit."""
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


def _cards_candidates(
    cards: Sequence[Card], wilds: frozenset[Face], plain: frozenset[Card], rules: Rules
) -> dict[int, int]:
    """Every valid meld among ``cards`` (see :func:`_candidates`), a card usable as a wild
    when its face is wild and it is not plain."""
    return _candidates(
        [c.rank for c in cards],
        [c.suit.index for c in cards],
        [c.face in wilds and c not in plain for c in cards],
        rules,
    )


class _Solver:
    """Exact cover of a bitmask of cards by candidate melds, best plan by the tie-break key."""

    def __init__(self, cards: Sequence[Card], cands: dict[int, int]) -> None:
        self.n = len(cards)
        self.by_low: list[list[tuple[int, int, tuple[int, ...]]]] = [[] for _ in range(self.n)]
        for mask, s in cands.items():
            low = (mask & -mask).bit_length() - 1
            key = tuple(i for i in range(self.n) if mask >> i & 1)
            self.by_low[low].append((mask, s, key))
        for lst in self.by_low:
            lst.sort(key=lambda t: (t[1], t[2]))
        self.memo: dict[int, tuple[int, tuple[tuple[int, ...], ...]] | None] = {0: (0, ())}
        self.covered = 0
        for mask in cands:
            self.covered |= mask

    def best(self, mask: int) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
        """(wilds standing in, melds as index tuples) of the best cover of ``mask``, or None."""
        memo = self.memo
        if mask in memo:
            return memo[mask]
        low = (mask & -mask).bit_length() - 1
        res: tuple[int, tuple[tuple[int, ...], ...]] | None = None
        for m, s, key in self.by_low[low]:
            if m & mask == m:
                r = self.best(mask ^ m)
                if r is not None:
                    cand = (r[0] + s, (key, *r[1]))
                    if res is None or cand < res:
                        res = cand
        memo[mask] = res
        return res


def _check_hand(hand: Sequence[Card]) -> list[Card]:
    """The hand sorted in the cards' own order; RulesError if a physical card is there twice."""
    cards = sorted(hand)
    if len(set(cards)) != len(cards):
        raise RulesError("the same physical card appears twice in the hand")
    return cards


def _plan(
    cards: list[Card],
    cover: tuple[tuple[int, ...], ...],
    discard: Card | None,
    wilds: frozenset[Face],
    plain: frozenset[Card],
    rules: Rules,
) -> GoOutPlan:
    """The :class:`GoOutPlan` of a cover (melds as index tuples into ``cards``) and a discard."""
    melds = []
    for key in cover:
        m = meld_of([cards[i] for i in key], wilds=wilds, plain=plain, rules=rules)
        assert m is not None
        melds.append(m)
    return GoOutPlan(tuple(melds), discard)


def best_go_out(
    hand: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    forbidden_discards: frozenset[Face] = frozenset(),
    must_meld: Card | None = None,
    rules: Rules = CACHETA_7,
) -> GoOutPlan | None:
    """The best way for this hand to go out, or None (seed 000 lines 52-56, 62).

    Args:
        hand: the cards after drawing (10 in play; any size works).
        wilds: wild faces (ignored when ``rules.has_wild`` is false).
        plain: physical wild cards that count only as themselves.
        forbidden_discards: faces that may not be the discard (the card taken from the discard
            pile and its twin, seed 000 line 54).
        must_meld: a card that must end up in a meld (the card taken from the discard pile).
        rules: variants.

    Returns:
        A :class:`GoOutPlan` chosen by the module's tie-break, or None.

    Raises:
        RulesError: a physical card twice in ``hand``, or ``must_meld`` not in ``hand``.

    >>> best_go_out(parse_hand("KH AH 2H 5C 5D 5S 9S 10S JS QS"), rules=PIFE) is None
    True
    >>> str(best_go_out(parse_hand("AH 2H 3H 5C 5D 5S 9S 10S JS QS"), rules=PIFE))
    'AH 2H 3H | 5C 5D 5S | 9S 10S JS QS'
    """
    return _best_go_out(
        tuple(hand), frozenset(wilds), frozenset(plain), frozenset(forbidden_discards), must_meld, rules
    )


@lru_cache(maxsize=MEMO_SIZE)
def _best_go_out(
    hand: Sequence[Card],
    wilds: frozenset[Face],
    plain: frozenset[Card],
    forbidden_discards: frozenset[Face],
    must_meld: Card | None,
    rules: Rules,
) -> GoOutPlan | None:
    """:func:`best_go_out` on hashable arguments, remembered (``__wrapped__``: not; an
    exception is never remembered)."""
    cards = _check_hand(hand)
    if must_meld is not None and must_meld not in cards:
        raise RulesError(f"must_meld {must_meld} is not in the hand")
    ws = effective_wilds(wilds, rules)
    solver = _Solver(cards, _cards_candidates(cards, ws, plain, rules))
    full = (1 << len(cards)) - 1
    loose = full & ~solver.covered  # cards in no meld at all
    if loose & (loose - 1):
        return None  # two or more cards fit no meld
    if not loose:
        r = solver.best(full)
        if r is not None:
            return _plan(cards, r[1], None, ws, plain, rules)
    best: tuple[int, int, tuple[tuple[int, ...], ...]] | None = None
    for i in range(len(cards) - 1, -1, -1):
        c = cards[i]
        if c.face in forbidden_discards or c == must_meld or (loose and not loose >> i & 1):
            continue
        r = solver.best(full ^ (1 << i))
        if r is not None and (best is None or (r[0], -i, r[1]) < best):
            best = (r[0], -i, r[1])
    if best is None:
        return None
    return _plan(cards, best[2], cards[-best[1]], ws, plain, rules)


def go_out_with_discard(
    hand: Sequence[Card],
    discard: Card,
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    forbidden_discards: frozenset[Face] = frozenset(),
    must_meld: Card | None = None,
    rules: Rules = CACHETA_7,
) -> GoOutPlan | None:
    """The plan going out by discarding exactly ``discard`` (dragging the leftover), or None.

    None also when ``discard``'s face is forbidden or it is ``must_meld`` (seed 000 line 54).

    Raises:
        RulesError: ``discard`` or ``must_meld`` not in ``hand``.

    >>> h = parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S")
    >>> str(go_out_with_discard(h, Card.parse("9S"), rules=PIFE))
    'AH 2H 3H | QS KS AS | 7C 7D 7H / 9S'
    >>> go_out_with_discard(h, Card.parse("7C"), rules=PIFE) is None
    True
    """
    cards = _check_hand(hand)
    if discard not in cards:
        raise RulesError(f"discard {discard} is not in the hand")
    if must_meld is not None and must_meld not in cards:
        raise RulesError(f"must_meld {must_meld} is not in the hand")
    if discard.face in forbidden_discards or discard == must_meld:
        return None
    rest = [c for c in cards if c != discard]
    ws = effective_wilds(wilds, rules)
    solver = _Solver(rest, _cards_candidates(rest, ws, plain, rules))
    r = solver.best((1 << len(rest)) - 1)
    if r is None:
        return None
    return _plan(rest, r[1], discard, ws, plain, rules)


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
    wild_bits = [1 << i for i in range(n) if usable[i]]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, dict[int, list[int]]] = {}
    for i in range(n):
        by_rank.setdefault(ranks[i], []).append(i)
        by_suit.setdefault(suits[i], {}).setdefault(ranks[i], []).append(1 << i)
    # every coverable part of the 9 (unions of disjoint melds), and for each part with one
    # card more, the bits of the cards that may be that extra card (the discard)
    coverable = {0}
    for m in _generate(by_rank, by_suit, suits, wild_bits, rules, 0):
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
            cands = _candidates([*ranks, fr], [*suits, fs], [*usable, True], rules)
        elif _near(f, ranks, suits):
            rmap = {r: list(bs) for r, bs in by_suit.get(fs, {}).items()}
            rmap.setdefault(fr, []).append(bit)
            cands = _generate(
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
