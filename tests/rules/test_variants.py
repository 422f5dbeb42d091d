"""House variants (config.Rules) seen through the turn flow."""

from __future__ import annotations

import random
from dataclasses import replace

from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    Card,
    Discard,
    Draw,
    GoOut,
    IllegalActionError,
    Match,
    Mode,
    Phase,
    Round,
    Rules,
    TakeDiscard,
    apply,
    legal_actions,
    parse_hand,
    player_view,
    spectator_view,
)

C = Card.parse
FAR = "AC 3D 5H 7S 9C JD KS 2S 4C"
FAR2 = "AC' 3D' 5H' 7S' 9C' JD' KS' 2S' 4C'"
ONE_AWAY = "AH 2H 3H 5C 5D 5S 9S 10S 2D"  # goes out with 8S or JS


def make(rules: Rules, hands: list[str], *, stock: str = "KD QD JD", pile: str = "", vira: str = "JH",
         phase: Phase = Phase.DRAW, seed: int = 0) -> Match:  # fmt: skip
    pile_cards = parse_hand(pile)
    r = Round(
        hands=tuple(parse_hand(h) for h in hands),
        stock=parse_hand(stock),
        discard_pile=pile_cards,
        discarded_by=(0,) * len(pile_cards),
        vira=C(vira) if rules.has_wild else None,
        turn=1,
        phase=phase,
        picked_up=((),) * len(hands),
    )
    lives = (rules.lives if rules.has_wild else 0,) * len(hands)
    return Match(rules=rules, seats=len(hands), seed=seed, round_number=1, dealer=0, lives=lives, round=r)


def code_of(m: Match, seat: int, action: object) -> str:
    try:
        apply(m, seat, action)  # type: ignore[arg-type]
    except IllegalActionError as e:
        return e.code
    raise AssertionError("accepted")


# --- discard_only_to_go_out (seed 000 line 38) ----------------------------------------------

ONLY = Rules(mode=Mode.PIFE, discard_only_to_go_out=True)


def test_take_discard_refused_unless_it_lets_the_seat_go_out() -> None:
    m = make(ONLY, [FAR, ONE_AWAY], pile="KC")
    assert code_of(m, 1, TakeDiscard()) == "discard_only_to_go_out"
    assert legal_actions(m, 1) == (Draw(),)
    # same position without the variant: taking is fine
    assert apply(replace(m, rules=PIFE), 1, TakeDiscard()).round is not None


def test_after_taking_only_go_out_is_legal() -> None:
    m = make(ONLY, [FAR, ONE_AWAY], pile="JS")
    assert TakeDiscard() in legal_actions(m, 1)
    m = apply(m, 1, TakeDiscard())
    legal = legal_actions(m, 1)
    assert legal and all(isinstance(a, GoOut) for a in legal)
    assert GoOut(C("2D")) in legal
    assert code_of(m, 1, Discard(C("2D"))) == "discard_only_to_go_out"
    done = apply(m, 1, GoOut())
    assert done.round is not None and done.round.result is not None
    assert done.round.result.plan.discard == C("2D")


def test_only_to_go_out_counts_a_wild_from_the_pile_as_itself() -> None:
    rules = replace(CACHETA_7, discard_only_to_go_out=True)
    # vira 6H: 7H' is wild, but from the pile it is only 7H: no go-out, so no taking
    m = make(rules, [FAR, ONE_AWAY, FAR2], pile="7H'", vira="6H")
    assert code_of(m, 1, TakeDiscard()) == "discard_only_to_go_out"
    m = make(rules, [FAR, "7C 7D AH 2H 3H 5C 5D 5S 2D", FAR2], pile="7H'", vira="6H")
    assert TakeDiscard() in legal_actions(m, 1)


