"""Melds: sets (trincas) and runs (sequências), and which faces are wild.

Rules (seed 000, section "No Selminha.com"):

- line 52: a *set* is 3 or 4 cards of one rank, all suits different; a *run* is 3 or more
  consecutive cards of one suit; the ace comes before the 2 (A-2-3) or after the king
  (Q-K-A), never around (K-A-2 is not a run). A-2-...-K-A (both aces) is a run in principle.
- line 62: in Cacheta the wild (coringa) is the face after the vira, same suit (a king vira
  turns up the ace); it stands in for any card, **one per meld**, and also counts as itself.
  A wild taken from the discard pile counts only as itself (``plain``).
- line 60: Pife has no wild.
- Variants (see :class:`~pifecacheta.rules.config.Rules`): ``set_may_repeat_suit`` (sets of
  3..8 cards of one rank with at least three different suits, so a suit repeats only from the
  fourth card on), ``no_wild_in_sets`` (a wild may not stand in
  within a set), ``wild_same_colour`` (both suits of the vira's colour are wild).

A wild "standing in" fills any missing card of a set or run (a gap or an end); a meld may hold
a wild counting as itself *and* another wild standing in. At least 3 cards always.

>>> w = wild_faces(Card.parse("6H"), CACHETA_7)
>>> sorted(str(f) for f in w)
['7H']
>>> str(meld_of(parse_hand("5S 7H 7S"), wilds=w))
'5S 7H 7S'
>>> meld_of(parse_hand("5S 7H 7S"), wilds=w).wild
Card.parse('7H')
>>> meld_of(parse_hand("KH AH 2H")) is None
True
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import ACE, KING, SUITS, Card, Face, Suit, parse_hand  # noqa: F401 (doctests)
from .config import CACHETA_7, Rules

__all__ = ["MeldKind", "Meld", "wild_faces", "meld_of", "effective_wilds", "MAX_SET", "MAX_SET_REPEAT"]

#: Largest set: 4 (one per suit), or 8 with ``set_may_repeat_suit`` (two decks).
MAX_SET = 4
MAX_SET_REPEAT = 8


class MeldKind(enum.Enum):
    """Set (trinca: one rank) or run (sequência: one suit, consecutive). Seed 000 line 52."""

    SET = "set"
    RUN = "run"


@dataclass(frozen=True)
class Meld:
    """A valid meld, its cards in display order.

    Attributes:
        kind: set or run.
        cards: the physical cards in display order: runs ascending (ace first in A-2-3, last
            in Q-K-A), sets by suit (C, D, H, S); a wild standing in sits at the place of the
            card it replaces.
        wild: the card standing in for another one, or ``None`` when every card counts as
            itself (seed 000 line 62: at most one per meld).

    >>> str(Meld(MeldKind.RUN, parse_hand("QS KS AS")))
    'QS KS AS'
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    wild: Card | None = None

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)


_SAME_COLOUR: dict[Suit, Suit] = {
    Suit.CLUBS: Suit.SPADES,
    Suit.SPADES: Suit.CLUBS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
}


def wild_faces(vira: Card | Face | None, rules: Rules) -> frozenset[Face]:
    """The wild faces for this vira (seed 000 line 62).

    The face after the vira in its suit (king -> ace); with ``rules.wild_same_colour`` also the
    same rank in the other suit of the vira's colour (four physical wilds). Pife (no wild,
    seed 000 line 60) or no vira: the empty set.

    >>> sorted(str(f) for f in wild_faces(Card.parse("KS"), CACHETA_7))
    ['AS']
    >>> from .config import PIFE
    >>> wild_faces(Card.parse("KS"), PIFE)
    frozenset()
    """
    if vira is None or not rules.has_wild:
        return frozenset()
    face = vira.face if isinstance(vira, Card) else vira
    nxt = face.next
    if rules.wild_same_colour:
        return frozenset({nxt, Face(nxt.rank, _SAME_COLOUR[nxt.suit])})
    return frozenset({nxt})


def effective_wilds(wilds: frozenset[Face], rules: Rules) -> frozenset[Face]:
    """``wilds`` if the game has wilds, else the empty set (Pife ignores any wilds given)."""
    return wilds if rules.has_wild else frozenset()


def _set_ok(cards: Sequence[Card], total: int, rules: Rules) -> bool:
    """Do ``cards`` (naturals) make a set of ``total`` cards, the rest filled by a wild?"""
    if not cards:
        return False
    rank = cards[0].rank
    if any(c.rank != rank for c in cards):
        return False
    suits = {c.suit for c in cards}
    if rules.set_may_repeat_suit:
        # at least three different suits, a standing-in wild taking a missing one; a suit
        # repeats only from the fourth card on (seed 000 line 35: the set *grows* with a
        # suit already in it; seed 003 line 19: a repeated suit only when 4 cards are used)
        return 3 <= total <= MAX_SET_REPEAT and len(suits) + (total - len(cards)) >= 3
    return 3 <= total <= MAX_SET and len(suits) == len(cards)


