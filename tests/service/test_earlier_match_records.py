"""Records and replays of an earlier match's rounds after REVANCHE (seed 000 line 70).

The history keeps the earlier matches' rounds (``RoundSummary.match_number``); VERIFICAR and
REVER A RODADA of those rounds replay that match from its deal row in the action log, with the
seed its REVANCHE row logged (``ended_seed``) or its verifiable keys.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pifecacheta.rules import PIFE, Phase
from pifecacheta.rules.verify_round import verify
from pifecacheta.service import NotSeated, TableService
from pifecacheta.service.round_record import RoundNotAvailable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _planner import play_pife_to_the_end  # noqa: E402


def _two_matches(svc: TableService, people) -> tuple[str, object]:
    """A Pife table of Ana and Bia: a whole match, REVANCHE, a whole second match. Returns the
    code and Ana's view at the end of the first match's round (before the REVANCHE)."""
    ana, bia = people[:2]
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    who = {0: ana, 1: bia}
    play_pife_to_the_end(svc, code, who)
    first_end = svc.snapshot(code, ana).view
    svc.vote_rematch(code, ana)
    svc.vote_rematch(code, bia)
    play_pife_to_the_end(svc, code, who)
    return code, first_end


def test_the_earlier_matchs_round_replays_to_how_it_ended(svc: TableService, people) -> None:
    svc.store.seed_source = iter(range(7, 100)).__next__  # each match its own integer seed
    code, first_end = _two_matches(svc, people)
    ana = people[0]
    earlier = svc.round_steps(code, ana, 1, 1)
    current = svc.round_steps(code, ana, 1)
    assert svc.round_steps(code, ana, 1, 2) == current  # the last match is the current one
    assert earlier[0].action is None and earlier[0].view.hand != current[0].view.hand  # its own deal
    last = earlier[-1].view
    assert last.phase is Phase.ROUND_OVER and last.result == first_end.result
    assert last.hand == first_end.hand and last.discard_pile == first_end.discard_pile
    with pytest.raises(RoundNotAvailable):
        svc.round_record(code, ana, 1, 1)  # an integer-seeded deal has no record, as before
    for match in (0, 3):
        with pytest.raises(RoundNotAvailable):
            svc.round_steps(code, ana, 1, match)  # no such match
    with pytest.raises(NotSeated):
        svc.round_steps(code, people[2], 1, 1)  # the table's people only


@pytest.fixture
def fair(monkeypatch: pytest.MonkeyPatch, db_engine, clock) -> TableService:
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")
    monkeypatch.delenv("PIFECACHETA_FIXED_SEED", raising=False)
    return TableService(db_engine, clock=clock, bot_delay=0, round_over_delay=0)


def test_the_earlier_matchs_verifiable_round_has_its_record(fair: TableService, people) -> None:
    code, _ = _two_matches(fair, people)
    ana = people[0]
    assert fair.record_rounds(code, ana, 1) == [1] and fair.record_rounds(code, ana) == [1]
    old, new = fair.round_record(code, ana, 1, 1), fair.round_record(code, ana, 1)
    assert (old["match_number"], new["match_number"]) == (1, 2)
    assert old["deal"]["seed"] != new["deal"]["seed"] and old["actions"] != new["actions"]
    assert all(ok for _, ok, _ in verify(old)) and fair.round_checks(code, ana, 1, 1) == verify(old)
    assert [a["version"] for a in old["actions"]][-1] < new["deal"]["version"]  # the first match's rows
