"""Dicas and house rules in the state layer: the hints of one seat from its own view, the
question before discarding a card of a meld, the lobby's choices (seed 000 lines 33-43)."""

from __future__ import annotations

import asyncio
import doctest
import random
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from _tab import RealTab, use_service

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _planner import greedy_game  # noqa: E402

from pifecacheta.rules import (  # noqa: E402
    CACHETA_7,
    PIFE,
    Discard,
    Phase,
    apply,
    new_match,
    player_view,
    spectator_view,
)
from pifecacheta.rules.cards import Card  # noqa: E402
from pifecacheta.rules.one_away import completing_faces  # noqa: E402
from pifecacheta.rules.solver import best_go_out  # noqa: E402
from pifecacheta.service import HOUSE_RULES, TableService, TableSnapshot  # noqa: E402
from pifecacheta.state import discard_guard, hints, lobby  # noqa: E402
from pifecacheta.state.hints import hints_for, needed_cards  # noqa: E402
from pifecacheta.state.lobby import LobbyState, house_choices, rules_for  # noqa: E402
from pifecacheta.state.table import TableState  # noqa: E402
from pifecacheta.state.view_model import table_ui  # noqa: E402

SAME_COLOUR = replace(CACHETA_7, wild_same_colour=True)
SEED = 3  # its greedy game (tests/browser/_planner.py) goes out only with four wilds


def _played(upto: int, rules=SAME_COLOUR, seed: int = SEED):
    """The planned game's match after ``log[:upto]``, and the log."""
    _final, log = greedy_game(rules, 2, seed)
    m = new_match(rules, 2, seed=seed)
    for seat, action in log[:upto]:
        m = apply(m, seat, action)
    return m, log


@pytest.mark.parametrize("module", [hints, discard_guard, lobby])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_espera_names_exactly_the_cards_that_go_out():
    m, log = _played(10)  # Ana (seat 0) to draw, 9 cards, one away
    assert log[10][0] == 0 and m.round.turn == 0 and m.round.phase is Phase.DRAW
    view = player_view(m, 0)
    got = hints_for(view)
    assert got.wait and not got.wait_any and got.melded == []
    waited = {c.code for c in got.wait}
    assert waited == {
        str(f) for f in completing_faces(view.hand, wilds=view.wilds, from_discard=False, rules=SAME_COLOUR)
    }
    for face in {
        Card.parse(c) for c in ("2C", "3C", "AD", "4D", "2H", "5H", "2S", "3S", "4S", "KD", "9H", "7C")
    }:
        extra = face if face not in view.hand else face.twin
        goes = best_go_out((*view.hand, extra), wilds=view.wilds, rules=SAME_COLOUR) is not None
        assert goes == (face.code in waited), face


def test_espera_follows_the_tables_house_rules():
    m, _ = _played(10)
    view = player_view(m, 0)
    plain = replace(view, rules=CACHETA_7, wilds=frozenset(f for f in view.wilds if f.suit == view.vira.suit))
    assert {c.code for c in hints_for(view).wait} != {c.code for c in hints_for(plain).wait}


def test_a_discard_turn_lists_the_cards_of_melds_and_no_espera():
    m, log = _played(15)  # Ana's discard turn: the planned discard 5D is in a meld
    view = player_view(m, 0)
    got = hints_for(view)
    assert got.wait == [] and "5D" in got.melded
    assert discard_guard.must_confirm(view, True, log[15][1])
    loose = [c for c in view.hand if c not in needed_cards(view)]
    assert loose and not discard_guard.must_confirm(view, True, Discard(loose[0]))
    assert not discard_guard.must_confirm(player_view(m, 1), True, log[15][1])  # not Bruno's card


def test_tips_come_at_their_moment():
    m, _ = _played(13)  # Bruno discards; Ana watches
    assert hints_for(player_view(m, 0)).tip == hints.TIP_WATCH_PILE
    assert hints_for(player_view(m, 1)).tip == hints.TIP_PAIRS
    m, _ = _played(1)
    assert hints_for(player_view(m, 1)).tip == hints.TIP_KEEP_WILD  # a loose wild in hand
    m, _ = _played(2)
    assert hints_for(player_view(m, 0)).tip == hints.TIP_TAKE_ONLY  # the pile's 10H melds with nothing
    only_out = player_view(replace(m, rules=replace(SAME_COLOUR, discard_only_to_go_out=True)), 0)
    assert hints_for(only_out).tip == ""  # the pile is taken only to go out there


