"""Cards, notation and the rules configuration (cards.py, config.py)."""

from __future__ import annotations

import pytest

from pifecacheta.rules import (
    ACE,
    ALL_FACES,
    CACHETA_7,
    CACHETA_10,
    KING,
    PIFE,
    SUITS,
    Card,
    Face,
    Mode,
    NotationError,
    Rules,
    RulesError,
    Suit,
    format_hand,
    full_deck,
    parse_hand,
    sort_by_rank,
    sort_by_suit,
)


def test_full_deck_is_104_distinct_cards_two_of_each_face() -> None:
    deck = full_deck()
    assert len(deck) == 104 and len(set(deck)) == 104
    faces = [c.face for c in deck]
    assert all(faces.count(f) == 2 for f in set(faces)) and len(set(faces)) == 52


def test_every_card_roundtrips_through_its_notation() -> None:
    for c in full_deck():
        assert Card.parse(str(c)) == c
        assert eval(repr(c), {"Card": Card}) == c


@pytest.mark.parametrize(
    ("text", "rank", "suit", "deck"),
    [
        ("7H", 7, Suit.HEARTS, 0),
        ("10h", 10, Suit.HEARTS, 0),
        ("TH", 10, Suit.HEARTS, 0),
        (" as' ", ACE, Suit.SPADES, 1),
        ("KC", KING, Suit.CLUBS, 0),
        ("qd'", 12, Suit.DIAMONDS, 1),
    ],
)
def test_parse(text: str, rank: int, suit: Suit, deck: int) -> None:
    assert Card.parse(text) == Card(rank, suit, deck)


@pytest.mark.parametrize("text", ["", "7", "H", "1H", "11H", "7X", "7H''", "0S", "AA"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


def test_bad_card_values() -> None:
    with pytest.raises(NotationError):
        Card(0, Suit.HEARTS)
    with pytest.raises(NotationError):
        Card(14, Suit.HEARTS)
    with pytest.raises(NotationError):
        Card(5, Suit.HEARTS, 2)
    with pytest.raises(NotationError):
        Card(5, "H")  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        Card.parse(7)  # type: ignore[arg-type]
    assert isinstance(NotationError("x"), ValueError) and issubclass(NotationError, RulesError)


def test_twin_face_and_code() -> None:
    c = Card.parse("9D'")
    assert c.twin == Card.parse("9D") and c.twin.twin == c
    assert c.face == Face(9, Suit.DIAMONDS) and c.code == "9D" and str(c) == "9D'"


def test_face_next_wraps_king_to_ace_and_parse() -> None:
    assert Face.parse("KS").next == Face(ACE, Suit.SPADES)
    assert Face.parse("6H").next == Face.parse("7H") and str(Face.parse("10c")) == "10C"
    with pytest.raises(NotationError):
        Face.parse("6H'")


def test_parse_hand_assigns_second_deck_to_repeats() -> None:
    assert parse_hand("7h 7H qs") == (Card.parse("7H"), Card.parse("7H'"), Card.parse("QS"))
    assert parse_hand("7H', 7H") == (Card.parse("7H'"), Card.parse("7H"))
    assert parse_hand(["AS", "AS"]) == (Card.parse("AS"), Card.parse("AS'"))
    assert parse_hand("") == ()
    with pytest.raises(NotationError):
        parse_hand("7H 7H 7H")
    assert format_hand(parse_hand("10H 7H'")) == "10H 7H'"


def test_display_sorts() -> None:
    hand = parse_hand("KS AH 7C 7C' 2D AS")
    assert format_hand(sort_by_suit(hand)) == "7C 7C' 2D AH AS KS"
    assert format_hand(sort_by_rank(hand)) == "AH AS 2D 7C 7C' KS"


def test_suits() -> None:
    assert [s.value for s in SUITS] == ["C", "D", "H", "S"]
    assert [s.index for s in SUITS] == [0, 1, 2, 3]
    assert [s.is_red for s in SUITS] == [False, True, True, False]


def test_card_ordering_documented_in_cards_py() -> None:
    assert sorted(parse_hand("7S 7C")) == list(parse_hand("7C 7S"))
    assert sorted(parse_hand("7S' 7S 2H AD")) == list(parse_hand("AD 2H 7S 7S'"))


def test_card_order_is_rank_then_suit_then_deck_and_sort_by_rank_uses_it() -> None:
    deck = list(full_deck())
    assert sorted(deck) == sorted(deck, key=lambda c: (c.rank, SUITS.index(c.suit), c.deck))
    assert sort_by_rank(reversed(deck)) == sorted(deck)
    seven, twin = Card(7, Suit.HEARTS), Card(7, Suit.HEARTS, 1)
    assert seven == Card.parse("7H") and hash(seven) == hash(Card.parse("7H")) and seven != twin
    assert len(set(deck)) == 104 and len({c.face for c in deck}) == 52


def test_all_faces_are_the_52_faces_by_suit_then_rank() -> None:
    assert len(ALL_FACES) == 52 and set(ALL_FACES) == {c.face for c in full_deck()}
    assert ALL_FACES[:3] == (Face(ACE, Suit.CLUBS), Face(2, Suit.CLUBS), Face(3, Suit.CLUBS))
    assert ALL_FACES[-1] == Face(KING, Suit.SPADES)


def test_rules_presets_and_validation() -> None:
    assert PIFE.mode is Mode.PIFE and not PIFE.has_wild
    assert CACHETA_7.has_wild and CACHETA_7.lives == 7 and CACHETA_10.lives == 10
    for lives in (0, 1, 6, 8, 11):
        with pytest.raises(RulesError):
            Rules(mode=Mode.CACHETA, lives=lives)
    assert Rules(mode=Mode.PIFE, lives=3).lives == 3  # lives are ignored in Pife
    defaults = Rules()
    assert defaults == CACHETA_7
    assert not any(
        (
            defaults.set_may_repeat_suit,
            defaults.wild_same_colour,
            defaults.discard_only_to_go_out,
            defaults.rebuild_without_shuffle,
            defaults.no_wild_in_sets,
        )
    )
    with pytest.raises(TypeError):
        Rules(Mode.PIFE)  # type: ignore[call-arg]  # keyword-only
