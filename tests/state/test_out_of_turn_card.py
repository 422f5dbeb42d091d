"""FIM DA RODADA after an out-of-turn go-out (louca / furou a fila) names the card taken."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pifecacheta.rules import CACHETA_7, PIFE, Discard
from pifecacheta.state.view_model import table_ui

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _planner import find_seed  # noqa: E402


@pytest.fixture
def svc(tmp_path):
    from pifecacheta import db, service

    return service.TableService(db.init_db(f"sqlite:///{tmp_path / 't.db'}"), bot_delay=0)


def _play(svc, monkeypatch, rules, out_of_turn):
    seed, final, log = find_seed(rules, 2, out_of_turn=out_of_turn, max_actions=40)
    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", str(seed))
    ana, bruno = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, rules)
    svc.join(code, bruno)
    svc.start(code, ana)
    who = {0: ana, 1: bruno}
    for seat, action in log:
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, who[seat]).version)
    return code, ana, final, log


def test_louca_result_shows_the_discard_taken(svc, monkeypatch):
    code, ana, final, log = _play(svc, monkeypatch, PIFE, out_of_turn=True)
    seat, last = log[-1]
    assert isinstance(last, Discard) and final.round.result.out_of_turn
    assert final.round.result.winner != seat  # someone else went out on that discard
    for viewer in (ana, None):  # a player and a spectator see the same public card
        ui = table_ui(svc.snapshot(code, viewer))
        assert ui.result_out_of_turn and ui.result_has_taken
        assert ui.result_taken.id == str(last.card)
        assert ui.result_discarder == ui.seats[seat].name != ""  # whose discard it was


def test_normal_go_out_shows_no_taken_card(svc, monkeypatch):
    code, ana, _final, _log = _play(svc, monkeypatch, CACHETA_7, out_of_turn=False)
    ui = table_ui(svc.snapshot(code, ana))
    assert ui.has_result and not ui.result_out_of_turn and not ui.result_has_taken


def test_na_boa_badge_is_shown_while_the_round_is_played_not_on_fim_da_rodada(svc, monkeypatch):
    """Seed 000 line 64: NA BOA marks a seat one card away while the round is played; once the
    round is over (here that seat jumped the queue) the seat panels drop the badge."""
    seed, final, log = find_seed(CACHETA_7, 2, out_of_turn=True, max_actions=60, announce=True)
    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", str(seed))
    who = {0: svc.identify(None, None, "Ana"), 1: svc.identify(None, None, "Bruno")}
    code = svc.create_table(who[0], CACHETA_7)
    svc.join(code, who[1])
    svc.start(code, who[0])
    winner = final.round.result.winner
    for n, (seat, action) in enumerate(log):
        if n == len(log) - 1:  # just before the discard the announced seat goes out on
            ui = table_ui(svc.snapshot(code, who[0]))
            assert not ui.round_over and ui.seats[winner].announced
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, who[seat]).version)
    ui = table_ui(svc.snapshot(code, who[0]))
    assert ui.round_over and ui.result_out_of_turn
    assert not any(s.announced for s in ui.seats)
