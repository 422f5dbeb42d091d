"""Joining on purpose, in the waiting room: leaving a seat, the creator removing a seat and
adding one bot at a time (seed 000 lines 46, 50, 70). Every refusal changes nothing."""

from __future__ import annotations

import pytest

from pifecacheta.rules import CACHETA_7, PIFE
from pifecacheta.service import (
    AlreadyStarted,
    CreatorStays,
    NotCreator,
    NotSeated,
    SeatNotFound,
    TableExpired,
    TableService,
)

from .helpers import log_count


def _names(svc: TableService, code: str) -> list[tuple[int, str]]:
    return [(s.seat, s.name) for s in svc.snapshot(code, None).seats]


def test_a_seated_player_leaves_the_waiting_room_and_the_later_seats_move_up(svc, people, db_engine):
    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.join(code, caio)
    v = svc.snapshot(code, None).version
    svc.leave_seat(code, bia)
    assert _names(svc, code) == [(0, "Ana"), (1, "Caio")]
    snap = svc.snapshot(code, bia)
    assert snap.my_seat is None and snap.version == v + 1
    assert svc.action_log(code)[-1]["action"] == {"type": "leave_seat", "seat": 1}
    assert svc.snapshot(code, caio).my_seat == 1
    # she may sit again: at the lowest free seat
    assert svc.join(code, bia) == 2
    # the match deals to seats 0..n-1: it starts with the three
    svc.start(code, ana)
    assert svc.snapshot(code, caio).view is not None and svc.snapshot(code, caio).view.seats == 3


def test_leaving_is_refused_for_the_creator_a_visitor_and_after_the_start(svc, people, db_engine):
    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    before = log_count(db_engine, code)
    with pytest.raises(CreatorStays):
        svc.leave_seat(code, ana)
    with pytest.raises(NotSeated):
        svc.leave_seat(code, caio)
    svc.start(code, ana)
    after_start = log_count(db_engine, code)
    with pytest.raises(AlreadyStarted):
        svc.leave_seat(code, bia)
    assert log_count(db_engine, code) == after_start == before + 1
    assert _names(svc, code) == [(0, "Ana"), (1, "Bia")]


def test_the_creator_removes_a_person_or_a_bot_before_the_start(svc, people):
    ana, bia, caio, _ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.add_bots(code, ana, ["Tito"])
    svc.join(code, caio)
    assert _names(svc, code) == [(0, "Ana"), (1, "Bia"), (2, "Tito"), (3, "Caio")]
    svc.remove_seat(code, ana, 2)  # the bot
    assert _names(svc, code) == [(0, "Ana"), (1, "Bia"), (2, "Caio")]
    svc.remove_seat(code, ana, 1)  # a person: she watches now
    assert _names(svc, code) == [(0, "Ana"), (1, "Caio")]
    assert svc.snapshot(code, bia).my_seat is None
    assert svc.action_log(code)[-1]["action"] == {"type": "remove_seat", "seat": 1}


def test_removing_a_seat_is_refused_with_the_reason(svc, people, db_engine, clock):
    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    before = log_count(db_engine, code)
    with pytest.raises(NotCreator):
        svc.remove_seat(code, bia, 0)
    with pytest.raises(SeatNotFound):
        svc.remove_seat(code, ana, 2)  # a free seat
    with pytest.raises(SeatNotFound):
        svc.remove_seat(code, ana, 9)
    with pytest.raises(SeatNotFound):
        svc.remove_seat(code, ana, "1")  # type: ignore[arg-type]  # a forged event's text
    with pytest.raises(CreatorStays):
        svc.remove_seat(code, ana, 0)
    assert log_count(db_engine, code) == before
    svc.start(code, ana)
    with pytest.raises(AlreadyStarted):
        svc.remove_seat(code, ana, 1)
    other = svc.create_table(ana, PIFE)
    svc.join(other, caio)
    clock.advance(days=7, seconds=1)
    svc.sweep()
    with pytest.raises(TableExpired):
        svc.remove_seat(other, ana, 1)
    with pytest.raises(TableExpired):
        svc.leave_seat(other, caio)
    assert _names(svc, code) == [(0, "Ana"), (1, "Bia")]


def test_one_bot_at_a_time_then_fill_every_free_seat(svc, people):
    """Adding ONE bot keeps the other free seats for people (3 players with 1 bot); COMPLETAR
    COM ROBÔS still fills every free seat (seed 000 line 70)."""
    ana, bia, caio, _ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.add_bots(code, ana, ["Carmen"])
    assert _names(svc, code) == [(0, "Ana"), (1, "Carmen")]
    svc.join(code, bia)
    svc.remove_seat(code, ana, 1)
    svc.add_bots(code, ana, ["Tito", "Luna"])
    assert _names(svc, code) == [(0, "Ana"), (1, "Bia"), (2, "Tito"), (3, "Luna")]
    assert svc.join(code, caio) is None  # full: watches
