"""``is_one_away`` stops at the first completing face: still the brute force's answer.

The solver's "one away" (NA BOA, seed 000 line 64) no longer collects every completing face;
it must still say True exactly when the brute-force reference finds a card drawn from the stock
that lets the 9 go out, over random hands (with wilds and plain cards) and the PIFE rules.
"""

from __future__ import annotations

from hypothesis import given, settings
from test_cross_check import PROFILE, Position, positions

from pifecacheta.rules import one_away
from pifecacheta.rules.brute import brute_completing_faces
from pifecacheta.rules.cards import Card, parse_hand
from pifecacheta.rules.config import CACHETA_7, PIFE
from pifecacheta.rules.melds import wild_faces
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
