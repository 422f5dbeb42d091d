"""House rules and Dicas chosen at creation: stored with the table, seen by every viewer, kept
by a rematch, refused when they do not fit the game (seed 000 "Variações", lines 33-38, 60)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from pifecacheta.models import GameTable, TableOptions
from pifecacheta.rules import CACHETA_7, PIFE, Draw, GoOut, IllegalActionError, NextRound, Phase, Rules
from pifecacheta.service import HOUSE_RULES, Refusal, TableService, house_rules_for, house_rules_on

from .helpers import current_turn, give_hand, hidden_match, patch_match

# Two nines of clubs and two of diamonds with the nine of hearts: a set only when a suit may
# repeat (three different suits, seed 000 line 35); and a run of spades. Any card drawn is the
# discard. Under the site's rules the two repeated nines cannot be melded.
REPEATED_SUIT_NINE = "9C 9C' 9D 9D' 9H 2S 3S 4S 5S"


def _v(svc: TableService, code: str) -> int:
    return svc.snapshot(code, None).version


def _tables(engine: sa.Engine) -> int:
    with Session(engine) as s:
        return len(s.exec(select(GameTable)).all())


def test_variants_fit_the_game():
    assert house_rules_for(PIFE.mode) == (
        "set_may_repeat_suit",
        "discard_only_to_go_out",
        "rebuild_without_shuffle",
    )
    assert house_rules_for(CACHETA_7.mode) == HOUSE_RULES
    assert house_rules_on(CACHETA_7) == ()


def test_house_rules_are_stored_and_dealt(svc: TableService, db_engine, people) -> None:
    ana, bia, caio, _ = people
    rules = replace(CACHETA_7, wild_same_colour=True, no_wild_in_sets=True)
    code = svc.create_table(ana, rules, hints=True)
    svc.join(code, bia)
    for who in (ana, bia, caio, None):  # the creator, a player, a visitor, no identity
        snap = svc.snapshot(code, who)
        assert snap.rules == rules and snap.hints is True
    svc.start(code, ana)
    assert hidden_match(db_engine, code).rules == rules  # the engine deals with them
    view = svc.snapshot(code, bia).view
    assert view is not None and view.rules == rules and len(view.wilds) == 2  # both red or both black


def test_everything_off_by_default(svc: TableService, people) -> None:
    code = svc.create_table(people[0], CACHETA_7)
    snap = svc.snapshot(code, people[0])
    assert house_rules_on(snap.rules) == () and snap.hints is False


def test_a_table_without_options_row_has_hints_off(svc: TableService, db_engine, people) -> None:
    code = svc.create_table(people[0], PIFE, hints=True)
    with Session(db_engine) as s, s.begin():  # a table created before the options existed
        s.execute(sa.delete(TableOptions))
    assert svc.snapshot(code, people[0]).hints is False


@pytest.mark.parametrize(
    "rules",
    [replace(PIFE, wild_same_colour=True), replace(PIFE, no_wild_in_sets=True, set_may_repeat_suit=True)],
)
def test_a_wild_rule_in_pife_is_refused_and_nothing_written(
    svc: TableService, db_engine, people, rules
) -> None:
    before = _tables(db_engine)
    with pytest.raises(Refusal) as e:
        svc.create_table(people[0], rules)
    assert e.value.code == "bad_rules"
    assert _tables(db_engine) == before


@pytest.mark.parametrize("hints", ["yes", 1, None])
def test_hints_must_be_on_or_off(svc: TableService, db_engine, people, hints) -> None:
    before = _tables(db_engine)
    with pytest.raises(Refusal) as e:
        svc.create_table(people[0], PIFE, hints=hints)
    assert e.value.code == "bad_rules" and _tables(db_engine) == before


def test_not_rules_at_all_is_refused(svc: TableService, people) -> None:
    with pytest.raises(Refusal) as e:
        svc.create_table(people[0], {"mode": "pife"})  # type: ignore[arg-type]
    assert e.value.code == "bad_rules"


def _pife_table(svc: TableService, db_engine, people, rules: Rules, hints: bool = False) -> str:
    ana, bia = people[0], people[1]
    code = svc.create_table(ana, rules, hints=hints)
    svc.join(code, bia)
    svc.start(code, ana)
    phase, turn = current_turn(db_engine, code)
    assert phase is Phase.DRAW and turn == 1  # seat 0 deals, Bia plays first
    patch_match(db_engine, code, lambda m: give_hand(m, 1, REPEATED_SUIT_NINE))
    svc.act(code, bia, Draw(), expected_version=_v(svc, code))
    return code


def test_a_go_out_legal_only_with_a_repeated_suit(svc: TableService, db_engine, people) -> None:
    bia = people[1]
    plain = _pife_table(svc, db_engine, people, PIFE)
    with pytest.raises(IllegalActionError):
        svc.act(plain, bia, GoOut(), expected_version=_v(svc, plain))
    house = _pife_table(svc, db_engine, people, replace(PIFE, set_may_repeat_suit=True))
    assert svc.snapshot(house, bia).view.can_go_out
    svc.act(house, bia, GoOut(), expected_version=_v(svc, house))
    result = svc.snapshot(house, bia).view.result
    assert result is not None and result.winner == 1
    assert "9C 9C' 9D 9D' 9H" in {" ".join(sorted(str(c) for c in m.cards)) for m in result.plan.melds}


def test_a_rematch_keeps_the_house_rules_and_hints(svc: TableService, db_engine, people) -> None:
    ana, bia = people[0], people[1]
    rules = replace(PIFE, set_may_repeat_suit=True, rebuild_without_shuffle=True)
    code = _pife_table(svc, db_engine, people, rules, hints=True)
    svc.act(code, bia, GoOut(), expected_version=_v(svc, code))
    svc.act(code, bia, NextRound(), expected_version=_v(svc, code))  # Pife: the end of the match
    assert svc.snapshot(code, ana).rematch_offered
    svc.vote_rematch(code, ana)
    svc.vote_rematch(code, bia)
    snap = svc.snapshot(code, ana)
    assert snap.status == "playing" and snap.view.round_number == 1
    assert snap.rules == rules and snap.hints is True
    assert hidden_match(db_engine, code).rules == rules
