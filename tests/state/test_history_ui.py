"""The history panel's data (state/history_ui.py) and the tab's ``history`` / ``past_rounds``
vars: catalog keys with names and public cards, newest first; the polite announcement skips the
viewer's own moves; a past round in FIM DA RODADA's shape; the lobby shows nothing."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from _tab import RealTab, use_service
from _take_and_jump import start_take_and_jump

from pifecacheta import i18n
from pifecacheta.rules import CACHETA_7, NextRound
from pifecacheta.service import TableService
from pifecacheta.state import history_ui
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState

HISTORY = TableState.computed_vars["history"]._fget


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    CACHE.clear()
    history_ui._kept.clear()
    return service


def _play(svc: TableService):
    code, who, final, log = start_take_and_jump(svc)
    for seat, action in log:
        svc.act(code, who[seat], action, expected_version=svc.snapshot(code, who[seat]).version)
    return code, who, final, log


def _fill(line, lang: str = "pt") -> str:
    """A line's sentence as the page fills it in (cards as rank + symbol)."""
    card = line.card.rank + line.card.symbol if line.has_card else ""
    discard = line.discard.rank + line.discard.symbol if line.has_discard else ""
    return i18n.text(lang, line.key, name=line.name, other=line.other, card=card, discard=discard)


def test_lines_are_keys_names_and_public_cards_newest_first(svc: TableService) -> None:
    code, who, final, log = _play(svc)
    snap = svc.snapshot(code, who[0])
    ui = history_ui.for_viewer(history_ui.history_ui(svc.history(code), snap), snap.my_seat)
    assert ui.version == snap.version and ui.round_number == 1
    res = final.round.result
    newest, oldest = ui.lines[0], ui.lines[-1]
    assert newest.key == "hist.jump" and newest.name == "Bruno" and newest.other == "Ana"
    assert newest.card.id == str(log[-1][1].card) and newest.discard.id == str(res.plan.discard)
    assert _fill(newest).startswith("Bruno furou a fila com o ")
    assert oldest.key == "hist.round_start_vira" and oldest.name == "Ana" and oldest.has_card
    takes = [x for x in ui.lines if x.key == "hist.take_discard"]
    assert takes and all(x.has_card and x.has_discard for x in takes)
    assert [x.n for x in ui.lines] == list(range(len(ui.lines)))[::-1]
    assert any(x.key == "hist.announce" and _fill(x) == "Bruno está NA BOA" for x in ui.lines)
    assert any(_fill(x, "es").startswith("Bruno tomó ") for x in takes if x.name == "Bruno")
    # the announcement: Ana hears Bruno's jump; Bruno hears Ana's discard, not his own jump
    assert ui.has_latest and ui.latest == newest
    for_bruno = history_ui.for_viewer(ui, 1)
    assert for_bruno.latest.name == "Ana" and for_bruno.latest == ui.lines[1]  # the discard jumped on
    assert history_ui.for_viewer(ui, None).latest == newest  # a spectator hears everything


def test_past_round_has_the_round_over_shape(svc: TableService) -> None:
    code, who, final, log = _play(svc)
    svc.act(code, who[1], NextRound(), expected_version=svc.snapshot(code, who[1]).version)
    snap = svc.snapshot(code, who[0])
    ui = history_ui.history_ui(svc.history(code), snap)
    assert [x.key for x in ui.lines] == ["hist.round_start_vira"] and ui.lines[0].name == "Bruno"
    (past,) = ui.rounds
    res = final.round.result
    assert past.round_number == 1 and past.result_winner == "Bruno" and past.result_out_of_turn
    assert past.result_banner_key == "banner.jump" and past.result_headline_key == "round.went_out"
    assert past.result_taken_key == "round.took_card_from" and past.result_discarder == "Ana"
    assert [[c.id for c in m.cards] for m in past.result_melds] == [
        [str(c) for c in m.cards] for m in res.plan.melds
    ]
    assert [(s.name, s.lives, s.lives_lost) for s in past.seats] == [("Ana", 6, 1), ("Bruno", 7, 0)]


