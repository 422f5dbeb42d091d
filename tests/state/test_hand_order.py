"""The viewer's own arrangement of its hand (pifecacheta/state/hand_order.py): the moves, the
stored form, and forged input that changes nothing."""

from __future__ import annotations

import pytest

from pifecacheta.state.hand_order import MAX_CARDS, encode, move_before, nudge

HAND = ["7H", "7H'", "AS", "10D", "KC"]


def test_a_card_dropped_on_another_takes_its_place_both_ways():
    assert move_before(HAND, "7H", "10D") == ["7H'", "AS", "10D", "7H", "KC"]
    assert move_before(HAND, "KC", "7H'") == ["7H", "KC", "7H'", "AS", "10D"]
    assert move_before(HAND, "7H'", "7H") == ["7H'", "7H", "AS", "10D", "KC"]
    assert HAND == ["7H", "7H'", "AS", "10D", "KC"]  # the page's list is not changed in place


def test_alt_arrows_move_one_place_and_stop_at_the_ends():
    assert nudge(HAND, "AS", -1) == ["7H", "AS", "7H'", "10D", "KC"]
    assert nudge(HAND, "AS", 1) == ["7H", "7H'", "10D", "AS", "KC"]
    assert nudge(HAND, "7H", -1) is None
    assert nudge(HAND, "KC", 1) is None


@pytest.mark.parametrize(
    ("shown", "card", "target"),
    [
        (HAND, "2C", "AS"),  # not in the hand
        (HAND, "AS", "AS"),  # onto itself
        ("7H,AS", "7H", "AS"),  # not a list
        (["7H", 7, "AS"], "7H", "AS"),  # not card ids
        (["7H", "7H", "AS"], "7H", "AS"),  # a card twice
        (["AS"] + [f"{n}H" for n in range(MAX_CARDS)], "AS", "1H"),  # longer than any hand
        (["X" * 40, "AS"], "AS", "X" * 40),  # an id longer than any card's
    ],
)
def test_forged_drops_change_nothing(shown, card, target):
    assert move_before(shown, card, target) is None


@pytest.mark.parametrize("step", [0, 2, -2, True, "1", 1.0])
def test_a_nudge_is_one_place_left_or_right_only(step):
    assert nudge(HAND, "AS", step) is None


def test_the_stored_form_names_the_table_and_round():
    assert encode("ABCD:2", ["7H", "AS"]) == "ABCD:2|7H,AS"
    assert encode("A|B", ["7H"]) == ""
    assert encode("", ["7H"]) == ""
    assert encode(None, ["7H"]) == ""
    assert encode("x" * 49, ["7H"]) == ""
