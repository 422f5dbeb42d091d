"""The fast solver against the brute-force reference (pifecacheta/rules/brute.py).

Hypothesis draws hands clustered on a few ranks and suits (so that many can go out or are one
away), Pife and Cacheta, wilds in hand, plain wilds, forbidden discards, must_meld and the
variants. Fixed profile (derandomised, no deadline) sized to finish in well under 2 minutes.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pifecacheta.rules.brute import brute_best_go_out, brute_completing_faces, wilds_standing_in
from pifecacheta.rules.candidates import candidates_of_cards
from pifecacheta.rules.cards import Card, Face, full_deck
from pifecacheta.rules.config import CACHETA_7, PIFE, Rules
from pifecacheta.rules.melds import meld_of, wild_faces
from pifecacheta.rules.one_away import completing_faces
from pifecacheta.rules.solver import GoOutPlan, best_go_out

DECK = full_deck()
RULES = [
    PIFE,
    CACHETA_7,
    Rules(wild_same_colour=True),
    Rules(set_may_repeat_suit=True),
    Rules(no_wild_in_sets=True),
    Rules(set_may_repeat_suit=True, no_wild_in_sets=True, wild_same_colour=True),
]
PROFILE = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)


@dataclass(frozen=True)
class Position:
    hand: tuple[Card, ...]
    wilds: frozenset[Face]
    plain: frozenset[Card]
    rules: Rules

    def __repr__(self) -> str:  # readable falsifying examples
        return (
            f"Position({' '.join(map(str, self.hand))!r}, wilds={sorted(map(str, self.wilds))}, "
            f"plain={sorted(map(str, self.plain))}, rules={self.rules})"
        )


@st.composite
def positions(draw: st.DrawFn, size: int = 10) -> Position:
    rules = draw(st.sampled_from(RULES))
    vira = draw(st.sampled_from(DECK))
    wilds = wild_faces(vira, rules)
    lo = draw(st.integers(1, 13))
    width = draw(st.integers(3, 6))
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    near = [c for c in DECK if c.suit.index in suits and (c.rank - lo) % 13 < width]
    wild_cards = [c for c in DECK if c.face in wilds]
    n_wild = draw(st.integers(0, min(2, len(wild_cards)))) if wild_cards else 0
    chosen = list(draw(st.permutations(wild_cards)))[:n_wild]
    pool = [c for c in near if c not in chosen]
    rest = [c for c in DECK if c not in chosen and c not in pool]
    k = min(size - n_wild, len(pool))
    chosen += list(draw(st.permutations(pool)))[:k]
    chosen += list(draw(st.permutations(rest)))[: size - len(chosen)]
    plain = frozenset(c for c in chosen if c.face in wilds and draw(st.booleans()))
    return Position(tuple(chosen), wilds, plain, rules)


def assert_valid_plan(plan: GoOutPlan, pos: Position, forbidden: frozenset[Face], must: Card | None) -> None:
    melded = [c for m in plan.melds for c in m.cards]
    assert sorted(map(str, melded + ([plan.discard] if plan.discard else []))) == sorted(map(str, pos.hand))
    for m in plan.melds:
        assert wilds_standing_in(m.cards, wilds=pos.wilds, plain=pos.plain, rules=pos.rules) is not None
        assert (m.wild is None) == (
            wilds_standing_in(m.cards, wilds=pos.wilds, plain=pos.plain, rules=pos.rules) == 0
        )
    if plan.discard is not None:
        assert plan.discard.face not in forbidden and plan.discard != must


@settings(max_examples=400, **PROFILE)
@given(positions(), st.data())
def test_best_go_out_matches_brute(pos: Position, data: st.DataObject) -> None:
    forbidden: frozenset[Face] = frozenset()
    must = None
    if data.draw(st.booleans()):
        must = data.draw(st.sampled_from(pos.hand))
        forbidden = frozenset({must.face})
    kw = dict(wilds=pos.wilds, plain=pos.plain, forbidden_discards=forbidden, must_meld=must, rules=pos.rules)
    fast = best_go_out(pos.hand, **kw)  # type: ignore[arg-type]
    slow = brute_best_go_out(pos.hand, **kw)  # type: ignore[arg-type]
    assert (fast is None) == (slow is None)
    if fast is not None and slow is not None:
        assert fast.with_ten == slow.with_ten
        assert_valid_plan(fast, pos, forbidden, must)
        assert_valid_plan(slow, pos, forbidden, must)
        assert fast == slow  # same documented tie-break


@settings(max_examples=25, **PROFILE)
@given(positions(size=9), st.booleans())
def test_completing_faces_matches_brute(pos: Position, from_discard: bool) -> None:
    kw = dict(wilds=pos.wilds, plain=pos.plain, from_discard=from_discard, rules=pos.rules)
    assert completing_faces(pos.hand, **kw) == brute_completing_faces(pos.hand, **kw)  # type: ignore[arg-type]


@settings(max_examples=150, **PROFILE)
@given(positions(size=9))
def test_meld_generation_matches_the_definition(pos: Position) -> None:
    """Every group of the hand: structural candidates == meld_of == brute definition."""
    ws = pos.wilds if pos.rules.has_wild else frozenset()
    cands = candidates_of_cards(pos.hand, ws, pos.plain, pos.rules)
    n = len(pos.hand)
    for mask in range(1, 1 << n):
        if mask.bit_count() < 3:
            continue
        group = [pos.hand[i] for i in range(n) if mask >> i & 1]
        ref = wilds_standing_in(group, wilds=pos.wilds, plain=pos.plain, rules=pos.rules)
        got = meld_of(group, wilds=pos.wilds, plain=pos.plain, rules=pos.rules)
        assert cands.get(mask) == ref, [str(c) for c in group]
        assert (got is None) == (ref is None), [str(c) for c in group]
        if got is not None:
            assert (got.wild is None) == (ref == 0)
            assert sorted(map(str, got.cards)) == sorted(map(str, group))
