"""The bots' fast HandIndex agrees with the engine's solver."""

from __future__ import annotations

import random

import pytest

from pifecacheta.bots.hand import HandIndex
from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    Card,
    Rules,
    best_go_out,
    completing_faces,
    full_deck,
    parse_hand,
    wild_faces,
)


def _meldy_hand(rng: random.Random, n: int) -> list[Card]:
    """A random hand biased towards melds: runs and sets from a random deck, then fill."""
    deck = list(full_deck())
    rng.shuffle(deck)
    out: list[Card] = []
    while len(out) < n:
        c = deck.pop()
        if c in out:
            continue
        out.append(c)
        kind = rng.random()
        for d in range(1, 3) if kind < 0.4 else ():
            nxt = Card(c.rank + d, c.suit, rng.randrange(2)) if c.rank + d <= 13 else None
            if nxt is not None and nxt not in out and len(out) < n:
                out.append(nxt)
    return out[:n]


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
def test_go_out_filter_never_hides_a_go_out(rules: Rules) -> None:
    rng = random.Random(7)
    agree = 0
    for _ in range(25):
        hand = _meldy_hand(rng, 10)
        wilds = wild_faces(hand[0], rules) if rules.has_wild else frozenset()
        idx = HandIndex(hand, wilds=wilds, rules=rules)
        engine = best_go_out(hand, wilds=wilds, rules=rules) is not None
        ours = idx.max_cover(idx.full) >= 9
        assert ours == engine, f"{' '.join(map(str, hand))} wilds {wilds}"
        agree += engine
    assert agree > 0  # the sample did contain go-outs


@pytest.mark.parametrize(
    ("hand", "vira", "rules"),
    [
        ("AH 2H 3H QS KS AS 7C 7D 9S", None, PIFE),
        ("5H 6H 7H 9C 9D 9S KS KD QS", None, PIFE),
        ("5H 6H 7H 9C 9D 9S 2S 4S JD", "6D", CACHETA_7),  # wild 7D
        ("5H 7D 9C 9D 9S 2S 3S 4S JD", "6D", CACHETA_7),
    ],
)
def test_outs_match_completing_faces(hand: str, vira: str | None, rules: Rules) -> None:
    cards = parse_hand(hand)
    wilds = wild_faces(Card.parse(vira), rules) if vira else frozenset()
    idx = HandIndex(cards, wilds=wilds, rules=rules)
    expected = completing_faces(cards, wilds=wilds, from_discard=False, rules=rules)
    held_twice = {c.face for c in cards if c.twin in cards}
    assert idx.outs(idx.full) - held_twice == expected


def test_wild_positions_skip_plain_wilds_and_pife() -> None:
    cards = parse_hand("7D 7D 5H 6H 9C")  # vira 6D: the 7D is wild
    wilds = wild_faces(Card.parse("6D"), CACHETA_7)
    idx = HandIndex(cards, wilds=wilds, plain=frozenset({cards[1]}), rules=CACHETA_7)
    assert idx.wild_positions == (0,) and idx.wild_mask == 0b1
    assert idx.free_wilds(idx.full) == 1 and idx.free_wilds(idx.full ^ 1) == 0
    pife = HandIndex(cards, wilds=wilds, rules=PIFE)  # Pife has no wild (seed 000 line 60)
    assert pife.wild_positions == () and pife.wild_mask == 0


@pytest.mark.parametrize(
    "hand",
    ["7C 7C' 7D 7H AH 2H 3H 4H 5H KC", "7C 7C' 7D AH 2H 3H 5C 5D 5S KC", "7C 7C' 7D 7D' AH 2H 3H 4H 5H KC"],
)
def test_repeated_suit_sets_agree_with_the_engine(hand: str) -> None:
    """With ``set_may_repeat_suit`` a set needs three different suits (seed 000 line 35,
    seed 003 line 19): the bots' index and the solver say the same of each hand."""
    rules = Rules(mode=PIFE.mode, set_may_repeat_suit=True)
    cards = parse_hand(hand)
    idx = HandIndex(cards, wilds=frozenset(), rules=rules)
    assert (idx.max_cover(idx.full) >= 9) == (best_go_out(cards, rules=rules) is not None)
