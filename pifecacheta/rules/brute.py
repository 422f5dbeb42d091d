"""Slow reference for the solver: the rules written the obvious way, for cross-checking.

Independent of :mod:`.solver`'s tricks: a group of cards is a meld when, for some
assignment of the usable wilds (each counts as itself, or at most one of them as any of the
52 faces), the faces make a set or run by the definition of seed 000 line 52. A plan is any
partition of the melded cards into such groups (all subsets, then every partition), and the
best plan uses the same tie-break as :mod:`.solver`. :func:`~.melds.meld_of` is used only to
lay the chosen groups out for display.

>>> plan = brute_best_go_out(parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S"), rules=PIFE)
>>> str(plan.discard)
'9S'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .cards import ALL_FACES, Card, Face, parse_hand  # noqa: F401 (doctests)
from .config import CACHETA_7, PIFE, Rules  # noqa: F401 (doctests)
from .errors import RulesError
from .melds import MAX_SET, MAX_SET_REPEAT, Meld, meld_of
from .solver import GoOutPlan

__all__ = ["brute_best_go_out", "brute_completing_faces", "is_natural_meld", "wilds_standing_in"]


def is_natural_meld(faces: Sequence[Face], *, rules: Rules = CACHETA_7, sets: bool = True) -> bool:
    """Do these faces, each counting as itself, make a set or a run? (seed 000 line 52)

    ``sets=False`` accepts only runs.

    >>> is_natural_meld([Face.parse(t) for t in "KH AH 2H".split()])
    False
    """
    n = len(faces)
    if n < 3:
        return False
    ranks = [f.rank for f in faces]
    suits = [f.suit for f in faces]
    if sets and len(set(ranks)) == 1:
        if rules.set_may_repeat_suit:
            # three different suits at least: a suit repeats only from the fourth card on
            # (seed 000 line 35, seed 003 line 19)
            if n <= MAX_SET_REPEAT and len(set(suits)) >= 3:
                return True
        elif n <= MAX_SET and len(set(suits)) == n:
            return True
    if len(set(suits)) != 1:
        return False
    low = sorted(ranks)
    if low == list(range(low[0], low[0] + n)):
        return True
    high = sorted(14 if r == 1 else r for r in ranks)
    if high == list(range(high[0], high[0] + n)):
        return True
    return low == [1, *range(1, 14)]  # A-2-...-K-A


def wilds_standing_in(
    cards: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    rules: Rules = CACHETA_7,
) -> int | None:
    """0 if the cards are a meld as themselves, 1 if one wild must stand in, None if no meld.

    Tries every assignment: each usable wild (face in ``wilds``, not in ``plain``, game with
    wilds) as itself, or one of them as each of the 52 faces (seed 000 line 62).
    """
    ws = wilds if rules.has_wild else frozenset()
    faces = [c.face for c in cards]
    return _standing_in(faces, [f in ws and c not in plain for f, c in zip(faces, cards, strict=True)], rules)


def _standing_in(faces: list[Face], usable: list[bool], rules: Rules) -> int | None:
    """:func:`wilds_standing_in` on faces, ``usable[i]`` telling whether card i may stand in."""
    if len(faces) < 3:
        return None
    if is_natural_meld(faces, rules=rules):
        return 0
    for i, u in enumerate(usable):
        if not u:
            continue
        others = faces[:i] + faces[i + 1 :]
        # a set's cards share a rank, a run's a suit: skip hopeless groups early
        if len({f.rank for f in others}) > 1 and len({f.suit for f in others}) > 1:
            continue
        for f in ALL_FACES:
            if is_natural_meld([*others, f], rules=rules, sets=not rules.no_wild_in_sets):
                return 1
    return None


def _partitions(mask: int, valid: dict[int, int]) -> Iterator[list[int]]:
    """Every partition of ``mask`` into valid groups (each group by the lowest card first)."""
    if mask == 0:
        yield []
        return
    low = mask & -mask
    for g in valid:
        if g & low and g & mask == g:
            for rest in _partitions(mask ^ g, valid):
                yield [g, *rest]


def _indices(mask: int, n: int) -> tuple[int, ...]:
    """The positions of the set bits of ``mask`` below ``n``, lowest first."""
    return tuple(i for i in range(n) if mask >> i & 1)


def _valid_groups(
    cards: list[Card],
    wilds: frozenset[Face],
    plain: frozenset[Card],
    rules: Rules,
    cache: dict[frozenset[Card], int | None],
) -> dict[int, int]:
    """Every group of 3 or more of ``cards`` that is a meld, as bitmask -> wilds standing in
    (0 or 1); ``cache`` holds the verdicts by card set across calls."""
    n = len(cards)
    faces = [c.face for c in cards]
    usable = [rules.has_wild and f in wilds and c not in plain for f, c in zip(faces, cards, strict=True)]
    out: dict[int, int] = {}
    for mask in range(1, 1 << n):
        if mask.bit_count() < 3:
            continue
        idx = [i for i in range(n) if mask >> i & 1]
        k = frozenset(cards[i] for i in idx)
        if k not in cache:
            cache[k] = _standing_in([faces[i] for i in idx], [usable[i] for i in idx], rules)
        s = cache[k]
        if s is not None:
            out[mask] = s
    return out


def _best(
    cards: list[Card],
    wilds: frozenset[Face],
    plain: frozenset[Card],
    forbidden_discards: frozenset[Face],
    must_meld: Card | None,
    rules: Rules,
    cache: dict[frozenset[Card], int | None],
    first_only: bool = False,
) -> GoOutPlan | None:
    """The best plan by the solver's tie-break, trying every partition (``first_only``: the
    first plan found per discard option)."""
    n = len(cards)
    valid = _valid_groups(cards, wilds, plain, rules, cache)
    full = (1 << n) - 1
    options: list[tuple[int | None, int]] = [(None, full)]
    options += [
        (i, full ^ (1 << i))
        for i in range(n)
        if cards[i].face not in forbidden_discards and cards[i] != must_meld
    ]
    best: tuple[tuple[int, int, tuple[tuple[int, ...], ...]], int | None, list[int]] | None = None
    for discard, mask in options:
        for part in _partitions(mask, valid):
            key = (
                sum(valid[g] for g in part),
                0 if discard is None else -discard,
                tuple(_indices(g, n) for g in part),
            )
            if best is None or key < best[0]:
                best = (key, discard, part)
            if first_only:
                break
        if best is not None and (discard is None or first_only):
            break  # ten in melds beats any discard
    if best is None:
        return None
    melds: list[Meld] = []
    for g in best[2]:
        m = meld_of([cards[i] for i in _indices(g, n)], wilds=wilds, plain=plain, rules=rules)
        if m is None:
            raise AssertionError(f"meld_of refuses a group the definition accepts: {g:b}")
        melds.append(m)
    return GoOutPlan(tuple(melds), None if best[1] is None else cards[best[1]])


def brute_best_go_out(
    hand: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    forbidden_discards: frozenset[Face] = frozenset(),
    must_meld: Card | None = None,
    rules: Rules = CACHETA_7,
) -> GoOutPlan | None:
    """Reference for :func:`~.solver.best_go_out` (same signature, semantics and tie-break)."""
    cards = sorted(hand)
    if len(set(cards)) != len(cards):
        raise RulesError("the same physical card appears twice in the hand")
    if must_meld is not None and must_meld not in cards:
        raise RulesError(f"must_meld {must_meld} is not in the hand")
    ws = wilds if rules.has_wild else frozenset()
    return _best(cards, ws, plain, forbidden_discards, must_meld, rules, {})


def brute_completing_faces(
    hand9: Sequence[Card],
    *,
    wilds: frozenset[Face] = frozenset(),
    plain: frozenset[Card] = frozenset(),
    from_discard: bool,
    rules: Rules = CACHETA_7,
) -> frozenset[Face]:
    """Reference for :func:`~.solver.completing_faces`: tries each of the 52 faces.

    The groups of the 9 are judged once; for each face, the groups holding the added card
    (bit 9) are judged, then every partition of the 10 (or of 9 of them) is tried.
    """
    ws = wilds if rules.has_wild else frozenset()
    cards9 = list(hand9)
    n = len(cards9)
    base = _valid_groups(cards9, ws, plain, rules, {})
    faces9 = [c.face for c in cards9]
    usable9 = [f in ws and c not in plain for f, c in zip(faces9, cards9, strict=True)]
    out = set()
    for f in ALL_FACES:
        held = [c for c in cards9 if c.face == f]
        if len(held) >= 2:
            continue
        c = Card(f.rank, f.suit, 1 if Card(f.rank, f.suit, 0) in held else 0)
        pl = plain | {c} if from_discard else plain
        valid = dict(base)
        bit = 1 << n
        for sub in range(1 << n):
            if sub.bit_count() < 2:
                continue
            idx = [i for i in range(n) if sub >> i & 1]
            s = _standing_in(
                [*(faces9[i] for i in idx), f], [*(usable9[i] for i in idx), f in ws and c not in pl], rules
            )
            if s is not None:
                valid[sub | bit] = s
        full = (1 << (n + 1)) - 1
        masks = [full] + [
            full ^ (1 << i) for i in range(n + 1) if not (from_discard and (i == n or cards9[i].face == f))
        ]
        if any(next(_partitions(m, valid), None) is not None for m in masks):
            out.add(f)
    return frozenset(out)