def _snapshot(m, seat, *, on: bool = True) -> TableSnapshot:
    return TableSnapshot(
        code="x",
        rules=m.rules,
        status="playing",
        version=1,
        creator_seat=0,
        seats=(),
        my_seat=seat,
        view=player_view(m, seat) if seat is not None else None,
        chat=(),
        absence_claimable=False,
        rematch_votes=frozenset(),
        rematch_offered=False,
        hints=on,
    )


def test_hints_do_not_depend_on_anything_hidden():
    """Other hands and the stock shuffled among themselves: Ana's hints are the same."""
    m, _ = _played(10)
    r = m.round
    hidden = [*r.hands[1], *r.stock]
    random.Random(5).shuffle(hidden)
    n = len(r.hands[1])
    other = replace(m, round=replace(r, hands=(r.hands[0], tuple(hidden[:n])), stock=tuple(hidden[n:])))
    assert table_ui(_snapshot(other, 0)).hints == table_ui(_snapshot(m, 0)).hints != hints.HintsUi()


def test_a_spectator_and_a_table_without_dicas_get_no_hints():
    m, _ = _played(10)
    spectator = replace(_snapshot(m, None), view=spectator_view(m))
    assert table_ui(spectator).hints == hints.HintsUi() and table_ui(spectator).hints_on
    off = table_ui(_snapshot(m, 0, on=False))
    assert off.hints == hints.HintsUi() and not off.hints_on
    assert table_ui(_snapshot(m, 0)).house == ["wild_same_colour"]


# ---- the lobby's choices ----------------------------------------------------------------


def test_the_lobby_offers_wild_rules_only_in_cacheta():
    assert house_choices("pife") == [
        "set_may_repeat_suit",
        "discard_only_to_go_out",
        "rebuild_without_shuffle",
    ]
    assert house_choices("cacheta10") == list(HOUSE_RULES) and house_choices("bogus") == []
    r = rules_for("cacheta10", ["no_wild_in_sets", "set_may_repeat_suit"])
    assert r.lives == 10 and r.no_wild_in_sets and r.set_may_repeat_suit and not r.wild_same_colour
    assert rules_for("pife", ["no_wild_in_sets"]) == PIFE


def test_ticking_house_rules_and_dicas_in_the_lobby():
    form = SimpleNamespace(mode="pife", house=[], hints=False, choice="")
    form._keep_choice = lambda: LobbyState._keep_choice(form)
    LobbyState.set_house.fn(form, "rebuild_without_shuffle", True)
    LobbyState.set_house.fn(form, "set_may_repeat_suit", True)
    LobbyState.set_house.fn(form, "set_may_repeat_suit", True)  # twice: once
    assert form.house == ["set_may_repeat_suit", "rebuild_without_shuffle"]  # the list's order
    for bad in (("mode", True), ("lives", True), ("__class__", True), ("set_may_repeat_suit", "no")):
        LobbyState.set_house.fn(form, *bad)  # forged: nothing changes
    assert form.house == ["set_may_repeat_suit", "rebuild_without_shuffle"]
    LobbyState.set_house.fn(form, "set_may_repeat_suit", False)
    assert form.house == ["rebuild_without_shuffle"]
    LobbyState.set_hints.fn(form, "yes")
    assert form.hints is False
    LobbyState.set_hints.fn(form, True)
    assert form.hints is True
    # what the browser keeps for the form's next visit (LobbyState.load reads it back)
    assert lobby.stored_choice(form.choice) == ("pife", ["rebuild_without_shuffle"], True)


