"""``is_one_away`` stops at the first completing face: still the brute force's answer.

The solver's "one away" (NA BOA, seed 000 line 64) no longer collects every completing face;
it must still say True exactly when the brute-force reference finds a card drawn from the stock
that lets the 9 go out, over random hands (with wilds and plain cards) and the PIFE rules.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cross_check import DECK, PROFILE, RULES, Position, positions

from pifecacheta.rules import one_away
from pifecacheta.rules.brute import brute_completing_faces
from pifecacheta.rules.cards import Card, Face, parse_hand
from pifecacheta.rules.config import CACHETA_7, PIFE, Rules
from pifecacheta.rules.melds import effective_wilds, wild_faces
from pifecacheta.rules.one_away import is_one_away


@settings(max_examples=80, **PROFILE)
@given(positions(size=9))
def test_one_away_matches_brute(pos: Position) -> None:
    kw = {"wilds": pos.wilds, "plain": pos.plain, "rules": pos.rules}
    expected = bool(brute_completing_faces(pos.hand, from_discard=False, **kw))  # type: ignore[arg-type]
    assert one_away._one_away.__wrapped__(tuple(pos.hand), pos.wilds, pos.plain, pos.rules) is expected
    assert is_one_away(pos.hand, **kw) is expected  # type: ignore[arg-type]


def test_one_away_and_not() -> None:
    assert is_one_away(parse_hand("AH 2H 3H QS KS AS 7C 7D 9S"), rules=PIFE)
    assert not is_one_away(parse_hand("AH 3H 5H 7S 9S JS KC 2D 4D"), rules=PIFE)
    w = wild_faces(Card.parse("4C"), CACHETA_7)  # the 5C is wild: a drawn wild completes
    assert is_one_away(parse_hand("AH 2H 3H QS KS AS 7C 7D 9S"), wilds=w)


@st.composite
def spread_hands(draw: st.DrawFn) -> tuple[tuple[Card, ...], frozenset[Face], Rules]:
    """9 cards drawn from the whole deck (most hold two cards no meld can take), and a vira."""
    rules = draw(st.sampled_from(RULES))
    hand = tuple(draw(st.permutations(DECK))[:9])
    return hand, wild_faces(draw(st.sampled_from(DECK)), rules), rules


@settings(max_examples=120, **PROFILE)
@given(spread_hands(), st.booleans())
def test_two_lonely_cards_are_never_one_away(
    case: tuple[tuple[Card, ...], frozenset[Face], Rules], pile: bool
) -> None:
    """The early "no" (``one_away._lonely``: two cards that share a meld with no other card,
    no usable wild) agrees with the brute force, and the answers are the brute force's."""
    hand, wilds, rules = case
    kw = {"wilds": wilds, "plain": frozenset(), "rules": rules}
    expected = brute_completing_faces(hand, from_discard=pile, **kw)  # type: ignore[arg-type]
    usable = any(c.face in effective_wilds(wilds, rules) for c in hand)
    if not usable and one_away._lonely([c.rank for c in hand], [c.suit.index for c in hand]) >= 2:
        assert expected == frozenset()
    assert one_away._completing_faces.__wrapped__(hand, wilds, frozenset(), pile, rules) == expected
    if not pile:
        assert one_away._one_away.__wrapped__(hand, wilds, frozenset(), rules) is bool(expected)


def test_a_hand_of_lonely_cards() -> None:
    hand = parse_hand("AH 5H 9H KS 4S 8C QC 3D 7D")  # no two cards can share a meld
    assert one_away._lonely([c.rank for c in hand], [c.suit.index for c in hand]) == 9
    assert not is_one_away(hand, rules=PIFE) and not brute_completing_faces(
        hand, from_discard=False, rules=PIFE
    )
    near = parse_hand("AH 2H 9H KS 4S 8C QC 3D 7D")  # AH 2H: only the other seven are lonely
    assert one_away._lonely([c.rank for c in near], [c.suit.index for c in near]) == 7
