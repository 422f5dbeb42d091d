"""Bot decisions leave no reference cycles behind: every object they make is freed by its
reference count, so the server's cyclic collector has nothing of theirs to walk and free.

At 200 busy tables a self-calling closure in the run search of ``HandIndex`` left about ten
thousand objects in cycles per young collection, two such collections a second, each holding
the whole process for 15-80 ms (bench/README.md, eighteenth pass).
"""

from __future__ import annotations

import gc
import random

import pytest

from pifecacheta.bots import bot_action
from pifecacheta.bots.hand import HandIndex
from pifecacheta.rules import CACHETA_7, PIFE, Rules, apply, new_match, player_view, wild_faces

from .test_hand import _meldy_hand


def _unreachable_after(work) -> int:
    """The number of objects in cycles that ``work()`` left: found by a full collection run
    with the collector off during the work (so nothing was collected before)."""
    gc.collect()
    gc.disable()
    try:
        work()
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
def test_the_hand_index_leaves_no_cycles(rules: Rules) -> None:
    rng = random.Random(11)
    hands = [_meldy_hand(rng, 10) for _ in range(40)]

    def index_all() -> None:
        for hand in hands:
            wilds = wild_faces(hand[0], rules) if rules.has_wild else frozenset()
            idx = HandIndex(hand, wilds=wilds, rules=rules)
            assert idx.max_cover(idx.full) >= 0

    assert _unreachable_after(index_all) == 0


@pytest.mark.parametrize("name", ["Carmen", "Tito"])
@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
def test_a_bots_turns_leave_no_cycles(name: str, rules: Rules) -> None:
    """Whole turns of four bots (views, decisions, moves) over a few seeded rounds."""

    def play() -> None:
        for seed in range(4):
            m = new_match(rules, 4, seed=seed)
            rng = random.Random(seed)
            for _ in range(40):
                r = m.round
                if r is None or m.outcome is not None or r.turn is None:
                    break
                action = bot_action(name, player_view(m, r.turn), rng)
                if action is None:
                    break
                m = apply(m, r.turn, action)

    assert _unreachable_after(play) == 0
