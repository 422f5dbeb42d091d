"""Melds by the rules of seed 000 lines 52 (sets, runs), 60 (Pife) and 62 (the wild)."""

from __future__ import annotations

import pytest

from pifecacheta.rules.cards import Card, Face, parse_hand
from pifecacheta.rules.config import CACHETA_7, PIFE, Rules
from pifecacheta.rules.melds import MeldKind, meld_of, wild_faces

W7H = frozenset({Face.parse("7H")})  # vira 6H


def m(text: str, *, wilds: frozenset[Face] = W7H, plain: str = "", rules: Rules = CACHETA_7) -> str | None:
    got = meld_of(parse_hand(text), wilds=wilds, plain=frozenset(parse_hand(plain)), rules=rules)
    return None if got is None else str(got)


@pytest.mark.parametrize(
    ("cards", "shown"),
    [
        ("5C 5D 5S", "5C 5D 5S"),
        ("5S 5C 5H 5D", "5C 5D 5H 5S"),
        ("9S 7S 8S", "7S 8S 9S"),
        ("3D AD 2D", "AD 2D 3D"),
        ("AD KD QD", "QD KD AD"),
        ("10C JC QC KC AC", "10C JC QC KC AC"),
    ],
)
def test_natural_melds_in_display_order(cards: str, shown: str) -> None:
    assert m(cards, wilds=frozenset()) == shown


@pytest.mark.parametrize(
    "cards",
    [
        "KH AH 2H",  # never around the ace
        "5C 5C 5D",  # suits must differ
        "5C 5D 5H 5S 5C",  # at most 4 in a set
        "5C 6C",  # 3 cards at least
        "5C 6C 8C",  # a gap without a wild
        "5C 6D 7C",  # one suit
    ],
)
def test_not_melds(cards: str) -> None:
    assert m(cards, wilds=frozenset()) is None


def test_wild_fills_a_gap_at_its_place() -> None:
    got = meld_of(parse_hand("5S 7H 7S"), wilds=W7H)
    assert got is not None and got.kind is MeldKind.RUN and got.wild == Card.parse("7H")
    assert str(got) == "5S 7H 7S"


def test_wild_at_an_end_goes_high_unless_the_ace_blocks() -> None:
    assert m("5S 6S 7H") == "5S 6S 7H"
    assert m("KS AS 7H") == "7H KS AS"
    assert m("AS 2S 7H") == "AS 2S 7H"


def test_wild_stands_in_a_set_for_a_missing_suit() -> None:
    got = meld_of(parse_hand("QS 7H QC"), wilds=W7H)
    assert got is not None and got.kind is MeldKind.SET and got.wild == Card.parse("7H")
    assert str(got) == "QC 7H QS"  # the wild in place of the diamond


def test_only_one_wild_stands_in_per_meld() -> None:
    assert m("5S 7H 7H 8S") is None  # 5 _ _ 8: two gaps
    assert m("QS 7H 7H") is None  # a set of one natural and two stand-ins


def test_wild_as_itself_and_another_standing_in() -> None:
    got = meld_of(parse_hand("6H 7H 7H 9H"), wilds=W7H)
    # the first wild in (rank, suit, deck) order stands in (meld_of's documented choice)
    assert got is not None and got.wild == Card.parse("7H")
    assert str(got) == "6H 7H' 7H 9H"


def test_two_naturals_and_a_wild_is_a_meld_but_not_one_natural() -> None:
    assert m("8C 8D 7H") is not None
    assert m("8C 7H 7H") is None


def test_plain_wild_counts_only_as_itself() -> None:
    assert m("5S 7H 7S", plain="7H") is None
    assert m("6H 7H 8H", plain="7H") == "6H 7H 8H"


def test_pife_has_no_wild() -> None:
    assert m("5S 7H 7S", rules=PIFE) is None
    assert wild_faces(Card.parse("6H"), PIFE) == frozenset()


def test_wild_faces_follow_the_vira() -> None:
    assert wild_faces(Card.parse("KD"), CACHETA_7) == {Face.parse("AD")}
    assert wild_faces(Face.parse("6C"), Rules(wild_same_colour=True)) == {Face.parse("7C"), Face.parse("7S")}
    assert wild_faces(None, CACHETA_7) == frozenset()


def test_variant_sets_may_repeat_suits() -> None:
    """Seed 000 line 35 (a set grows with a suit already in it) and seed 003 line 19 (a
    repeated suit only when 4 cards are used): three different suits, then repeats."""
    rules = Rules(set_may_repeat_suit=True)
    assert m("5C 5C 5D", wilds=frozenset(), rules=rules) is None  # a repeat in 3 cards
    assert m("5C 5C 5D 5D", wilds=frozenset(), rules=rules) is None  # only two suits
    assert m("5C 5C 5D 5H", wilds=frozenset(), rules=rules) == "5C 5C' 5D 5H"
    assert m("5C 5D 5H", wilds=frozenset(), rules=rules) == "5C 5D 5H"  # the plain set still is
    assert m("5C 5C 5D 5D 5H 5H 5S 5S", wilds=frozenset(), rules=rules) is not None
    assert m("5C 5C 5D 7H", rules=rules) == "5C 5C' 5D 7H"  # the wild takes the third suit
    assert m("5C 5C 7H", rules=rules) is None  # one suit and a wild: two suits at most
    assert m("5C 5C 5D 5D 5H 5H 5S 5S 7H", rules=rules) is None  # 9 > 8


def test_variant_no_wild_in_sets() -> None:
    rules = Rules(no_wild_in_sets=True)
    assert m("QS 7H QC", rules=rules) is None
    assert m("7C 7H 7S", rules=rules) == "7C 7H 7S"  # the wild as itself
    assert m("5S 7H 7S", rules=rules) == "5S 7H 7S"  # runs still take it


def test_both_aces_run() -> None:
    assert m("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", wilds=frozenset()) is not None
