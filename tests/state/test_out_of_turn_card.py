"""FIM DA RODADA after an out-of-turn go-out (louca / furou a fila) names the card taken."""

from __future__ import annotations

import pytest
from _planned import act, play_planned

from pifecacheta.rules import CACHETA_7, PIFE, Discard
from pifecacheta.state.view_model import table_ui


@pytest.fixture
def svc(db_url):
    from pifecacheta import db, service

    return service.TableService(db.init_db(db_url), bot_delay=0)


def _play(svc, monkeypatch, rules, out_of_turn):
    code, who, final, log = play_planned(svc, monkeypatch, rules, out_of_turn=out_of_turn)
    return code, who[0], final, log


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
    code, who, final, log = play_planned(
        svc, monkeypatch, CACHETA_7, out_of_turn=True, announce=True, max_actions=60, upto=-1
    )
    winner = final.round.result.winner
    ui = table_ui(svc.snapshot(code, who[0]))  # just before the discard the announced seat goes out on
    assert not ui.round_over and ui.seats[winner].announced
    seat, last = log[-1]
    act(svc, code, who[seat], last)
    ui = table_ui(svc.snapshot(code, who[0]))
    assert ui.round_over and ui.result_out_of_turn
    assert not any(s.announced for s in ui.seats)
