"""No player secret, table seed or hidden card in any log line (issue: secrets at rest and in logs).

A whole Cacheta match with two people and two bots, refusals, an illegal bot move, a sweep
and a restart of the service are played with every logger captured at DEBUG; then every
line (message, arguments and traceback) is searched for each player's secret and its hash,
the match seed, and the string forms of cards.
"""

from __future__ import annotations

import logging
import random
import re

import pytest

from pifecacheta.rules import CACHETA_7, Discard, Phase, full_deck
from pifecacheta.service import Refusal, TableService
from pifecacheta.service import bots as bots_module
from pifecacheta.service.identity import hash_secret

from .helpers import hidden_match, play_human_move

CARD = re.compile(r"Card\.parse|\b(?:10|[2-9AJQK])[CDHS]'?(?![A-Za-z0-9_-])")


def _lines(records: list[logging.LogRecord]) -> list[str]:
    out = []
    for r in records:
        text = r.getMessage()
        if r.exc_info:
            text += "\n" + logging.Formatter().formatException(r.exc_info)
        out.append(text)
    return out


def test_a_whole_match_logs_no_secret_seed_or_card(db_engine, clock, caplog, monkeypatch) -> None:
    seed = 8_317_465_290_113  # a seed whose digits cannot be mistaken for a count or a time
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")  # verifiable deals, as in play: round seeds too
    svc = TableService(db_engine, clock=clock, seed_source=lambda: seed, bot_delay=0, round_over_delay=0)
    ana, bia = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bia")
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.add_bots(code, ana, ["Carmen", "Tito"])
    rng = random.Random(4)
    real_policy = bots_module.bot_action
    forged_once = []

    def policy(name, view, r):  # once, a bot "chooses" a card it does not hold: refused, logged
        if not forged_once and view.phase is Phase.DISCARD:
            held = set(view.hand)
            forged_once.append(next(c for c in full_deck() if c not in held))
            return Discard(forged_once[0])
        return real_policy(name, view, r)

    monkeypatch.setattr(bots_module, "bot_action", policy)
    caplog.set_level(logging.DEBUG)
    svc.start(code, ana)
    people = {0: ana, 1: bia}
    for _ in range(4000):
        m = hidden_match(db_engine, code)
        if m.round.phase is Phase.MATCH_OVER:
            break
        turn = m.round.turn
        if m.round.phase is Phase.ROUND_OVER:
            if not svc.bot_step(code):
                play_human_move(svc, db_engine, code, ana, 0, rng)
        elif turn in people:
            with pytest.raises(Refusal):  # a stale click, refused
                svc.act(code, people[turn], Discard(m.round.hands[turn][0]), expected_version=-1)
            play_human_move(svc, db_engine, code, people[turn], turn, rng)
        else:
            svc.bot_step(code)
        svc.sweep()
    else:
        raise AssertionError("the match did not end in 4000 steps")
    assert forged_once, "the forged bot move was tried"
    TableService(db_engine, clock=clock).snapshot(code, None)  # a restart reads it back
    lines = _lines(caplog.records)
    assert any("illegal" in line for line in lines)  # the refused bot move was logged ...
    secrets_ = [ana.secret, bia.secret, hash_secret(ana.secret), hash_secret(bia.secret), str(seed)]
    round_seeds = [r["action"]["key"]["seed"] for r in svc.action_log(code) if r["action"].get("key")]
    assert len(round_seeds) >= 2, "the match was dealt verifiably, round by round"
    secrets_ += round_seeds
    for line in lines:
        for secret in secrets_:
            assert secret not in line, line
        assert not CARD.search(line.replace(code, "")), line  # ... without its card
