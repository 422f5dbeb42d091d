"""Verifiable deals through the service: commit before the deal, the players' contributions in
it, the seed revealed only once the round is over, a record that checks and fails when forged."""

from __future__ import annotations

import copy
import hashlib
import json
import random

import pytest
from sqlmodel import Session, select

from pifecacheta.bots import bot_action
from pifecacheta.models import GameTable, PendingDeal
from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    Discard,
    Draw,
    NextRound,
    Phase,
    Resign,
    TakeDiscard,
    legal_actions,
    player_view,
)
from pifecacheta.rules.verify_round import verify
from pifecacheta.service import NotSeated, Refusal, TableService
from pifecacheta.service.round_record import RoundNotAvailable

from .helpers import hidden_match


@pytest.fixture
def fair(monkeypatch: pytest.MonkeyPatch, db_engine, clock) -> TableService:
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")
    monkeypatch.delenv("PIFECACHETA_FIXED_SEED", raising=False)
    return TableService(db_engine, clock=clock, bot_delay=0, round_over_delay=0)


def _play_round(svc, engine, code, people, rng, *, rebuild: bool = False) -> None:
    """Carmen's moves for every seat until the round is over; with ``rebuild`` nobody goes out
    (a plain discard instead) before the stock was rebuilt once."""
    for _ in range(600):
        m = hidden_match(engine, code)
        assert m.round is not None
        if m.round.phase is not Phase.DRAW and m.round.phase is not Phase.DISCARD:
            return
        seat = m.round.turn
        action = bot_action("Carmen", player_view(m, seat), rng)
        if rebuild and m.round.rebuilds == 0 and not isinstance(action, Discard | Draw | TakeDiscard):
            action = next(a for a in legal_actions(m, seat) if isinstance(a, Discard | Draw))
        svc.act(code, people[seat], action, expected_version=svc.snapshot(code, people[seat]).version)
    raise AssertionError("the round did not end")


def test_a_round_is_committed_contributed_revealed_and_checks(fair: TableService, db_engine, people) -> None:
    ana, bia, carlos = people[0], people[1], people[2]
    code = fair.create_table(ana, CACHETA_7)  # no louca: nobody goes out before the rebuild
    fair.join(code, bia)
    lobby = fair.snapshot(code, ana).deal
    assert len(lobby.pending) == 64 and lobby.commitment == "" and lobby.seed == ""
    va, vb = "ab" * 32, "cd" * 32
    with pytest.raises(Refusal) as bad:
        fair.contribute(code, ana, lobby.pending, "not hex")
    assert bad.value.code == "bad_contribution"
    with pytest.raises(NotSeated):
        fair.contribute(code, carlos, lobby.pending, va)  # not seated: no say in the deal
    assert fair.contribute(code, ana, lobby.pending, va)
    assert not fair.contribute(code, ana, lobby.pending, vb)  # one value per player: the first
    assert not fair.contribute(code, bia, "0" * 64, vb)  # not the waiting commitment
    assert fair.contribute(code, bia, lobby.pending, vb)
    assert fair.snapshot(code, ana).deal.pending_from == frozenset({0, 1})
    fair.start(code, ana)
    m = hidden_match(db_engine, code)
    assert m.key is not None and m.key.commitment == lobby.pending
    assert m.key.contributions == ((0, bytes.fromhex(va)), (1, bytes.fromhex(vb)))
    seed_hex = m.key.seed.hex()
    playing = fair.snapshot(code, bia)
    assert playing.deal.commitment == lobby.pending and playing.deal.seed == "" and playing.deal.pending == ""
    assert seed_hex not in repr(playing)
    with pytest.raises(RoundNotAvailable):
        fair.round_record(code, ana, 1)  # not over: the seed is still secret
    _play_round(fair, db_engine, code, people, random.Random(4), rebuild=True)
    over = fair.snapshot(code, carlos)  # even a spectator sees the revealed seed
    assert over.deal.seed == seed_hex and hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() == lobby.pending
    assert over.deal.pending and over.deal.pending != lobby.pending  # the next deal's, fresh
    with pytest.raises(NotSeated):
        fair.round_record(code, carlos, 1)  # the record holds every hand: the table's people only
    record = json.loads(json.dumps(fair.round_record(code, bia, 1)))
    assert record["played"]["rebuilds"], "the round was meant to rebuild the stock"
    checks = verify(record)
    assert all(ok for _, ok, _ in checks), checks
    assert {"commitment", "deal", "rebuild 1", "result", "actions"} <= {n for n, _, _ in checks}
    assert fair.round_checks(code, ana, 1) == checks
    assert fair.record_rounds(code, ana) == [1]


def _forged(record, fn):
    r = copy.deepcopy(record)
    fn(r)
    return [n for n, ok, _ in verify(r) if not ok]


