"""JOGOS: the hand as the melds the game sees (pifecacheta/state/hand_groups.py): the solver's
plan when the hand goes out, the most cards in melds otherwise, a wild counted where it stands
in, the loose cards last, and nothing but the viewer's own cards."""

from __future__ import annotations

import dataclasses
from collections import Counter
from types import SimpleNamespace

import pytest

from pifecacheta.rules import CACHETA_7, PIFE, new_match, player_view
from pifecacheta.rules.cards import Card, Face, parse_hand
from pifecacheta.rules.melds import meld_of
from pifecacheta.rules.solver import best_go_out
from pifecacheta.state.hand_groups import arrange, hand_groups
from pifecacheta.state.hand_order import HandOrderState


def _view(hand: str, rules=PIFE, *, wilds: str = "", plain: str = ""):
    """Seat 0's view of a real 2-seat round with ``hand`` in place of its dealt cards."""
    view = player_view(new_match(rules, 2, seed=3), 0)
    return dataclasses.replace(
        view,
        hand=parse_hand(hand),
        wilds=frozenset(Face.parse(w) for w in wilds.split()),
        plain=frozenset(parse_hand(plain)) if plain else frozenset(),
    )


def test_a_hand_that_goes_out_shows_the_solvers_own_plan():
    hand = parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S")
    plan = best_go_out(hand, rules=PIFE)
    melds, loose = arrange(hand, rules=PIFE)
    assert melds == plan.melds and loose == (plan.discard,)


def test_a_hand_short_of_going_out_shows_as_many_cards_in_melds_as_it_can():
    # 5H 6H 7H 8H could be a run of four, or 7H could go to the sevens: six cards either way
    # would be fewer than 5H 6H 7H 8H + 7C 7D 7S (seven)
    melds, loose = arrange(parse_hand("5H 6H 7H 8H 7C 7D 7S KS 2C 9D"), rules=PIFE)
    assert sum(len(m) for m in melds) == 7
    assert sorted(str(c) for c in loose) == ["2C", "9D", "KS"]
    for m in melds:
        assert meld_of(m.cards, rules=PIFE) is not None


def test_groups_are_named_by_the_page_from_kind_rank_suit_and_ends():
    groups = hand_groups(_view("QS KS AS 9C 9D 9H 4H 2C 6D 10S"))
    kinds = [(g.kind, g.rank, g.suit, g.low, g.high) for g in groups]
    assert ("set", "9", "", "", "") in kinds
    assert ("run", "", "S", "Q", "A") in kinds  # the ace after the king
    assert kinds[-1][0] == "loose"
    # one after the other: each group starts where the one before ended
    assert [g.start for g in groups] == [0, 3, 6]
    assert [len(g.cards) for g in groups] == [3, 3, 4]


def test_a_wild_in_a_run_counts_as_the_card_it_stands_in_for():
    # the wild 2C stands in for 5H between 4H and 6H (Cacheta, seed 000 line 62)
    groups = hand_groups(_view("4H 2C 6H KS KD KH 9C 3D 8S JD", CACHETA_7, wilds="2C"))
    run = next(g for g in groups if g.kind == "run")
    assert (run.suit, run.low, run.high) == ("H", "4", "6")
    assert [c.id for c in run.cards] == ["4H", "2C", "6H"]
    assert [c.wild for c in run.cards] == [False, True, False]


def test_a_wild_taken_from_the_pile_counts_only_as_itself():
    groups = hand_groups(_view("4H 2C 6H KS KD KH 9C 3D 8S JD", CACHETA_7, wilds="2C", plain="2C"))
    assert [g.kind for g in groups] == ["set", "loose"]
    assert "2C" in [c.id for c in groups[-1].cards]


@pytest.mark.parametrize("by_rank", [False, True])
def test_the_loose_cards_come_last_in_the_chosen_sort(by_rank):
    groups = hand_groups(_view("9C 9D 9H KS 2D 2S 5C 10H JD 4S"), by_rank=by_rank)
    loose = [c.id for c in groups[-1].cards]
    if by_rank:
        assert loose == ["2D", "2S", "4S", "5C", "10H", "JD", "KS"]
    else:
        assert loose == ["5C", "2D", "JD", "10H", "2S", "4S", "KS"]


def test_the_groups_hold_exactly_the_viewers_own_cards():
    for seed in range(20):
        match = new_match(CACHETA_7, 4, seed=seed)
        for seat in range(4):
            view = player_view(match, seat)
            shown = [c.id for g in hand_groups(view) for c in g.cards]
            assert Counter(shown) == Counter(str(c) for c in view.hand)


def test_no_cards_no_groups():
    assert hand_groups(_view("")) == []
    assert arrange((), rules=PIFE) == ((), ())


def test_jogos_is_toggled_and_a_card_moved_by_hand_turns_it_off():
    tab = SimpleNamespace(arranged="", grouped="")
    HandOrderState.toggle_groups.fn(tab)
    assert tab.grouped == "1"
    HandOrderState._keep(tab, "AB12:1", None)  # a forged move: nothing changes
    assert (tab.arranged, tab.grouped) == ("", "1")
    HandOrderState._keep(tab, "AB12:1", ["7H", "AS"])
    assert (tab.arranged, tab.grouped) == ("AB12:1|7H,AS", "")
    HandOrderState.toggle_groups.fn(tab)
    HandOrderState.toggle_groups.fn(tab)
    assert tab.grouped == ""


def test_a_card_of_the_viewers_hand_only_once_even_with_two_decks():
    groups = hand_groups(_view("7H 7H' 7C 7S 8H 9H KS KD 2C 3D"))
    ids = [c.id for g in groups for c in g.cards]
    assert sorted(ids) == sorted(str(c) for c in parse_hand("7H 7H' 7C 7S 8H 9H KS KD 2C 3D"))
    assert Card.parse("7H'") in {Card.parse(i) for i in ids}
