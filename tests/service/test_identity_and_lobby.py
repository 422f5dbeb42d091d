"""Identity (random id + hashed secret) and lobby rules: join, bots, start (seed 000 lines 46-50, 70)."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from pifecacheta.models import Player
from pifecacheta.rules import CACHETA_7, PIFE, Draw, Phase
from pifecacheta.service import Identity, Refusal, TableService


def test_new_identity_is_random_and_secret_stored_hashed(svc: TableService, db_engine) -> None:
    a = svc.identify(None, None, "Ana")
    b = svc.identify(None, None, "Ana")
    assert a.player_id != b.player_id and a.secret != b.secret
    assert a.name == "Ana"
    with Session(db_engine) as s:
        rows = s.exec(select(Player)).all()
    assert len(rows) == 2
    for row in rows:
        assert a.secret not in row.secret_hash and b.secret not in row.secret_hash
        assert len(row.secret_hash) == 64


def test_identify_returns_same_identity_with_right_secret(svc: TableService) -> None:
    a = svc.identify(None, None, "Ana")
    again = svc.identify(a.player_id, a.secret)
    assert again == a
    renamed = svc.identify(a.player_id, a.secret, "  Ana   Maria ")
    assert renamed.player_id == a.player_id and renamed.name == "Ana Maria"


def test_forged_id_or_secret_never_yields_someone_elses_identity(svc: TableService) -> None:
    a = svc.identify(None, None, "Ana")
    wrong_secret = svc.identify(a.player_id, "guess", "Eve")
    assert wrong_secret.player_id != a.player_id and wrong_secret.name == "Eve"
    forged_id = svc.identify("0" * 32, a.secret)
    assert forged_id.player_id not in (a.player_id, "0" * 32)
    # the victim's identity still works and keeps its name
    assert svc.identify(a.player_id, a.secret).name == "Ana"


def test_forged_identity_object_is_refused(svc: TableService, people) -> None:
    ana = people[0]
    code = svc.create_table(ana, PIFE)
    fake = Identity(ana.player_id, "not-the-secret", "Ana")
    with pytest.raises(Refusal) as e:
        svc.start(code, fake)
    assert e.value.code == "bad_identity"
    with pytest.raises(Refusal) as e:
        svc.chat(code, fake, "oi")
    assert e.value.code == "bad_identity"
    # a forged identity sees the table as a spectator
    assert svc.snapshot(code, fake).my_seat is None


def test_names_are_cleaned_and_blank_refused(svc: TableService) -> None:
    assert svc.identify(None, None, "x" * 40).name == "x" * 24
    assert svc.identify(None, None, "a\x00b\nc").name == "a b c"
    with pytest.raises(Refusal) as e:
        svc.identify(None, None, "   \t ")
    assert e.value.code == "bad_name"
    assert re.fullmatch(r"Jogador [1-9]\d\d", svc.identify(None, None).name)
    # a new player's made-up name is in the browser's language; a known player keeps theirs
    juan = svc.identify(None, None, lang="es")
    assert re.fullmatch(r"Jugador [1-9]\d\d", juan.name)
    assert svc.identify(juan.player_id, juan.secret, lang="pt").name == juan.name


def test_join_seats_two_to_four_then_spectators(svc: TableService, people) -> None:
    ana, bia, caio, davi = people
    code = svc.create_table(ana, CACHETA_7)
    assert svc.snapshot(code, ana).my_seat == 0
    assert svc.join(code, bia) == 1
    assert svc.join(code, bia) == 1  # joining again keeps the seat
    assert svc.join(code, caio) == 2
    assert svc.join(code, davi) == 3
    eve = svc.identify(None, None, "Eve")
    assert svc.join(code, eve) is None  # full table: spectator
    snap = svc.snapshot(code, eve)
    assert snap.my_seat is None and [s.name for s in snap.seats] == ["Ana", "Bia", "Caio", "Davi"]
    assert snap.creator_seat == 0 and snap.view is None and snap.status == "lobby"


def test_join_after_start_is_spectator_and_sees_no_hand(svc: TableService, people) -> None:
    ana, bia, caio, _ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    assert svc.join(code, caio) is None
    snap = svc.snapshot(code, caio)
    assert snap.my_seat is None and snap.view is not None
    assert snap.view.seat is None and snap.view.hand == ()
    assert snap.view.hand_counts == (9, 9)
    mine = svc.snapshot(code, bia)
    assert mine.my_seat == 1 and len(mine.view.hand) == 9 and mine.seats[1].is_me


def test_unknown_table(svc: TableService, people) -> None:
    with pytest.raises(Refusal) as e:
        svc.join("nope", people[0])
    assert e.value.code == "table_not_found"
    with pytest.raises(Refusal) as e:
        svc.snapshot("nope", None)
    assert e.value.code == "table_not_found"


def test_start_rules(svc: TableService, people) -> None:
    ana, bia, _, _ = people
    code = svc.create_table(ana, PIFE)
    with pytest.raises(Refusal) as e:
        svc.start(code, ana)
    assert e.value.code == "need_two_players"
    svc.join(code, bia)
    with pytest.raises(Refusal) as e:
        svc.start(code, bia)
    assert e.value.code == "not_creator"
    svc.start(code, ana)
    snap = svc.snapshot(code, ana)
    assert snap.status == "playing" and snap.view is not None
    assert snap.view.phase is Phase.DRAW and snap.view.turn == 1  # seat 0 deals, seat 1 starts
    with pytest.raises(Refusal) as e:
        svc.start(code, ana)
    assert e.value.code == "already_started"


def test_add_bots_rules(svc: TableService, people) -> None:
    ana, bia, _, _ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    with pytest.raises(Refusal) as e:
        svc.add_bots(code, bia, ["Tito"])
    assert e.value.code == "not_creator"
    for bad in (["Robocop"], ["Tito", "Tito"]):
        with pytest.raises(Refusal) as e:
            svc.add_bots(code, ana, bad)
        assert e.value.code == "bad_bot"
    with pytest.raises(Refusal) as e:
        svc.add_bots(code, ana, ["Carmen", "Tito", "Luna"])
    assert e.value.code == "table_full"
    svc.add_bots(code, ana, ["Luna"])
    with pytest.raises(Refusal) as e:
        svc.add_bots(code, ana, ["Luna"])
    assert e.value.code == "bad_bot"
    svc.add_bots(code, ana, ["Carmen"])
    seats = svc.snapshot(code, ana).seats
    assert [(s.name, s.is_bot) for s in seats] == [
        ("Ana", False),
        ("Bia", False),
        ("Luna", True),
        ("Carmen", True),
    ]
    svc.start(code, ana)
    with pytest.raises(Refusal) as e:
        svc.add_bots(code, ana, [])
    assert e.value.code == "already_started"


def test_act_before_start_and_by_spectator(svc: TableService, people) -> None:
    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    with pytest.raises(Refusal) as e:
        svc.act(code, bia, Draw(), expected_version=svc.snapshot(code, bia).version)
    assert e.value.code == "not_started"
    svc.start(code, ana)
    version = svc.snapshot(code, caio).version
    with pytest.raises(Refusal) as e:
        svc.act(code, caio, Draw(), expected_version=version)
    assert e.value.code == "not_seated"