def test_a_forged_record_fails(fair: TableService, db_engine, people) -> None:
    ana, bia = people[0], people[1]
    code = fair.create_table(ana, CACHETA_7)
    fair.join(code, bia)
    fair.start(code, ana)
    _play_round(fair, db_engine, code, people, random.Random(9))
    record = fair.round_record(code, ana, 1)
    assert all(ok for _, ok, _ in verify(record))

    def seed_byte(r):
        raw = bytearray.fromhex(r["deal"]["seed"])
        raw[5] ^= 1
        r["deal"]["seed"] = raw.hex()

    assert {"commitment", "deal"} <= set(_forged(record, seed_byte))
    discards = [i for i, a in enumerate(record["actions"]) if a["action"]["type"] == "discard"]
    held = {c for h in record["played"]["hands"] for c in h}
    not_held = next(c for c in record["played"]["stock"] if c not in held)

    def one_action(r):
        r["actions"][discards[0]]["action"]["card"] = not_held

    assert _forged(record, one_action) == ["actions"]

    def contribution(r):
        r["deal"]["contributions"] = [{"seat": 0, "value": "00" * 32}]

    assert "deal" in _forged(record, contribution)
    # the next round is dealt from its own fresh seed, unrelated to the revealed one
    snap = fair.snapshot(code, ana)
    fair.act(code, ana, NextRound(), expected_version=snap.version)
    m2 = hidden_match(db_engine, code)
    assert m2.key is not None and m2.key.commitment == snap.deal.pending
    assert m2.key.seed.hex() != record["deal"]["seed"]


def test_integer_seeded_services_and_old_tables_stay_as_they_were(
    svc: TableService, db_engine, people
) -> None:
    ana, bia = people[0], people[1]
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    assert svc.snapshot(code, ana).deal.pending == ""
    svc.start(code, ana)
    m = hidden_match(db_engine, code)
    assert m.key is None and m.seed == 12345  # dealt as the tests plan it
    assert svc.snapshot(code, ana).deal.commitment == ""


def test_a_table_dealt_before_verifiable_deals_gets_a_key_at_its_next_round(
    monkeypatch: pytest.MonkeyPatch, db_engine, clock, people
) -> None:
    old = TableService(db_engine, clock=clock, seed_source=lambda: 777, bot_delay=0, round_over_delay=0)
    ana, bia = people[0], people[1]
    code = old.create_table(ana, CACHETA_7)
    old.join(code, bia)
    old.start(code, ana)  # stored as an old table is: integer-seeded round, no pending deal
    assert hidden_match(db_engine, code).key is None
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")  # the new code takes over the same database
    new = TableService(db_engine, clock=clock, bot_delay=0, round_over_delay=0)
    assert new.snapshot(code, ana).deal.commitment == ""  # nothing to show for the old round
    _play_round(new, db_engine, code, people, random.Random(2))
    over = new.snapshot(code, ana)
    assert over.deal.seed == "" and len(over.deal.pending) == 64  # committed to the next round
    with pytest.raises(RoundNotAvailable):
        new.round_record(code, ana, 1)  # no record of an integer-seeded round
    assert len(new.round_steps(code, ana, 1)) > 1  # its replay works all the same
    new.act(code, ana, NextRound(), expected_version=over.version)
    m = hidden_match(db_engine, code)
    assert m.round_number == 2 and m.key is not None and m.key.commitment == over.deal.pending
    assert new.snapshot(code, ana).deal.commitment == over.deal.pending
    with Session(db_engine) as s:  # the waiting deal was spent by the deal, none waits in play
        t = s.exec(select(GameTable).where(GameTable.code == code)).one()
        assert s.exec(select(PendingDeal).where(PendingDeal.table_id == t.id)).all() == []


def test_an_out_of_turn_go_out_checks_too(fair: TableService, db_engine, people) -> None:
    """Pife's louca: the winner went out with the card just discarded (seed 000 line 60)."""
    ana, bia = people[0], people[1]
    for n in range(12):
        code = fair.create_table(ana, PIFE)
        fair.join(code, bia)
        fair.start(code, ana)
        _play_round(fair, db_engine, code, people, random.Random(n))
        record = fair.round_record(code, ana, 1)
        if record["played"]["result"]["out_of_turn"]:
            checks = verify(record)
            assert all(ok for _, ok, _ in checks), checks
            return
    pytest.skip("no out-of-turn go-out in 12 rounds")


