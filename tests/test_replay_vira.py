"""The replay's vira and wild (state/replay.py: vira_ui): the card after the vira is wild
(seed 000 line 60), both suits of its colour with "coringa da mesma cor"; none in Pife."""

from __future__ import annotations

import dataclasses

from pifecacheta.rules import CACHETA_7, PIFE, new_match, player_view
from pifecacheta.state.replay import vira_ui


def test_cacheta_vira_and_its_wild() -> None:
    view = player_view(new_match(CACHETA_7, 2, seed=7), 0)
    assert view.vira is not None
    ui = vira_ui(view)
    nxt = view.vira.face.next
    assert ui.has_vira and ui.vira.code == str(view.vira.face)
    assert ui.wild.code == str(nxt) and ui.wild.wild and not ui.has_wild_other


def test_same_colour_house_rule_shows_the_second_wild() -> None:
    rules = dataclasses.replace(CACHETA_7, wild_same_colour=True)
    ui = vira_ui(player_view(new_match(rules, 2, seed=7), 0))
    assert ui.has_vira and ui.wild.wild and ui.has_wild_other and ui.wild_other.wild
    assert ui.wild_other.suit != ui.wild.suit


def test_pife_has_no_vira() -> None:
    ui = vira_ui(player_view(new_match(PIFE, 2, seed=7), 0))
    assert not ui.has_vira and not ui.has_wild_other
