"""MINHAS MESAS: a player's tables with plain public values, SUA VEZ first, then by last
move; finished and expired tables folded after 7 days; watched tables; never a card."""

from __future__ import annotations

import dataclasses

from pifecacheta.rules import CACHETA_7, PIFE, Discard, Draw, GoOut, Phase, Resign
from pifecacheta.service import KEEP_RECENT, Identity, TableService

from .helpers import current_turn, give_hand, patch_match


def _codes(rows) -> list[str]:
    return [r.code for r in rows]


def _draw_for_whoever(svc: TableService, db_engine, code: str, by_seat: dict[int, Identity]) -> None:
    _phase, turn = current_turn(db_engine, code)
    assert turn is not None
    svc.act(code, by_seat[turn], Draw(), expected_version=svc.snapshot(code, None).version)


def test_my_turn_first_then_by_last_move(svc, people, clock, db_engine):
    ana, bia, caio, _ = people
    lobby = svc.create_table(ana, PIFE)  # never started
    clock.advance(minutes=1)
    pife = svc.create_table(bia, PIFE)
    svc.join(pife, ana)
    svc.start(pife, bia)  # Bia deals, seat 1 (Ana) starts: Ana's turn
    clock.advance(minutes=1)
    cacheta = svc.create_table(ana, CACHETA_7)
    svc.join(cacheta, caio)
    svc.start(cacheta, ana)  # Ana deals, seat 1 (Caio) starts: not Ana's turn
    clock.advance(minutes=1)
    svc.create_table(caio, PIFE)  # not Ana's: not listed

    rows = svc.my_tables(ana)
    assert _codes(rows) == [pife, cacheta, lobby]
    first = rows[0]
    assert first.my_turn and first.turn_seat == 1 and first.turn_name == "Ana" and first.my_seat == 1
    assert first.seats == ("Bia", "Ana") and not first.created and first.status == "playing"
    second = rows[1]
    assert not second.my_turn and second.turn_name == "Caio" and second.created
    assert second.mode == "cacheta" and second.lives == 7
    assert rows[2].status == "lobby" and rows[2].turn_name == "" and not rows[2].my_turn

    # a move elsewhere: Caio draws and discards, it is Ana's turn at the Cacheta too; it moved last
    m = svc.snapshot(cacheta, caio)
    assert m.view is not None and m.view.turn == 1
    _draw_for_whoever(svc, db_engine, cacheta, {0: ana, 1: caio})
    view = svc.snapshot(cacheta, caio).view
    assert view is not None and view.phase is Phase.DISCARD
    svc.act(cacheta, caio, Discard(view.hand[0]), expected_version=svc.snapshot(cacheta, None).version)
    rows = svc.my_tables(ana)
    assert _codes(rows) == [cacheta, pife, lobby] and rows[0].my_turn and rows[1].my_turn


def test_the_rows_hold_no_card(svc, people):
    ana, bia, *_ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    hand = svc.snapshot(code, ana).view.hand  # type: ignore[union-attr]
    for row in svc.my_tables(ana) + svc.my_tables(bia):
        # the random invite code may hold any two letters, a card's "QS" among them
        text = repr(dataclasses.asdict(row)).replace(row.code, "<code>")
        assert all(str(c) not in text for c in hand) and "seed" not in text and "'hand" not in text
        assert all(
            type(v) in (str, int, bool, tuple, type(None)) or k == "last_move_at"
            for k, v in dataclasses.asdict(row).items()
        )


def test_finished_tables_fold_after_seven_days(svc, people, clock):
    ana, bia, *_ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    svc.act(code, bia, Resign(), expected_version=svc.snapshot(code, None).version)
    (row,) = svc.my_tables(ana)
    assert row.status == "finished" and row.winner_name == "Ana" and not row.old and not row.my_turn
    clock.advance(seconds=KEEP_RECENT.total_seconds() + 1)
    (row,) = svc.my_tables(ana)
    assert row.old
    # an expired lobby folds too, a lobby still open does not
    waiting = svc.create_table(ana, PIFE)
    clock.advance(days=7, seconds=1)
    svc.sweep()
    fresh = svc.create_table(ana, PIFE)
    clock.advance(days=7, seconds=1)
    rows = {r.code: r for r in svc.my_tables(ana)}
    assert rows[waiting].status == "expired" and rows[waiting].old
    assert rows[fresh].status == "lobby" and not rows[fresh].old


def test_a_removed_seat_drops_the_table_from_the_list(svc, people):
    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.join(code, caio)
    svc.remove_seat(code, ana, 2)
    assert _codes(svc.my_tables(caio)) == []
    assert _codes(svc.my_tables(ana)) == [code]  # the creator's, seated or not


def test_round_over_is_every_players_move(svc, people, db_engine):
    """At FIM DA RODADA any player of the match may press PRÓXIMA RODADA (seed 000 line 68):
    SUA VEZ for each of them, no seat to play; a spectator's watched row is not its move."""
    ana, bia, caio, _ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    patch_match(db_engine, code, lambda m: give_hand(m, 1, "AH 2H 3H 4S 5S 6S 7C 8C 9C"))
    svc.act(code, bia, Draw(), expected_version=svc.snapshot(code, None).version)
    svc.act(code, bia, GoOut(), expected_version=svc.snapshot(code, None).version)
    assert current_turn(db_engine, code)[0] is Phase.ROUND_OVER
    for who in (ana, bia):
        (row,) = svc.my_tables(who)
        assert row.round_over and row.my_turn and row.turn_seat is None and row.status == "playing"
    (watched,) = svc.my_tables(caio, [code])
    assert watched.round_over and not watched.my_turn


