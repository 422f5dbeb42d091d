"""Luna's base policy (:func:`pifecacheta.bots.luna.base_action`): the two rules it takes
from the ``simple`` player, each in a position where the rule decides the throw."""

from __future__ import annotations

import random

from pifecacheta.bots import luna, luna_v1
from pifecacheta.bots.hand import HandIndex
from pifecacheta.rules import PIFE, Card, Discard, Phase, PlayerView, player_view

from .positions import position

OTHER = "2C 4D 6S 8H 10C QD KS 3H 5C"


def _discard(view: PlayerView, code: str) -> Discard:
    return Discard(next(c for c in view.hand if c.code == code))


def _cover_after(view: PlayerView, card: Card) -> int:
    idx = HandIndex.of(view.hand, wilds=view.wilds, plain=view.plain, rules=view.rules)
    return idx.max_cover(idx.full ^ (1 << idx.cards.index(card)))


def test_she_never_breaks_a_meld_to_keep_a_pair() -> None:
    # four queens and the run 4S-7S (8 in melds) and the pair 10C 10H: v1 throws a card of
    # the run to keep the pair; she throws a ten and keeps 8 cards in melds
    m = position(
        PIFE, ["QC 5S 10C QH 4S QD 6S QS 10H 7S", OTHER], turn=0, phase=Phase.DISCARD, pile="KH JD KS"
    )
    v = player_view(m, 0)
    v1 = luna_v1.choose_action(v, rng=random.Random(1))
    assert isinstance(v1, Discard) and _cover_after(v, v1.card) == 7
    tens = {_discard(v, "10C"), _discard(v, "10H")}
    assert luna.base_action(v, rng=random.Random(1)) in tens
    searched = luna.choose_action(v, rng=random.Random(1), limit=luna.Budget(samples=24, ms=0))
    assert searched in tens


def test_her_base_throws_the_loose_card_even_when_it_may_feed_a_seat() -> None:
    # the next seat picked up 8H, 10H and 9S: v1's danger term holds 9H back and breaks the
    # run; the base keeps the run and the pair JC QC and throws the loose 9H (the search may
    # still overrule it when its samples see the danger decide the round)
    m = position(
        PIFE,
        ["AS 2S 3S 4S 5D 5C 5H JC QC 9H", "7H 8H 10H 9S 6S 10C QD KS 3H"],
        turn=0,
        phase=Phase.DISCARD,
        pile="KD JH 4C 2H 7C 8C 9C 10D 3C 4D 6C 2C KC",
        pile_by=[1, 0] * 6 + [1],
        picked_up=["", "8H 10H 9S"],
    )
    v = player_view(m, 0)
    assert luna_v1.choose_action(v, rng=random.Random(1)) != _discard(v, "9H")
    assert luna.base_action(v, rng=random.Random(1)) == _discard(v, "9H")
