"""The replay of a finished round: one step per action, each the viewer's own view of that
moment, with nothing of another hand that the viewer did not see in the round."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from pifecacheta.rules import CACHETA_7, Card, Phase, player_view
from pifecacheta.service import NotSeated, TableService
from pifecacheta.service.round_record import RoundNotAvailable
from pifecacheta.state.replay import step_ui

from .helpers import hidden_match
from .test_fair_deal import _play_round


@pytest.fixture
def fair(monkeypatch: pytest.MonkeyPatch, db_engine, clock) -> TableService:
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")
    monkeypatch.delenv("PIFECACHETA_FIXED_SEED", raising=False)
    return TableService(db_engine, clock=clock, bot_delay=0, round_over_delay=0)


def _cards_in(data) -> set[str]:
    """Every card id ("7H", "7H'") inside a StepUi's dict form."""
    out: set[str] = set()
    if isinstance(data, dict):
        if "id" in data and "rank" in data and data["id"]:
            out.add(data["id"])
        for v in data.values():
            out |= _cards_in(v)
    elif isinstance(data, list):
        for v in data:
            out |= _cards_in(v)
    return out


def test_the_replay_shows_what_the_viewer_saw(fair: TableService, db_engine, people) -> None:
    ana, bia, caio = people[0], people[1], people[2]
    code = fair.create_table(ana, CACHETA_7)
    fair.join(code, bia)
    fair.start(code, ana)
    deal = hidden_match(db_engine, code)
    with pytest.raises(RoundNotAvailable):
        fair.round_steps(code, ana, 1)  # no replay of a round in play
    _play_round(fair, db_engine, code, people, random.Random(3))
    final = hidden_match(db_engine, code)
    assert final.round is not None and final.round.phase is Phase.ROUND_OVER
    with pytest.raises(NotSeated):
        fair.round_steps(code, caio, 1)
    steps = fair.round_steps(code, ana, 1)
    log = [r for r in fair.action_log(code) if r["action"]["type"] not in ("create", "join", "start")]
    assert len(steps) == len(log) + 1 and steps[0].action is None  # the deal, then one per action
    assert steps[0].view.hand == deal.round.hands[0] and steps[0].view.seat == 0
    assert steps[-1].view == player_view(final, 0)
    # what Ana could see of Bia's cards: the lixo, the pick-ups, the vira and the winner's melds
    public: set[Card] = set()
    for st in steps:
        v = st.view
        public |= set(v.discard_pile) | {c for p in v.picked_up for c in p}
        if v.vira is not None:
            public.add(v.vira)
        if v.result is not None:
            public |= {c for m in v.result.plan.melds for c in m.cards}
            if v.result.plan.discard is not None:
                public.add(v.result.plan.discard)
    names = ["Ana", "Bia"]
    before = None
    for st in steps:
        ui = dataclasses.asdict(step_ui(st.view, before, st.seat, st.action, names))
        shown = _cards_in(ui)
        own = {str(c) for c in st.view.hand}
        assert {c["id"] for c in ui["hand"]} == own
        others = shown - own - {str(c) for c in public}
        assert not others, f"the replay shows cards Ana never saw: {sorted(others)}"
        if st.action is not None and st.action["type"] == "draw" and st.seat == 1:
            assert not ui["has_card"]  # Bia's draw from the stock is never named
        before = st.view
    assert json.dumps(dataclasses.asdict(step_ui(steps[-1].view, None, None, None, names)))  # JSON-safe
    last = step_ui(steps[-1].view, steps[-2].view, steps[-1].seat, steps[-1].action, names)
    assert last.winner in names and last.melds
