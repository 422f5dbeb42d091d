"""Tactical positions in notation: what each bot must (not) do."""

from __future__ import annotations

import random

import pytest

from pifecacheta.bots import BOTS, bot_action
from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    AnnounceOneAway,
    Card,
    Discard,
    Draw,
    GoOut,
    Phase,
    Rules,
    TakeDiscard,
    apply,
    player_view,
)

from .positions import position

NAMES = sorted(BOTS)
OTHER = "2C 4D 6S 8H 10C QD KS 3H 5C"  # a dull hand for the seats not under test


@pytest.fixture(autouse=True)
def _luna_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Luna's tactics with a real search (24 samples, still fast), not the tests' minimum."""
    monkeypatch.setenv("PIFECACHETA_LUNA_SAMPLES", "24")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("rules", [PIFE, CACHETA_7], ids=["pife", "cacheta"])
def test_takes_the_discard_that_completes_a_run(name: str, rules: Rules) -> None:
    vira = "4C" if rules.has_wild else None
    m = position(rules, ["5H 6H 9C 9D 9S KS KD 2C 3D", OTHER], turn=0, pile="7H", vira=vira)
    assert bot_action(name, player_view(m, 0), random.Random(1)) == TakeDiscard()


@pytest.mark.parametrize("name", NAMES)
def test_does_not_take_a_useless_discard(name: str) -> None:
    m = position(PIFE, ["5H 6H 9C 9D 9S KS KD 2C 3D", OTHER], turn=0, pile="JC")
    assert bot_action(name, player_view(m, 0), random.Random(1)) == Draw()


@pytest.mark.parametrize("name", NAMES)
def test_takes_the_discard_to_go_out_pife(name: str) -> None:
    m = position(PIFE, ["5H 6H 9C 9D 9S JS QS KS 2C", OTHER], turn=0, pile="7H")
    v = player_view(m, 0)
    assert bot_action(name, v, random.Random(1)) == TakeDiscard()
    m = apply(m, 0, TakeDiscard())
    a = bot_action(name, player_view(m, 0), random.Random(1))
    assert a == GoOut()
    m = apply(m, 0, a)
    assert m.round is not None and m.round.result is not None and m.round.result.winner == 0


@pytest.mark.parametrize("name", NAMES)
def test_announces_when_one_away_off_turn_and_on_turn(name: str) -> None:
    hands = ["AH 2H 3H QS KS AS 7C 7D 9S", OTHER, "2D 4C 6D 8S 10D QC KH 3S 5D"]
    m = position(CACHETA_7, hands, turn=1, vira="4S")
    v = player_view(m, 0)
    assert v.can_announce
    assert bot_action(name, v, random.Random(1)) == AnnounceOneAway()
    m = position(CACHETA_7, hands, turn=0, vira="4S")
    assert bot_action(name, player_view(m, 0), random.Random(1)) == AnnounceOneAway()
    m = apply(m, 0, AnnounceOneAway())
    assert bot_action(name, player_view(m, 0), random.Random(1)) == Draw()
    assert bot_action(name, player_view(m, 1), random.Random(1)) is None  # nothing to do


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("hand", "with_ten"),
    [("8H 9H 2C 2D 2S 5S 6S 7S 8S", True), ("8H 9H 2C 2D 2S 5S 6S 7S JD", False)],
)
def test_goes_out_when_possible_with_ten_first(name: str, hand: str, with_ten: bool) -> None:
    # Drawing 10H completes 8H 9H 10H: with 8S all ten cards are in melds (2 lives).
    m = position(CACHETA_7, [hand, OTHER], turn=0, vira="4D", stock_top="10H")
    m = apply(m, 0, Draw())
    a = bot_action(name, player_view(m, 0), random.Random(1))
    assert a == GoOut()
    m = apply(m, 0, a)
    assert m.round is not None and m.round.result is not None and m.round.result.winner == 0
    assert m.round.result.plan.with_ten is with_ten
    assert m.round.result.lives_lost[1] == (2 if with_ten else 1)


@pytest.mark.parametrize("name", ["Carmen", "Luna"])
def test_does_not_feed_the_announced_next_player(name: str) -> None:
    # Seat 1 announced NA BOA and publicly picked up 8C and 8D: 8S (or 8H) lets it go out.
    # Seat 0 must throw KC, not 8S, although both are lone cards for it.
    hands = ["2C 3C 4C 5D 6D 7D 10H JH 8S KC", "8C 8D AH 2H 3H 4S 5S 6S JD", "2D 4H 6H 9C 10C QD KS 3S 5C"]
    m = position(
        CACHETA_7,
        hands,
        turn=0,
        phase=Phase.DISCARD,
        vira="9D",
        announced=frozenset({1}),
        picked_up=["", "8C 8D", ""],
    )
    a = bot_action(name, player_view(m, 0), random.Random(1))
    assert a == Discard(Card.parse("KC"))
    after = apply(m, 0, a)
    assert after.round is not None and after.round.phase is Phase.DRAW
    fed = apply(m, 0, Discard(Card.parse("8S")))  # the alternative would have lost a life
    assert fed.round is not None and fed.round.result is not None and fed.round.result.winner == 1


@pytest.mark.parametrize("name", NAMES)
def test_never_discards_the_taken_card_or_its_twin(name: str) -> None:
    m = position(PIFE, ["7H 7H 9C 9D KS KD 2C 3D 5S", OTHER], turn=0, pile="9S")
    v = player_view(m, 0)
    assert bot_action(name, v, random.Random(1)) == TakeDiscard()
    m = apply(m, 0, TakeDiscard())
    for seed in range(5):
        a = bot_action(name, player_view(m, 0), random.Random(seed))
        assert isinstance(a, Discard) and a.card.face != Card.parse("9S").face
        apply(m, 0, a)


def test_luna_defends_against_an_announced_player_who_is_not_next() -> None:
    # Cacheta: Luna weighs only announced players (they jump the queue, seed 000 line 64).
    # Seat 2 announced and publicly holds 8C 8D: Luna throws the lone KC, not the lone 8S.
    hands = ["2C 3C 4C 5D 6D 7D 10H JH 8S KC", "2D 4H 6H 9C 10C QD KS 3S 5C", "8C 8D AH 2H 3H 4S 5S 6S JD"]
    m = position(
        CACHETA_7,
        hands,
        turn=0,
        phase=Phase.DISCARD,
        vira="9D",
        announced=frozenset({2}),
        picked_up=["", "", "8C 8D"],
    )
    assert bot_action("Luna", player_view(m, 0), random.Random(1)) == Discard(Card.parse("KC"))
