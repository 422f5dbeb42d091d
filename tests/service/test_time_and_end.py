"""Absence (48 h), resignation, expiry (7 days) and rematch offers (seed 000 lines 70-72)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlmodel import Session, select

from pifecacheta.models import GameTable
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
from pifecacheta.service import Refusal, TableService

from .helpers import current_turn, give_hand, patch_match, table_row


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
    with pytest.raises(Refusal) as e:
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
    with pytest.raises(Refusal) as e:
        svc.vote_rematch(code, people[0])
    assert e.value.code == "rematch_not_offered"


def test_expiry_after_seven_days_without_a_move(svc: TableService, clock, people) -> None:
    ana, bia, _, _ = people
    code = _start(svc, PIFE, [ana, bia])
    clock.advance(days=3)
    svc.act(code, bia, Draw(), expected_version=_v(svc, code))
    lobby = svc.create_table(ana, PIFE)  # never started: expires the same way (below)
    clock.advance(days=7, minutes=-1)
    assert svc.sweep() == []
    clock.advance(minutes=2)
    assert sorted(svc.sweep()) == sorted([code, lobby])
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished"
    assert snap.view.outcome.termination is Termination.EXPIRED and snap.view.outcome.winner is None
    assert svc.action_log(code)[-1]["actor"] == "system"
    assert svc.action_log(code)[-1]["action"] == {"type": "expire"}
    assert not snap.rematch_offered
    assert svc.sweep() == []  # nothing left to expire
    assert svc.snapshot(lobby, ana).status == "expired"


def test_lobby_table_expires_after_seven_days_without_activity(
    svc: TableService, db_engine, clock, people
) -> None:
    """Seed 000 line 72 for a table never started: creation, a join and bots added are its
    activity; 7 days after the last one it expires (status ``expired``), through the
    version-guarded path, logged by ``system``."""
    ana, bia, caio, _ = people
    code = svc.create_table(ana, CACHETA_7)
    clock.advance(days=5)
    svc.join(code, bia)  # activity: the 7 days start again
    clock.advance(days=4)
    svc.add_bots(code, ana, ["Carmen"])  # activity again
    clock.advance(days=7, minutes=-1)
    assert svc.sweep() == []
    snap = svc.snapshot(code, bia)
    assert snap.status == "lobby" and snap.my_seat == 1
    version = snap.version
    clock.advance(minutes=1)  # exactly 7 days after the bots were added
    assert svc.sweep() == [code]
    snap = svc.snapshot(code, bia)
    assert snap.status == "expired" and snap.view is None and snap.version == version + 1
    assert [x.name for x in snap.seats] == ["Ana", "Bia", "Carmen"]  # seats kept for the page
    assert svc.action_log(code)[-1] == {
        "version": version + 1,
        "seat": None,
        "actor": "system",
        "action": {"type": "expire"},
        "at": clock(),
    }
    assert table_row(db_engine, code).match_json is None
    assert svc.sweep() == []  # expired once
    # nothing starts again at an expired table: a clear refusal, nothing written
    for call in (
        lambda: svc.start(code, ana),
        lambda: svc.add_bots(code, ana, ["Tito"]),
        lambda: svc.chat(code, bia, "alguém aí?"),
    ):
        with pytest.raises(Refusal) as e:
            call()
        assert e.value.code == "table_expired"
    with pytest.raises(Refusal) as e:
        svc.act(code, ana, Draw(), expected_version=version + 1)
    assert e.value.code == "table_expired"
    assert svc.join(code, caio) is None  # whoever opens the link now only looks
    assert svc.snapshot(code, None).version == version + 1
    assert len(svc.action_log(code)) == 4  # create, join, add_bots, expire
    assert svc.snapshot(code, bia).chat == ()  # the refused line was not kept


def test_lobby_expiry_counts_activity_logged_before_joins_moved_the_clock(
    svc: TableService, db_engine, clock, people
) -> None:
    """A lobby row whose ``last_move_at`` is still its creation time (written before joins
    restarted it) is not expired while its action log shows a join within 7 days."""
    ana, bia, _, _ = people
    code = svc.create_table(ana, PIFE)
    clock.advance(days=6)
    svc.join(code, bia)
    created = table_row(db_engine, code).created_at
    with Session(db_engine) as s, s.begin():  # as an older row: clock left at creation
        t = s.exec(select(GameTable).where(GameTable.code == code)).one()
        t.last_move_at = created
        s.add(t)
    clock.advance(days=2)  # 8 days after creation, 2 after the join
    assert svc.sweep() == []
    assert svc.snapshot(code, ana).status == "lobby"
    clock.advance(days=5)
    assert svc.sweep() == [code]


def test_sweep_of_a_lobby_table_refused_by_a_racing_write_changes_nothing(
    svc: TableService, clock, people, monkeypatch
) -> None:
    """The lobby expiry is a guarded write: if the table moved on meanwhile (here a join
    racing the sweep), the sweep skips it and the join stands."""
    ana, bia, _, _ = people
    code = svc.create_table(ana, PIFE)
    clock.advance(days=8)
    real_load = svc.store.load

    def racing_load(s, c):
        ld = real_load(s, c)
        # the sweep saw an older version than the one in the database
        ld.table = replace(ld.table, version=ld.table.version - 1)
        return ld

    monkeypatch.setattr(svc.store, "load", racing_load)
    assert svc.sweep() == []
    monkeypatch.undo()
    assert svc.snapshot(code, ana).status == "lobby"
    assert svc.join(code, bia) == 1  # the lobby is still open; the join restarts its 7 days
    assert svc.sweep() == []


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
    with pytest.raises(Refusal) as e:
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
    assert svc.action_log(code)[-1]["action"]["type"] == "rematch"


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
        with pytest.raises(Refusal) as e:
            svc.chat(code, caio, "tchau")
        assert e.value.code == "spectator_cannot_chat"
    # the match ends normally: Bia goes out, Ana loses her last life (seed 000 line 66)
    _finish_by_going_out(svc, db_engine, code, bia, 1)
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished" and snap.view.outcome.termination is Termination.LAST_WITH_LIVES
    assert snap.view.outcome.winner == 1
    assert snap.rematch_offered is not leaves  # seed 000 line 70