def test_a_round_over_that_decides_the_match_names_its_winner(svc, people, db_engine):
    """Pife's first go-out wins the match (seed 000 line 48): at its FIM DA RODADA the row is
    still in play (PRÓXIMA RODADA shows the end) and already names the winner."""
    ana, bia, *_ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)  # Ana deals: Bia (seat 1) plays first
    patch_match(db_engine, code, lambda m: give_hand(m, 1, "AH 2H 3H 4S 5S 6S 7C 8C 9C"))
    svc.act(code, bia, Draw(), expected_version=svc.snapshot(code, None).version)
    svc.act(code, bia, GoOut(), expected_version=svc.snapshot(code, None).version)
    assert current_turn(db_engine, code)[0] is Phase.ROUND_OVER
    (row,) = svc.my_tables(ana)
    assert row.round_over and row.status == "playing" and row.winner_name == "Bia"


def test_watched_tables_and_forged_identities(svc, people):
    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    rows = svc.my_tables(caio, [code, "no-such-code"])
    assert _codes(rows) == [code] and rows[0].watched and rows[0].my_seat is None
    forged = Identity(player_id=ana.player_id, secret="guess", name="Eve")
    assert svc.my_tables(forged) == []  # never someone else's tables
    assert _codes(svc.my_tables(None, [code])) == [code]
    # her own table listed as watched too is hers, not "watched"
    (mine,) = svc.my_tables(ana, [code])
    assert not mine.watched and mine.created
    assert svc.player_ids(code) == sorted([ana.player_id, bia.player_id])
    assert svc.player_ids("nope") == []


def test_player_ids_follow_the_waiting_room_then_stay_with_the_match(svc, people):
    """Seats change only before the start: the ids read in the waiting room follow each join
    and removal; once dealt, the same people (one read, kept) even after someone resigns."""
    from pifecacheta.rules import Resign

    ana, bia, caio, _ = people
    code = svc.create_table(ana, PIFE)
    assert svc.player_ids(code) == [ana.player_id]
    svc.join(code, bia)
    svc.join(code, caio)
    assert svc.player_ids(code) == sorted([ana.player_id, bia.player_id, caio.player_id])
    svc.remove_seat(code, ana, 2)
    assert svc.player_ids(code) == sorted([ana.player_id, bia.player_id])
    svc.start(code, ana)
    assert svc.player_ids(code) == sorted([ana.player_id, bia.player_id])
    svc.act(code, bia, Resign(), expected_version=svc.snapshot(code, bia).version)
    assert svc.player_ids(code) == sorted([ana.player_id, bia.player_id])  # her seat stays hers


def test_rows_carry_the_round_and_cacheta_lives(svc, people):
    """The round and each seat's lives (Cacheta) tell two tables of the same friends apart;
    a waiting room has neither."""
    ana, bia, *_ = people
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    (row,) = svc.my_tables(ana)
    assert row.round_number == 0 and row.lives_left == ()
    svc.start(code, ana)
    (row,) = svc.my_tables(bia)
    assert row.round_number == 1 and row.lives_left == (7, 7)
    pife = svc.create_table(bia, PIFE)
    svc.join(pife, ana)
    svc.start(pife, bia)
    row = next(r for r in svc.my_tables(ana) if r.code == pife)
    assert row.round_number == 1 and row.lives_left == ()


def test_a_seat_absent_for_48_hours_puts_the_table_first_for_the_others(svc, people, clock):
    """Seed 000 line 72: after more than 48 hours without a move by the seat to play, the other
    players may end the match (ENCERRAR POR AUSÊNCIA): their row says so (``absence``) and comes
    first, as a move of theirs would; the absent seat's own row is still SUA VEZ."""
    ana, bia, caio, _ = people
    quiet = svc.create_table(ana, PIFE)
    svc.join(quiet, bia)
    svc.start(quiet, ana)  # Ana deals, seat 1 (Bia) has the turn
    clock.advance(minutes=1)
    other = svc.create_table(caio, PIFE)
    svc.join(other, ana)
    svc.start(other, caio)  # Ana (seat 1) has the turn here: SUA VEZ, moved last
    clock.advance(hours=47)
    rows = svc.my_tables(ana)
    assert _codes(rows) == [other, quiet] and not rows[1].absence  # 47 h: not yet
    clock.advance(hours=2)
    rows = svc.my_tables(ana)
    row = next(r for r in rows if r.code == quiet)
    assert row.absence and not row.my_turn and row.turn_name == "Bia"
    assert not next(r for r in rows if r.code == other).absence  # her own turn there
    assert _codes(rows) == [other, quiet]  # both ask something of Ana: by last move
    assert svc.snapshot(quiet, ana).absence_claimable  # the table agrees
    bias = next(r for r in svc.my_tables(bia) if r.code == quiet)
    assert bias.my_turn and not bias.absence  # not against oneself
    # a move by the absent seat takes the claim away again
    svc.act(quiet, bia, Draw(), expected_version=svc.snapshot(quiet, None).version)
    assert not next(r for r in svc.my_tables(ana) if r.code == quiet).absence