def test_the_view_says_whether_the_pile_may_be_taken_as_legal_actions_do() -> None:
    """``PlayerView.can_take`` (PEGAR DO LIXO enabled) agrees with ``legal_actions``: under the
    variant only when the top card lets the seat go out; otherwise whenever the pile has a card;
    never for another seat, a spectator or the discard phase."""
    for rules, pile, expected in (
        (ONLY, "KC", False),
        (ONLY, "JS", True),
        (PIFE, "KC", True),
        (PIFE, "", False),
    ):
        m = make(rules, [FAR, ONE_AWAY], pile=pile)
        assert player_view(m, 1).can_take is expected
        assert (TakeDiscard() in legal_actions(m, 1)) is expected
        assert not player_view(m, 0).can_take and not spectator_view(m).can_take
    taken = apply(make(ONLY, [FAR, ONE_AWAY], pile="JS"), 1, TakeDiscard())
    assert not player_view(taken, 1).can_take  # the discard phase


# --- rebuild_without_shuffle (seed 000 line 33) ----------------------------------------------


def test_rebuild_without_shuffle_turns_the_pile_over() -> None:
    rules = Rules(mode=Mode.PIFE, rebuild_without_shuffle=True)
    m = make(rules, [FAR, ONE_AWAY], stock="", pile="4C 5C 6C 7C 8C", seed=random.randrange(10**6))
    m = apply(m, 1, Draw())
    assert m.round is not None
    # the first card discarded is the first drawn; the top card stays on the pile
    assert m.round.hands[1][-1] == C("4C")
    assert m.round.stock == parse_hand("7C 6C 5C")
    assert m.round.discard_pile == (C("8C"),) and m.round.rebuilds == 1


def test_rebuild_with_shuffle_depends_on_the_seed() -> None:
    pile = " ".join(f"{r}{s}" for s in "CD" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10"))
    stocks = set()
    for seed in range(5):
        m = apply(make(PIFE, [FAR, ONE_AWAY], stock="", pile=pile, seed=seed), 1, Draw())
        assert m.round is not None and len(m.round.stock) == 16
        stocks.add(m.round.stock)
    assert len(stocks) > 1


# --- the solver's variants, seen at the go-out -------------------------------------------------


def test_set_may_repeat_suit() -> None:
    """The variant's set of four with a repeated suit goes out; without it, it does not."""
    hand = "7C 7C' 7D 7H AH 2H 3H 4H 5H KC"
    m = make(PIFE, [FAR2, hand], phase=Phase.DISCARD)
    assert code_of(m, 1, GoOut()) == "cannot_go_out"
    m2 = replace(m, rules=Rules(mode=Mode.PIFE, set_may_repeat_suit=True))
    done = apply(m2, 1, GoOut(C("KC")))
    assert done.round is not None and done.round.result is not None


def test_set_may_repeat_suit_needs_three_suits() -> None:
    """A three-card set with a repeated suit (7C 7C 7D) is no set even with the variant
    (seed 000 line 35, seed 003 line 19)."""
    hand = "7C 7C' 7D AH 2H 3H 5C 5D 5S KC"
    m = make(Rules(mode=Mode.PIFE, set_may_repeat_suit=True), [FAR2, hand], phase=Phase.DISCARD)
    assert code_of(m, 1, GoOut()) == "cannot_go_out"


def test_wild_same_colour() -> None:
    # vira 6H: 7H wild; with the variant 7D (same colour) is wild too and stands in for JS
    hand = "AH 2H 3H 5C 5D 5S 9S 10S 7D KC"
    m = make(CACHETA_7, [FAR, hand, FAR2], phase=Phase.DISCARD, vira="6H")
    assert code_of(m, 1, GoOut()) == "cannot_go_out"
    m2 = replace(m, rules=replace(CACHETA_7, wild_same_colour=True))
    done = apply(m2, 1, GoOut())
    assert done.round is not None and done.round.result is not None
    assert any(meld.wild == C("7D") for meld in done.round.result.plan.melds)


def test_no_wild_in_sets() -> None:
    # vira 6H: 7H wild. 5C 5D + wild is a set; with the variant it is not
    hand = "AH 2H 3H 5C 5D 9S 10S JS 7H KC"
    m = make(CACHETA_7, [FAR, hand, FAR2], phase=Phase.DISCARD, vira="6H")
    assert apply(m, 1, GoOut(C("KC"))).round is not None
    m2 = replace(m, rules=replace(CACHETA_7, no_wild_in_sets=True))
    assert code_of(m2, 1, GoOut(C("KC"))) == "cannot_go_out"
