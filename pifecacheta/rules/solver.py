"""Going out (bater): the best split of a hand into melds, with or without a discard.

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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .candidates import candidates_of_cards
from .cards import Card, Face, parse_hand  # noqa: F401 (doctests)
from .config import CACHETA_7, PIFE, Rules  # noqa: F401 (doctests)
from .errors import RulesError
from .melds import Meld, effective_wilds, meld_of

__all__ = ["GoOutPlan", "best_go_out", "go_out_with_discard"]

#: Answers :func:`best_go_out` and :func:`~.one_away.completing_faces` (so
#: :func:`~.one_away.is_one_away`) each keep, least recently used dropped: each is a pure
#: function of its arguments, and the same hand is asked again at every view of the table
#: until it changes.
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
    solver = _Solver(cards, candidates_of_cards(cards, ws, plain, rules))
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
    solver = _Solver(rest, candidates_of_cards(rest, ws, plain, rules))
    r = solver.best((1 << len(rest)) - 1)
    if r is None:
        return None
    return _plan(rest, r[1], discard, ws, plain, rules)