def test_the_stand_alone_script_passes_a_record_and_fails_a_forged_one(
    fair: TableService, db_engine, people, tmp_path
) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "verify_round.py"
    ana, bia = people[0], people[1]
    code = fair.create_table(ana, CACHETA_7)
    fair.join(code, bia)
    fair.start(code, ana)
    _play_round(fair, db_engine, code, people, random.Random(5))
    record = fair.round_record(code, bia, 1)

    def run(r) -> subprocess.CompletedProcess[str]:
        path = tmp_path / "record.json"
        path.write_text(json.dumps(r), encoding="utf-8")
        return subprocess.run(
            [sys.executable, str(script), str(path)], capture_output=True, text=True, timeout=60
        )

    good = run(record)
    assert good.returncode == 0 and "OK   deal" in good.stdout, good.stdout + good.stderr
    forged = copy.deepcopy(record)
    draws = [a for a in forged["actions"] if a["action"]["type"] == "draw"]
    draws[1]["action"] = {"type": "take_discard"}  # one action changed: another card in the hand
    bad = run(forged)
    assert bad.returncode == 1 and "FAIL" in bad.stdout, bad.stdout


def _failed(record) -> list[str]:
    return [n for n, ok, _ in verify(record) if not ok]


def _renumbered(record, actions):
    r = copy.deepcopy(record)
    r["actions"] = [{**a, "version": r["deal"]["version"] + 1 + i} for i, a in enumerate(actions)]
    return r


@pytest.mark.parametrize("rules", [CACHETA_7, PIFE])
def test_a_missing_extra_or_moved_action_fails(fair: TableService, db_engine, people, rules) -> None:
    """Every single deletion, every swap of two neighbours and every duplicate fails, as logged
    (a gap in the versions) and renumbered (the card flow and the turns)."""
    ana, bia = people[0], people[1]
    code = fair.create_table(ana, rules)
    fair.join(code, bia)
    fair.start(code, ana)
    _play_round(fair, db_engine, code, people, random.Random(3), rebuild=True)  # a long round
    record = json.loads(json.dumps(fair.round_record(code, ana, 1)))
    assert _failed(record) == []
    acts = record["actions"]
    steals = {"announce_one_away"}  # NA BOA moves no card: only its version tells it is gone
    kinds: set[str] = set()
    for i, a in enumerate(acts):
        gone = acts[:i] + acts[i + 1 :]
        assert _failed({**record, "actions": gone}), f"deleting action {i} passed"
        if a["action"]["type"] not in steals:
            assert _failed(_renumbered(record, gone)), f"deleting action {i} (renumbered) passed"
        kinds.add(a["action"]["type"])
        twice = acts[: i + 1] + [a] + acts[i + 1 :]
        assert _failed({**record, "actions": twice}), f"duplicating action {i} passed"
        if a["action"]["type"] not in steals:
            assert _failed(_renumbered(record, twice)), f"duplicating action {i} (renumbered) passed"
    for i in range(len(acts) - 1):
        swapped = acts[:i] + [acts[i + 1], acts[i]] + acts[i + 2 :]
        assert _failed({**record, "actions": swapped}), f"swapping actions {i}, {i + 1} passed"
        if not steals & {acts[i]["action"]["type"], acts[i + 1]["action"]["type"]}:
            assert _failed(_renumbered(record, swapped)), f"swapping {i}, {i + 1} (renumbered) passed"
    assert {"draw", "discard"} <= kinds, kinds


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("not json {", "cannot read"),
        ("[1, 2]", "JSON list"),
        ('{"schema": 3}', "not a pifecacheta.round-record/1"),
        (
            '{"schema": "pifecacheta.round-record/1", "deal": {"construction": "pifecacheta-deal-1"}}',
            "malformed",
        ),
    ],
)
def test_the_script_refuses_a_file_that_is_no_record_in_one_line(tmp_path, text, why) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "verify_round.py"
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, str(script), str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "Traceback" not in out.stderr + out.stdout, out.stderr
    fails = [line for line in out.stdout.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 1 and why in fails[0], out.stdout


def test_a_decided_match_commits_to_the_rematch_only_when_one_can_follow(
    fair: TableService, db_engine, people
) -> None:
    """Pife's go-out ends the match: the waiting commitment is the REVANCHE's first deal (seed
    000 line 70); after a resignation no deal follows, so nothing is committed."""
    ana, bia = people[0], people[1]
    code = fair.create_table(ana, PIFE)
    fair.join(code, bia)
    fair.start(code, ana)
    _play_round(fair, db_engine, code, people, random.Random(1))
    snap = fair.snapshot(code, ana)
    assert hidden_match(db_engine, code).outcome is not None and len(snap.deal.pending) == 64
    if snap.status != "finished":
        fair.act(code, ana, NextRound(), expected_version=snap.version)
    fair.vote_rematch(code, ana)
    fair.vote_rematch(code, bia)
    m = hidden_match(db_engine, code)
    assert m.key is not None and m.key.commitment == snap.deal.pending  # spent by the REVANCHE
    fair.act(code, bia, Resign(), expected_version=fair.snapshot(code, bia).version)
    over = fair.snapshot(code, ana)
    assert over.deal.seed == m.key.seed.hex() and over.deal.pending == ""
