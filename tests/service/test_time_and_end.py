"""Absence (48 h), resignation, expiry (7 days) and rematch offers (seed 000 lines 70-72)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    ClaimAbsence,
    Draw,
    GoOut,
    IllegalActionError,
    LeaveTable,
    NextRound,
    Phase,
    Resign,
    Termination,
)
from pifecacheta.service import ServiceError, TableService

from .helpers import current_turn, give_hand, patch_match


def _start(svc: TableService, rules, players) -> str:
    code = svc.create_table(players[0], rules)
    for p in players[1:]:
        svc.join(code, p)
    svc.start(code, players[0])
    return code


def _v(svc: TableService, code: str) -> int:
    return svc.snapshot(code, None).version


def test_absence_needs_more_than_48_hours_without_a_move(svc: TableService, clock, people) -> None:
    ana, bia, _, _ = people
    code = _start(svc, PIFE, [ana, bia])  # seat 1 (Bia) has the turn
    clock.advance(hours=47)
    assert not svc.snapshot(code, ana).absence_claimable
    with pytest.raises(ServiceError) as e:
        svc.act(code, ana, ClaimAbsence(), expected_version=_v(svc, code))
    assert e.value.code == "not_absent_yet"
    # a move by the seat to play restarts its clock
    svc.act(code, bia, Draw(), expected_version=_v(svc, code))
    clock.advance(hours=2)  # 49 h after the deal, 2 h after the draw
    assert not svc.snapshot(code, ana).absence_claimable
    clock.advance(hours=47)  # 49 h after the draw
    snap = svc.snapshot(code, ana)
    assert snap.absence_claimable
    assert not svc.snapshot(code, bia).absence_claimable  # not against oneself
    with pytest.raises(IllegalActionError) as ie:
        svc.act(code, bia, ClaimAbsence(), expected_version=snap.version)
    assert ie.value.code == "not_absent"
    svc.act(code, ana, ClaimAbsence(), expected_version=snap.version)
    end = svc.snapshot(code, ana)
    assert end.status == "finished"
    assert end.view.outcome.termination is Termination.ABSENCE
    assert (end.view.outcome.loser, end.view.outcome.winner) == (1, 0)
    assert not end.rematch_offered  # seed 000 line 70: no rematch after an absence


def test_fora_player_cannot_claim_absence(svc: TableService, db_engine, clock, people) -> None:
    ana, bia, caio, _ = people
    code = _start(svc, CACHETA_7, [ana, bia, caio])  # seat 1 to play
    patch_match(db_engine, code, lambda m: replace(m, lives=(7, 7, 0)))  # Caio is FORA
    clock.advance(hours=49)
    assert svc.snapshot(code, ana).absence_claimable
    assert not svc.snapshot(code, caio).absence_claimable
    with pytest.raises(IllegalActionError) as e:
        svc.act(code, caio, ClaimAbsence(), expected_version=_v(svc, code))
    assert e.value.code == "player_out"


@pytest.mark.parametrize(
    ("rules", "lives", "loser", "winner"),
    [
        (PIFE, None, 1, 2),  # Pife: the next seat after the one who resigned
        (CACHETA_7, (7, 5, 6), 0, 2),  # Cacheta: most lives among the others
        (CACHETA_7, (6, 3, 6), 1, 2),  # tie: first in seat order after the loser
    ],
)
def test_resign_ends_the_match(svc: TableService, db_engine, people, rules, lives, loser, winner) -> None:
    code = _start(svc, rules, people[:3])
    if lives:
        patch_match(db_engine, code, lambda m: replace(m, lives=lives))
    svc.act(code, people[loser], Resign(), expected_version=_v(svc, code))
    snap = svc.snapshot(code, people[0])
    assert snap.status == "finished" and snap.view.phase is Phase.MATCH_OVER
    assert snap.view.outcome.termination is Termination.RESIGNED
    assert (snap.view.outcome.loser, snap.view.outcome.winner) == (loser, winner)
    assert not snap.rematch_offered
    with pytest.raises(ServiceError) as e:
        svc.vote_rematch(code, people[0])
    assert e.value.code == "rematch_not_offered"


def test_expiry_after_seven_days_without_a_move(svc: TableService, clock, people) -> None:
    ana, bia, _, _ = people
    code = _start(svc, PIFE, [ana, bia])
    lobby = svc.create_table(ana, PIFE)
    clock.advance(days=3)
    svc.act(code, bia, Draw(), expected_version=_v(svc, code))
    clock.advance(days=7, minutes=-1)
    assert svc.sweep() == []
    clock.advance(minutes=2)
    assert svc.sweep() == [code]
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished"
    assert snap.view.outcome.termination is Termination.EXPIRED and snap.view.outcome.winner is None
    assert svc.action_log(code)[-1]["actor"] == "system"
    assert svc.action_log(code)[-1]["action"] == {"type": "expire"}
    assert not snap.rematch_offered
    assert svc.sweep() == []  # nothing left to expire
    assert svc.snapshot(lobby, ana).status == "lobby"


GOES_OUT_AFTER_ANY_DRAW = "AH 2H 3H 4S 5S 6S 7C 8C 9C"  # three runs: the drawn card is the discard


def _finish_by_going_out(svc: TableService, db_engine, code: str, who, seat: int) -> None:
    """``seat`` (to play) gets a hand in melds, draws and goes out (BATER, seed 000 line 58);
    then PRÓXIMA RODADA shows the end of the match (line 68)."""
    patch_match(db_engine, code, lambda m: give_hand(m, seat, GOES_OUT_AFTER_ANY_DRAW))
    svc.act(code, who, Draw(), expected_version=_v(svc, code))
    svc.act(code, who, GoOut(), expected_version=_v(svc, code))
    assert current_turn(db_engine, code)[0] is Phase.ROUND_OVER
    assert not svc.snapshot(code, who).rematch_offered  # only at the end screen
    svc.act(code, who, NextRound(), expected_version=_v(svc, code))


def test_rematch_when_all_humans_vote(svc: TableService, db_engine, people) -> None:
    ana, bia, caio, _ = people
    code = _start(svc, PIFE, [ana, bia])
    svc.join(code, caio)  # a spectator
    _finish_by_going_out(svc, db_engine, code, bia, 1)
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished" and snap.view.outcome.termination is Termination.GONE_OUT
    assert snap.rematch_offered and snap.rematch_votes == frozenset()
    with pytest.raises(ServiceError) as e:
        svc.vote_rematch(code, caio)
    assert e.value.code == "not_seated"
    svc.vote_rematch(code, bia)
    svc.vote_rematch(code, bia)  # voting twice counts once
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished" and snap.rematch_votes == frozenset({1})
    svc.vote_rematch(code, ana)
    new = svc.snapshot(code, ana)
    assert new.status == "playing" and new.version == snap.version + 1
    assert new.view.phase is Phase.DRAW and new.view.round_number == 1 and new.view.outcome is None
    assert new.rematch_votes == frozenset() and not new.rematch_offered
    assert [s.name for s in new.seats] == ["Ana", "Bia"]
    assert svc.action_log(code)[-1]["action"] == {"type": "rematch"}


@pytest.mark.parametrize("leaves", [False, True])
def test_no_rematch_when_a_fora_player_left(svc: TableService, db_engine, people, leaves: bool) -> None:
    ana, bia, caio, _ = people
    code = _start(svc, CACHETA_7, [ana, bia, caio])
    # Caio is FORA (seed 000 line 66) and may leave the table (SAIR DA MESA, line 72)
    patch_match(db_engine, code, lambda m: replace(m, lives=(1, 7, 0)))
    with pytest.raises(IllegalActionError):
        svc.act(code, bia, LeaveTable(), expected_version=_v(svc, code))  # only FORA seats may leave
    if leaves:
        svc.act(code, caio, LeaveTable(), expected_version=_v(svc, code))
        snap = svc.snapshot(code, caio)
        assert snap.my_seat is None and snap.seats[2].left and snap.seats[2].is_me
        with pytest.raises(ServiceError) as e:
            svc.chat(code, caio, "tchau")
        assert e.value.code == "spectator_cannot_chat"
    # the match ends normally: Bia goes out, Ana loses her last life (seed 000 line 66)
    _finish_by_going_out(svc, db_engine, code, bia, 1)
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished" and snap.view.outcome.termination is Termination.LAST_WITH_LIVES
    assert snap.view.outcome.winner == 1
    assert snap.rematch_offered is not leaves  # seed 000 line 70