def test_the_house_rules_count_leaves_out_the_rules_hidden_for_the_game():
    """ "Regras da casa (n)" counts only what the chosen game offers; the player's other ticks
    are kept for when they pick Cacheta again."""
    applies = LobbyState.computed_vars["house_applies"]._fget
    form = SimpleNamespace(mode="cacheta7", house=["wild_same_colour", "discard_only_to_go_out"])
    assert applies(form) == ["wild_same_colour", "discard_only_to_go_out"]
    form.mode = "pife"
    assert applies(form) == ["discard_only_to_go_out"]
    assert form.house == ["wild_same_colour", "discard_only_to_go_out"]  # the choice is kept


# ---- the question before a discard, on a tab's real state ---------------------------------


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0, seed_source=lambda: SEED)
    use_service(monkeypatch, service)
    return service


def _table_at_step_15(svc: TableService, hints_on: bool):
    _final, log = greedy_game(SAME_COLOUR, 2, SEED)
    ana, bruno = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, SAME_COLOUR, hints=hints_on)
    svc.join(code, bruno)
    svc.start(code, ana)
    who = {0: ana, 1: bruno}
    for seat, action in log[:15]:
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, None).version)
    return code, ana, log[15][1]


def test_discarding_a_card_of_a_meld_waits_for_the_answer(svc):
    code, ana, planned = _table_at_step_15(svc, True)
    tab = RealTab(code, ana)
    version = svc.snapshot(code, ana).version
    tab.run(TableState.card_double, str(planned.card), version)
    assert tab.hint_confirm == str(planned.card) and tab.message == ""
    assert svc.snapshot(code, ana).version == version and len(svc.snapshot(code, ana).view.hand) == 10
    assert tab.hint_confirm_card.code == planned.card.code
    tab.run(TableState.cancel_discard)  # MANTER: nothing sent
    assert tab.hint_confirm == "" and svc.snapshot(code, ana).version == version
    tab.run(TableState.card_double, str(planned.card), version)
    tab.run(TableState.confirm_discard, version)  # DESCARTAR MESMO ASSIM
    after = svc.snapshot(code, ana)
    assert tab.hint_confirm == "" and after.version == version + 1
    assert after.view.discard_pile[-1] == planned.card and len(after.view.hand) == 9


def test_without_dicas_the_same_discard_goes_at_once(svc):
    code, ana, planned = _table_at_step_15(svc, False)
    tab = RealTab(code, ana)
    version = svc.snapshot(code, ana).version
    tab.run(TableState.card_double, str(planned.card), version)
    assert tab.hint_confirm == "" and svc.snapshot(code, ana).version == version + 1


def test_a_confirm_with_nothing_held_sends_nothing(svc):
    code, ana, _planned = _table_at_step_15(svc, True)
    tab = RealTab(code, ana)
    version = svc.snapshot(code, ana).version
    tab.run(TableState.confirm_discard, version)
    assert svc.snapshot(code, ana).version == version and tab.message == ""


def test_four_wilds_show_both_in_the_centre():
    m, _ = _played(10)
    ui = table_ui(_snapshot(m, 0))
    assert ui.has_wild_other and {ui.wild.code, ui.wild_other.code} == {"2S", "2C"}
    m2, _ = _played(10, rules=CACHETA_7)
    assert not table_ui(_snapshot(m2, 0)).has_wild_other


# ---- /regras opened from a table ----------------------------------------------------------


def _rules_page(monkeypatch, svc, mesa):
    from pifecacheta.state import rules_page

    monkeypatch.setattr(rules_page, "get_service", lambda: svc)
    query = {"mesa": mesa} if mesa is not None else {}
    page = SimpleNamespace(
        router=SimpleNamespace(url=SimpleNamespace(query_parameters=query)),
        house=["stale"],
        hints_on=True,
        from_table=True,
    )
    asyncio.run(rules_page.RulesPageState.load.fn(page))
    return page


def test_the_rules_page_lists_the_tables_house_rules(svc, monkeypatch):
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, replace(PIFE, rebuild_without_shuffle=True), hints=True)
    page = _rules_page(monkeypatch, svc, code)
    assert page.from_table and page.house == ["rebuild_without_shuffle"] and page.hints_on
    for mesa in (None, "", "no-such-table", "x" * 500):
        page = _rules_page(monkeypatch, svc, mesa)
        assert not page.from_table and page.house == [] and not page.hints_on
