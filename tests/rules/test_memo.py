"""The solver's remembered answers equal the answers computed afresh, over random hands.

``best_go_out`` and ``completing_faces`` (so ``is_one_away``) keep their answers per hand,
wilds, plain cards and rules; ``__wrapped__`` of the private memoised function computes without
the memory. Each position is asked twice (the second answer comes from the memory) and in a
shuffled order of the same cards.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cross_check import PROFILE, Position, positions

from pifecacheta.rules import one_away, solver
from pifecacheta.rules.one_away import completing_faces, is_one_away
from pifecacheta.rules.solver import best_go_out


def _shuffled(pos: Position, seed: int) -> list:
    cards = list(pos.hand)
    random.Random(seed).shuffle(cards)
    return cards


@settings(max_examples=60, **PROFILE)
@given(positions(size=9), st.booleans(), st.integers(0, 1000))
def test_completing_faces_remembered_equals_computed(pos: Position, from_discard: bool, seed: int) -> None:
    fresh = one_away._completing_faces.__wrapped__(pos.hand, pos.wilds, pos.plain, from_discard, pos.rules)
    for hand in (pos.hand, pos.hand, _shuffled(pos, seed)):
        got = completing_faces(
            hand, wilds=pos.wilds, plain=pos.plain, from_discard=from_discard, rules=pos.rules
        )
        assert got == fresh
    assert is_one_away(pos.hand, wilds=pos.wilds, plain=pos.plain, rules=pos.rules) == bool(
        one_away._completing_faces.__wrapped__(pos.hand, pos.wilds, pos.plain, False, pos.rules)
    )


@settings(max_examples=150, **PROFILE)
@given(positions(), st.data())
def test_best_go_out_remembered_equals_computed(pos: Position, data: st.DataObject) -> None:
    forbidden = frozenset(data.draw(st.sets(st.sampled_from([c.face for c in pos.hand]), max_size=2)))
    must = data.draw(st.sampled_from((None, *pos.hand)))
    fresh = solver._best_go_out.__wrapped__(pos.hand, pos.wilds, pos.plain, forbidden, must, pos.rules)
    for _ in range(2):
        got = best_go_out(
            pos.hand,
            wilds=pos.wilds,
            plain=pos.plain,
            forbidden_discards=forbidden,
            must_meld=must,
            rules=pos.rules,
        )
        assert got == fresh


def test_the_memory_is_bounded() -> None:
    assert one_away._completing_faces.cache_info().maxsize == solver.MEMO_SIZE
    assert solver._best_go_out.cache_info().maxsize == solver.MEMO_SIZE
