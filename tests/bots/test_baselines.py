"""The Gin Rummy "Simple" baseline: takes the discard only to complete or extend a meld,
discards the loosest card (fewest near-melds) among those keeping the most cards in melds."""

from __future__ import annotations

import random
from dataclasses import replace

from pifecacheta.bots.baselines import simple
from pifecacheta.rules import PIFE, Discard, Draw, TakeDiscard, new_match, player_view
from pifecacheta.rules.cards import parse_hand
from pifecacheta.rules.match import Phase


def _view(hand: str, pile: str, phase: Phase):  # type: ignore[no-untyped-def]
    m = new_match(PIFE, 2, seed=1)
    v = player_view(m, m.round.turn)  # type: ignore[union-attr]
    cards = parse_hand(pile)
    return replace(v, hand=parse_hand(hand), phase=phase, discard_pile=cards, discarded_by=(0,) * len(cards))


def test_takes_only_to_complete_or_extend_a_meld() -> None:
    hand = "5H 6H 9C 9D KS 2C 4D JS QD"
    assert simple(_view(hand, "7H", Phase.DRAW), random.Random(0)) == TakeDiscard()
    assert simple(_view(hand, "9S", Phase.DRAW), random.Random(0)) == TakeDiscard()
    assert simple(_view(hand, "3S", Phase.DRAW), random.Random(0)) == Draw()


def test_discards_a_loose_card_not_a_pair() -> None:
    # 5H 6H 7H and 9C 9D 9S melded; KS KD a pair; QC, 2C, 4D loose: one of those goes
    hand = "5H 6H 7H 9C 9D 9S KS KD 2C 4S"
    for seed in range(10):
        a = simple(_view(hand, "3C", Phase.DISCARD), random.Random(seed))
        assert isinstance(a, Discard) and str(a.card) in ("2C", "4S")