def test_an_earlier_matchs_rounds_follow_the_current_ones(svc: TableService) -> None:
    code, who, final, log = _play(svc)
    svc.act(code, who[1], NextRound(), expected_version=svc.snapshot(code, who[1]).version)
    snap = svc.snapshot(code, who[0])
    (r1,) = svc.history(code).rounds
    # after a REVANCHE: match 2's first round over, match 1's round kept (service/history.py)
    hist = dataclasses.replace(
        svc.history(code), rounds=(dataclasses.replace(r1, match_number=2),), past=(r1,)
    )
    ui = history_ui.history_ui(hist, snap)
    assert [(r.match_number, r.round_number, r.earlier_match, r.record_match) for r in ui.rounds] == [
        (2, 1, False, 0),  # its VERIFICAR / REVER A RODADA ask for the current match
        (1, 1, True, 1),  # match 1's
    ]
    assert ui.rounds[1].result_winner == "Bruno"  # the same result shape as FIM DA RODADA
    assert i18n.text("pt", "hist.match_round_label", m=1, n=1) == "Partida 1 · 1ª rodada"
    assert i18n.text("es", "hist.match_round_label", m=1, n=1) == "Partida 1 · Ronda 1"


def test_a_new_round_keeps_the_projection_of_the_rounds_before_it(svc: TableService) -> None:
    code, who, final, log = _play(svc)
    svc.act(code, who[1], NextRound(), expected_version=svc.snapshot(code, who[1]).version)
    snap = svc.snapshot(code, who[0])
    (r1,) = svc.history(code).rounds
    one = dataclasses.replace(svc.history(code), past=(r1,), past_older=5)
    first = history_ui.history_ui(one, snap)
    assert first.older_rounds == 5 and [r.earlier_match for r in first.rounds] == [False, True]
    kept = history_ui._Projected(one, {s.seat: s.name for s in snap.seats}, "cacheta", first)
    r2 = dataclasses.replace(r1, round_number=2)
    two = dataclasses.replace(one, version=one.version + 1, rounds=(*one.rounds, r2), past_older=6)
    second = history_ui.history_ui(two, snap, kept)
    assert second.rounds is not first.rounds and second.older_rounds == 6
    assert [r.round_number for r in second.rounds] == [2, 1, 1]
    assert second.rounds[1] is first.rounds[0] and second.rounds[2] is first.rounds[1]  # not projected again
    # after a REVANCHE the same summary is an earlier match's round: projected anew (VERIFICAR's match)
    shifted = dataclasses.replace(two, version=two.version + 1, rounds=(), past=(r1, r2))
    third = history_ui.history_ui(shifted, snap, history_ui._Projected(two, kept.names, "cacheta", second))
    assert third.rounds[1] is second.rounds[2]  # already an earlier match's round
    assert third.rounds[0] is not second.rounds[0] and third.rounds[0].earlier_match
    assert third.rounds[0].record_match == r2.match_number and not second.rounds[0].earlier_match


def test_the_tabs_vars_serve_every_viewer_from_one_read(svc: TableService, monkeypatch) -> None:
    code, who, final, log = _play(svc)
    reads: list[str] = []
    real = svc.history
    monkeypatch.setattr(svc, "history", lambda c: reads.append(c) or real(c))
    svc.store.matches.drop(code)
    svc._history._kept.clear()  # as after a restart of the process: nothing kept
    svc._history._replays.clear()
    ana, bruno, spectator = RealTab(code, who[0]), RealTab(code, who[1]), RealTab(code, None)
    h_ana = asyncio.run(HISTORY(ana.state))
    h_bruno = asyncio.run(HISTORY(bruno.state))
    assert reads == [code]  # one replay from the log, then memory for the other tab
    assert h_ana.lines == h_bruno.lines and h_ana.rounds == [] and len(h_ana.lines) > 5
    assert h_ana.latest.name == "Bruno" and h_bruno.latest.name == "Ana"
    asyncio.run(ana.state._refresh_rounds())
    assert len(ana.state.past_rounds) == 1 and ana.state.past_rounds[0].result_winner == "Bruno"
    assert asyncio.run(HISTORY(spectator.state)).lines == []  # no viewer identity yet


def test_lobby_shows_no_history(svc: TableService) -> None:
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, CACHETA_7)
    tab = RealTab(code, ana)
    h = asyncio.run(HISTORY(tab.state))
    assert h.lines == [] and not h.has_latest