def _set_layout(cards: Sequence[Card], wild: Card | None, rules: Rules) -> tuple[Card, ...]:
    """Sets by suit; a standing-in wild takes the place of the lowest suit still missing."""
    naturals = sorted(cards)  # one rank: by suit, then deck
    if wild is None:
        return tuple(naturals)
    per_suit = Counter(c.suit for c in naturals)
    cap = 2 if rules.set_may_repeat_suit else 1
    missing = next(
        (s for s in SUITS if per_suit[s] == 0), next((s for s in SUITS if per_suit[s] < cap), SUITS[-1])
    )
    pos = sum(1 for c in naturals if c.suit <= missing)
    return (*naturals[:pos], wild, *naturals[pos:])


def _run_layout(cards: Sequence[Card], wild: Card | None) -> tuple[Card, ...] | None:
    """Lay ``cards`` (naturals, one suit) out as a run, ``wild`` filling the one missing place.

    Returns the cards in display order or None. Positions are 1..14 (ace at 1 or 14); among
    several windows the highest is chosen, so a wild at an end goes to the high end.
    """
    if not cards:
        return None
    suit = cards[0].suit
    if any(c.suit != suit for c in cards):
        return None
    n = len(cards) + (wild is not None)
    if n < 3 or n > 14:
        return None
    have = Counter(c.rank for c in cards)
    for lo in range(15 - n, 0, -1):
        window = [p if p <= KING else ACE for p in range(lo, lo + n)]
        need = Counter(window)
        if any(have[r] > need[r] for r in have):
            continue
        if sum(need.values()) - len(cards) != (wild is not None):
            continue
        pool: dict[int, list[Card]] = {}
        for c in sorted(cards):  # deck 0 before deck 1 within a rank
            pool.setdefault(c.rank, []).append(c)
        out: list[Card] = []
        for r in window:
            if pool.get(r):
                out.append(pool[r].pop(0))
            else:
                assert wild is not None
                out.append(wild)
        return tuple(out)
    return None


def meld_of(
    cards: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    rules: Rules = CACHETA_7,
) -> Meld | None:
    """The meld these cards make, or None if they make none (seed 000 lines 52 and 62).

    Args:
        cards: 3 or more distinct physical cards, any order.
        wilds: the wild faces (from :func:`wild_faces`); ignored when ``rules.has_wild`` is false.
        plain: physical wild cards that count only as themselves (taken from the discard pile).
        rules: the variants ``set_may_repeat_suit`` and ``no_wild_in_sets`` apply.

    Returns:
        The :class:`Meld` in display order. When several readings fit, all-natural is
        preferred (``wild`` None); otherwise the first wild card in (rank, suit, deck) order
        that works stands in, set before run, and in a run it fills the high end if it is
        not a gap.

    >>> str(meld_of(parse_hand("9S 7S 8S")))
    '7S 8S 9S'
    >>> str(meld_of(parse_hand("KD AD QD")))
    'QD KD AD'
    >>> meld_of(parse_hand("7C 7D 7C")) is None   # suits must differ (seed 000 line 52)
    True
    >>> w = frozenset({Face.parse("2C")})
    >>> m = meld_of(parse_hand("9H 2C JH"), wilds=w)   # the wild fills the gap
    >>> str(m), m.kind.value, str(m.wild)
    ('9H 2C JH', 'run', '2C')
    >>> meld_of(parse_hand("9H 2C JH"), wilds=w, plain=frozenset(parse_hand("2C"))) is None
    True
    >>> meld_of(parse_hand("9H 2C 2C JS"), wilds=w) is None   # one wild per meld
    True
    """
    cs = list(cards)
    if len(cs) < 3 or len(set(cs)) != len(cs):
        return None
    if _set_ok(cs, len(cs), rules):
        return Meld(MeldKind.SET, _set_layout(cs, None, rules))
    layout = _run_layout(cs, None)
    if layout is not None:
        return Meld(MeldKind.RUN, layout)
    ws = effective_wilds(wilds, rules)
    if not ws:
        return None
    for w in sorted(c for c in cs if c.face in ws and c not in plain):
        others = [c for c in cs if c is not w and c != w]
        if not rules.no_wild_in_sets and _set_ok(others, len(cs), rules):
            return Meld(MeldKind.SET, _set_layout(others, w, rules), w)
        layout = _run_layout(others, w)
        if layout is not None:
            return Meld(MeldKind.RUN, layout, w)
    return None
