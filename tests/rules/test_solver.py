"""Going out, positions in notation (seed 000 lines 52-56, 62)."""

from __future__ import annotations

import pytest

from pifecacheta.rules.cards import Card, Face, parse_hand
from pifecacheta.rules.config import CACHETA_7, PIFE
from pifecacheta.rules.errors import RulesError
from pifecacheta.rules.one_away import completing_faces, is_one_away
from pifecacheta.rules.solver import best_go_out, go_out_with_discard

W5C = frozenset({Face.parse("5C")})  # vira 4C


def faces(text: str) -> frozenset[Face]:
    return frozenset(c.face for c in parse_hand(text))


def test_nine_in_melds_and_a_discard() -> None:
    plan = best_go_out(parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S"), rules=PIFE)
    assert plan is not None and not plan.with_ten
    assert plan.discard == Card.parse("9S")
    assert [str(m) for m in plan.melds] == ["AH 2H 3H", "QS KS AS", "7C 7D 7H"]


def test_around_the_ace_is_no_run() -> None:
    assert best_go_out(parse_hand("KH AH 2H 5C 5D 5S 9S 10S JS 3D"), rules=PIFE) is None


def test_ten_in_melds_preferred_over_a_discard() -> None:
    # 9S could be discarded (AH 2H 3H | 5C 5D 5S | 6S 7S 8S), but 6S..9S keeps all ten
    plan = best_go_out(parse_hand("AH 2H 3H 5C 5D 5S 6S 7S 8S 9S"), rules=PIFE)
    assert plan is not None and plan.with_ten and plan.discard is None
    assert str(plan) == "AH 2H 3H | 5C 5D 5S | 6S 7S 8S 9S"


def test_wild_fills_a_gap() -> None:
    plan = best_go_out(parse_hand("AH 2H 3H 7S 5C 9S 8D 8C 8H JD"), wilds=W5C)
    assert plan is not None and plan.discard == Card.parse("JD")
    assert "7S 5C 9S" in [str(m) for m in plan.melds]


def test_only_one_wild_standing_in_per_meld() -> None:
    # 7S _ _ 10S would need two wilds in one meld
    hand = parse_hand("AH 2H 3H 7S 5C 5C 10S 8D 8C 8H")
    assert best_go_out(hand, wilds=W5C) is None
    assert best_go_out(hand, wilds=W5C, rules=PIFE) is None


def test_fewest_wilds_standing_in() -> None:
    # 5C 6C 7C natural beats any reading with the 5C standing in
    plan = best_go_out(parse_hand("5C 6C 7C 9D 9H 9S JH QH KH 2S"), wilds=W5C)
    assert plan is not None and plan.discard == Card.parse("2S")
    assert all(m.wild is None for m in plan.melds)


def test_wild_taken_from_the_discard_counts_only_as_itself() -> None:
    hand = parse_hand("AH 2H 3H 7S 5C 9S 8D 8C 8H JD")
    assert best_go_out(hand, wilds=W5C, plain=frozenset(parse_hand("5C"))) is None


def test_taken_card_and_its_twin_cannot_be_the_discard() -> None:
    hand = parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S")
    assert best_go_out(hand, forbidden_discards=faces("9S"), rules=PIFE) is None
    assert best_go_out(hand, must_meld=Card.parse("9S"), rules=PIFE) is None
    assert go_out_with_discard(hand, Card.parse("9S"), forbidden_discards=faces("9S"), rules=PIFE) is None
    # the twin 7H' is the one taken: the 7H may still be melded, 9S discarded
    plan = best_go_out(hand, forbidden_discards=faces("7H"), must_meld=Card.parse("7H"), rules=PIFE)
    assert plan is not None and plan.discard == Card.parse("9S")


def test_discard_tie_break_is_the_highest_card() -> None:
    # either 9C can be left out; the tie-break discards the higher one (deck 1)
    hand = parse_hand("5H 6H 7H 9C 9C 9D 9S JS QS KS")
    plan = best_go_out(hand, rules=PIFE)
    assert plan is not None and plan.discard == Card.parse("9C'")
    assert go_out_with_discard(hand, Card.parse("9C"), rules=PIFE) is not None


def test_go_out_with_discard_checks_the_dragged_card() -> None:
    hand = parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S")
    assert go_out_with_discard(hand, Card.parse("9S"), rules=PIFE) is not None
    assert go_out_with_discard(hand, Card.parse("AH"), rules=PIFE) is None
    with pytest.raises(RulesError):
        go_out_with_discard(hand, Card.parse("8S"), rules=PIFE)


def test_completing_faces_from_the_discard_and_from_the_stock() -> None:
    h = parse_hand("AH 2H 3H QS KS AS 7C 7D 9S")
    assert completing_faces(h, from_discard=True, rules=PIFE) == faces("7H 7S")
    assert completing_faces(h, wilds=W5C, from_discard=False) == faces("7H 7S 5C")
    assert completing_faces(h, wilds=W5C, from_discard=True) == faces("7H 7S")


def test_completing_when_nine_are_melded() -> None:
    h = parse_hand("AH 2H 3H QS KS AS 7C 7D 7H")
    from_stock = completing_faces(h, from_discard=False, rules=PIFE)
    assert len(from_stock) == 52  # draw anything, discard it
    assert completing_faces(h, from_discard=True, rules=PIFE) == faces("4H JS 7S")


def test_face_held_twice_cannot_be_added() -> None:
    h = parse_hand("AH 2H 3H QS KS AS 7C 7C 7D")
    assert Face.parse("7C") not in completing_faces(h, from_discard=False, rules=PIFE)


def test_is_one_away() -> None:
    assert is_one_away(parse_hand("AH 2H 3H QS KS AS 7C 7D 9S"), rules=PIFE)
    assert not is_one_away(parse_hand("AH 2H 4H QS KS 9S 7C 7D 3S"), rules=PIFE)


def test_input_errors() -> None:
    with pytest.raises(RulesError):
        best_go_out(parse_hand("AH 2H 3H") + (Card.parse("AH"),))
    with pytest.raises(RulesError):
        best_go_out(parse_hand("AH 2H 3H"), must_meld=Card.parse("4H"))


def test_wilds_ignored_in_pife() -> None:
    hand = parse_hand("AH 2H 3H 7S 5C 9S 8D 8C 8H JD")
    assert best_go_out(hand, wilds=W5C, rules=PIFE) is None
    assert best_go_out(hand, wilds=W5C, rules=CACHETA_7) is not None
