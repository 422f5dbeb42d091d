"""Bots act through the same checked path as people; FIM DA RODADA closes by itself when only
bots still play (seed 000 line 68); delays come from the service's settings."""

from __future__ import annotations

import random
from dataclasses import replace

from pifecacheta.rules import CACHETA_7, PIFE, Draw, LeaveTable, NextRound, Phase, Termination
from pifecacheta.service import TableService

from .helpers import current_turn, give_hand, hidden_match, patch_match, play_human_move


def _v(svc: TableService, code: str) -> int:
    return svc.snapshot(code, None).version


def test_pending_bot_delay_counts_from_the_last_move(db_engine, clock, people) -> None:
    svc = TableService(db_engine, clock=clock, seed_source=lambda: 5, bot_delay=1.2, round_over_delay=4)
    ana = people[0]
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Tito"])
    assert svc.pending_bot_delay(code) is None  # lobby
    svc.start(code, ana)  # seat 1 (Tito) plays first
    assert svc.pending_bot_delay(code) == 1.2
    clock.advance(seconds=0.5)
    assert abs(svc.pending_bot_delay(code) - 0.7) < 1e-9
    clock.advance(seconds=5)
    assert svc.pending_bot_delay(code) == 0
    assert svc.bot_tables() == [code]
    assert svc.bot_step(code)  # draws
    assert svc.bot_step(code)  # discards: Ana's turn
    assert current_turn(db_engine, code) == (Phase.DRAW, 0)
    assert svc.pending_bot_delay(code) is None
    assert not svc.bot_step(code)  # nothing for a bot to do
    log = svc.action_log(code)
    assert [e["actor"] for e in log[-2:]] == ["bot:Tito", "bot:Tito"]
    assert [e["action"]["type"] for e in log[-2:]] == ["draw", "discard"]


def test_bots_finish_a_cacheta_match_after_the_human_is_out(svc: TableService, db_engine, people) -> None:
    """Ana plays without ever going out until she is FORA and leaves; the bots then play the
    match to its end alone, closing each FIM DA RODADA themselves."""
    ana = people[0]
    code = svc.create_table(ana, CACHETA_7)
    svc.add_bots(code, ana, ["Carmen", "Tito"])
    svc.start(code, ana)
    patch_match(db_engine, code, lambda m: replace(m, lives=(1, 2, 2)))  # a short match
    rng = random.Random(3)
    for _ in range(3000):
        m = hidden_match(db_engine, code)
        phase, turn = m.round.phase, m.round.turn
        if phase is Phase.MATCH_OVER:
            break
        if m.lives[0] == 0 and 0 not in m.left and m.outcome is None:
            svc.act(code, ana, LeaveTable(), expected_version=_v(svc, code))
        elif phase is Phase.ROUND_OVER:
            assert m.lives[0] == 0  # Ana never goes out, so every round end costs her a life
            assert svc.bot_step(code)  # only bots play: the round-end screen closes by itself
        elif turn == 0:
            assert play_human_move(svc, db_engine, code, ana, 0, rng, go_out=False)
        else:
            assert svc.bot_step(code)
    else:
        raise AssertionError("the match did not end in 3000 steps")
    snap = svc.snapshot(code, None)
    assert snap.status == "finished" and snap.view.phase is Phase.MATCH_OVER
    assert snap.view.outcome.termination is Termination.LAST_WITH_LIVES
    assert snap.view.outcome.winner in (1, 2)
    assert snap.seats[0].left and not snap.rematch_offered  # a FORA player left (seed 000 line 70)
    assert not svc.bot_step(code) and svc.pending_bot_delay(code) is None
    actors = {e["actor"] for e in svc.action_log(code)}
    assert {"bot:Carmen", "bot:Tito", f"player:{ana.player_id}"} <= actors


def test_bots_never_act_for_humans(svc: TableService, db_engine, people) -> None:
    ana, bia = people[:2]
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    assert svc.pending_bot_delay(code) is None and not svc.bot_step(code)
    svc.act(code, bia, Draw(), expected_version=_v(svc, code))
    assert not svc.bot_step(code) and svc.bot_tables() == []


def test_round_end_waits_for_a_human_who_still_plays(svc: TableService, db_engine, people) -> None:
    """Pife, Tito goes out: PRÓXIMA RODADA is Ana's to press (seed 000 line 68)."""
    ana = people[0]
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Tito"])
    svc.start(code, ana)
    patch_match(db_engine, code, lambda m: give_hand(m, 1, "AH 2H 3H 4S 5S 6S 7C 8C 9C"))
    while current_turn(db_engine, code)[0] is not Phase.ROUND_OVER:
        assert current_turn(db_engine, code)[1] == 1
        assert svc.bot_step(code)
    assert svc.pending_bot_delay(code) is None and not svc.bot_step(code)
    svc.act(code, ana, NextRound(), expected_version=_v(svc, code))
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished" and snap.view.outcome.winner == 1 and snap.rematch_offered
    svc.vote_rematch(code, ana)  # the only human: the rematch starts at once
    assert svc.snapshot(code, ana).status == "playing"
