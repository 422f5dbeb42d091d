"""The public move history (service/history.py): a scripted Cacheta round with takes from the
lixo, a NA BOA and a queue jump, played through the service and checked against its action log;
the next round; a cold replay equal to the live one; refusals and the lobby."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from pifecacheta.rules import (
    CACHETA_7,
    AnnounceOneAway,
    Discard,
    Draw,
    GoOut,
    NextRound,
    TakeDiscard,
    apply,
    new_match,
)
from pifecacheta.service import HistoryEvent, MatchHistory, RoundSummary, TableNotFound, TableService
from pifecacheta.service.history import KINDS, step_events

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _history_plan import find_take_and_jump  # noqa: E402
from _planner import play_pife_to_the_end  # noqa: E402


def _act(svc: TableService, code: str, who, action) -> None:
    svc.act(code, who, action, expected_version=svc.snapshot(code, who).version)


@pytest.fixture
def scripted(svc: TableService, monkeypatch):
    """Ana (0) and Bruno (1) play the planned round to its queue jump, asking for the history
    after every move as a table page does. Returns (code, who, final match, log, histories)."""
    seed, final, log = find_take_and_jump(CACHETA_7, max_actions=30)
    who = {0: svc.identify(None, None, "Ana"), 1: svc.identify(None, None, "Bruno")}
    svc.store.seed_source = lambda: seed
    code = svc.create_table(who[0], CACHETA_7)
    svc.join(code, who[1])
    svc.start(code, who[0])
    seen = [svc.history(code)]
    for seat, action in log:
        _act(svc, code, who[seat], action)
        seen.append(svc.history(code))
    return code, who, final, log, seen


def _expected(final, log) -> list[tuple]:
    """The events the planned log must give, worked out from the engine (hidden state allowed
    in a test): (kind, seat, card, discard, other)."""
    m = new_match(final.rules, final.seats, seed=final.seed)
    out: list[tuple] = [("round_start", m.dealer, m.round.vira, None, None)]
    turn: list = []
    for seat, action in log:
        before = m
        m = apply(m, seat, action)
        if isinstance(action, Draw):
            turn = ["draw", seat, None]
        elif isinstance(action, TakeDiscard):
            turn = ["take", seat, before.round.discard_pile[-1]]
        elif isinstance(action, Discard):
            out.append((turn[0], turn[1], turn[2], action.card, None))
            res = m.round.result
            if res is not None and res.out_of_turn:
                out.append(("jump", res.winner, action.card, res.plan.discard, seat))
        elif isinstance(action, GoOut):
            out.append((turn[0] + "_out", turn[1], turn[2], m.round.result.plan.discard, None))
        elif isinstance(action, AnnounceOneAway):
            out.append(("announce", seat, None, None, None))
    assert m.to_dict() == final.to_dict()
    return out


def _shape(events) -> list[tuple]:
    return [(e.kind, e.seat, e.card, e.discard, e.other) for e in events]


def test_scripted_round_in_words_matches_the_action_log(svc: TableService, scripted) -> None:
    code, who, final, log, seen = scripted
    h = seen[-1]
    assert isinstance(h, MatchHistory) and h.round_number == 1
    assert _shape(h.events) == _expected(final, log)
    kinds = [e.kind for e in h.events]
    assert "take" in kinds and "announce" in kinds and kinds[-1] == "jump"
    # each event is dated by its log row: a turn by its last part (the discard)
    rows = [r for r in svc.action_log(code) if r["action"]["type"] not in ("create", "join")]
    assert rows[0]["action"]["type"] == "start" and h.events[0].at == rows[0]["at"]
    moves = rows[1:]
    assert len(moves) == len(log)
    by_part = iter([e for e in h.events[1:] if e.kind != "jump"])
    i = 0
    while i < len(moves):
        kind = moves[i]["action"]["type"]
        ev = next(by_part)
        if kind in ("draw", "take_discard"):
            assert ev.seat == moves[i]["seat"] and ev.at == moves[i + 1]["at"]
            assert ev.discard is not None and str(ev.discard) == moves[i + 1]["action"]["card"]
            i += 2
        else:
            assert kind == "announce_one_away" and ev.kind == "announce" and ev.at == moves[i]["at"]
            i += 1
    assert h.events[-1].at == moves[-1]["at"]
    # the round's result is kept: who went out, the card jumped on, lives after the round
    (summary,) = h.rounds
    assert isinstance(summary, RoundSummary)
    res = final.round.result
    assert summary.result == res and summary.taken == h.events[-1].card == log[-1][1].card
    assert summary.lives == final.lives and summary.lives[res.discarder] == CACHETA_7.lives - 1


def test_history_grows_move_by_move_and_a_cold_replay_agrees(svc: TableService, db_engine, scripted) -> None:
    code, who, final, log, seen = scripted
    versions = [h.version for h in seen]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert seen[0].events[0].kind == "round_start" and len(seen[0].events) == 1
    for a, b in zip(seen, seen[1:], strict=False):
        # earlier lines never change, except the open turn that gets its discard
        assert list(b.events[: len(a.events) - 1]) == list(a.events[: len(a.events) - 1])
    # while the turn is on, the line says only the draw / take (no card drawn from the stock)
    first_draw = seen[1].events[-1]
    assert first_draw.kind == log[0][1].type.replace("take_discard", "take") and first_draw.discard is None
    assert svc.history_cached(code, seen[-1].version) == seen[-1]
    assert svc.history_cached(code, seen[-1].version + 1) is None
    fresh = TableService(db_engine, bot_delay=0)  # another process: replays the log from the deal
    assert fresh.history_cached(code, 0) is None
    assert fresh.history(code) == seen[-1]


def test_next_round_starts_new_lines_and_keeps_the_past_rounds(svc: TableService, scripted) -> None:
    code, who, final, log, seen = scripted
    _act(svc, code, who[1], NextRound())
    h = svc.history(code)
    assert h.round_number == 2
    (start,) = h.events
    assert start.kind == "round_start" and start.round_number == 2 and start.seat == 1  # the next dealer
    assert start.card is not None  # the vira is public
    assert [r.round_number for r in h.rounds] == [1] and h.rounds == seen[-1].rounds
    _act(svc, code, who[0], Draw())
    assert [e.kind for e in svc.history(code).events] == ["round_start", "draw"]


def test_lobby_and_unknown_table(svc: TableService, people) -> None:
    code = svc.create_table(people[0], CACHETA_7)
    h = svc.history(code)
    assert h.events == () and h.rounds == () and h.version == 0
    with pytest.raises(TableNotFound):
        svc.history("no-such-table")
    with pytest.raises(TableNotFound):
        svc.older_rounds("no-such-table")
    assert "no-such-table" not in svc._history._table_locks  # a forged code keeps nothing


def test_resign_and_the_winner_are_told(svc: TableService, people) -> None:
    ana, bia = people[0], people[1]
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    from pifecacheta.rules import Resign

    _act(svc, code, ana, Resign())
    kinds = [(e.kind, e.seat) for e in svc.history(code).events]
    assert kinds == [("round_start", 0), ("resign", 0), ("won", 1)]


def test_values_hold_no_secret_field_and_views_must_be_spectators() -> None:
    """The values handed out have no field for a hand, the stock or the seed; the words are
    read from spectator views only."""
    fields = {f.name for cls in (HistoryEvent, RoundSummary, MatchHistory) for f in dataclasses.fields(cls)}
    assert not fields & {"hand", "hands", "stock", "seed", "match", "taken_by_draw"}
    assert {"card", "discard"} <= fields
    assert {"draw", "take", "jump", "louca", "announce", "round_start", "out", "won"} <= KINDS
    from pifecacheta.rules import player_view, spectator_view

    m = new_match(CACHETA_7, 2, seed=3)
    with pytest.raises(ValueError):
        step_events(player_view(m, 1), spectator_view(m), "draw", 1, m_time())


def m_time():
    from datetime import UTC, datetime

    return datetime(2026, 1, 1, tzinfo=UTC)


def test_a_match_rewritten_outside_the_service_tells_nothing_false(
    svc: TableService, db_engine, people, caplog
) -> None:
    """A log that does not lead to the stored match (rewritten by hand): the history restarts
    there with no event instead of naming cards of a game that did not happen; later moves are
    told as usual."""
    from .helpers import give_hand, patch_match

    ana, bia = people[0], people[1]
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    _act(svc, code, bia, Draw())
    patch_match(db_engine, code, lambda m: give_hand(m, 0, "AH 2H 3H 4C 4D 4S 9S 10S JS"))
    fresh = TableService(db_engine, bot_delay=0)
    with caplog.at_level("WARNING"):
        assert fresh.history(code).events == ()
    assert "does not replay" in caplog.text
    v = fresh.snapshot(code, bia).view
    fresh.act(code, bia, Discard(v.hand[0]), expected_version=fresh.snapshot(code, bia).version)
    (only,) = fresh.history(code).events
    assert only.kind == "discard" and only.seat == 1 and only.discard == v.hand[0]


def test_own_commits_feed_the_history_without_reading_the_database(svc: TableService, people) -> None:
    """After this process's own move, the kept replay takes the move from the commit (no
    read); the result equals a cold replay by a new service from the database."""
    from pifecacheta.rules import Draw
    from pifecacheta.service import store as store_module

    ana, bia = people[0], people[1]
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.start(code, ana)
    svc.history(code)  # the replay is kept from here on
    reads = []
    real_read = store_module.Store.read

    def counting_read(self):
        reads.append(1)
        return real_read(self)

    turn = svc.snapshot(code, None).view.turn
    mover = (ana, bia)[turn]
    _act(svc, code, mover, Draw())
    hand = svc.snapshot(code, mover).view.hand
    store_module.Store.read = counting_read
    try:
        svc.history(code)  # a table page asks after each change
        svc.act(code, mover, Discard(hand[0]), expected_version=svc.snapshot(code, mover).version)
        before = len(reads)  # the snapshot above read; the history below must not
        warm = svc.history(code)
    finally:
        store_module.Store.read = real_read
    assert len(reads) == before  # the discard came from the commit, not from a read
    cold = TableService(svc.store.engine).history(code)
    assert warm == cold and warm.events[-1].kind == "draw" and warm.events[-1].discard is not None


def _pife_table(svc: TableService, ana, bia) -> tuple[str, dict]:
    """A started Pife table of ``ana`` (seat 0) and ``bia`` (1), dealt from seeds 7, 8, ...:
    (code, seat -> identity)."""
    from pifecacheta.rules import PIFE

    svc.store.seed_source = iter(range(7, 100)).__next__
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    return code, {0: ana, 1: bia}


def test_a_rematch_keeps_the_earlier_matchs_rounds(svc: TableService, db_engine, people) -> None:
    ana, bia = people[:2]

    code, who = _pife_table(svc, ana, bia)
    play_pife_to_the_end(svc, code, who)
    first = svc.history(code)
    assert len(first.rounds) == 1 and first.rounds[0].match_number == 1 and first.past == ()
    svc.vote_rematch(code, ana)
    svc.vote_rematch(code, bia)  # REVANCHE (seed 000 line 70): a new match, new seed
    after = svc.history(code)
    assert after.rounds == () and after.round_number == 1
    assert after.past == first.rounds  # the first match's round is still told
    play_pife_to_the_end(svc, code, who)
    second = svc.history(code)
    assert [r.match_number for r in second.past] == [1] and second.past == first.rounds
    assert [r.match_number for r in second.rounds] == [2]
    # another process replays both matches from the log: the ended match from its logged seed
    fresh = TableService(db_engine, bot_delay=0)
    assert fresh.history(code) == second
    assert svc.action_log(code)[-1]["action"]["type"] != "rematch"
    rematch = [row["action"] for row in svc.action_log(code) if row["action"]["type"] == "rematch"]
    assert len(rematch) == 1 and isinstance(rematch[0]["ended_seed"], int)


def test_only_the_newest_earlier_rounds_stay_in_memory(db_engine, people, monkeypatch) -> None:
    """A table playing REVANCHE after REVANCHE keeps ``PIFECACHETA_PAST_ROUNDS`` earlier rounds
    in memory; the older ones come back from the log, the same as an unbounded history's."""

    monkeypatch.setenv("PIFECACHETA_PAST_ROUNDS", "2")
    svc = TableService(db_engine, bot_delay=0)
    ana, bia = people[:2]
    code, who = _pife_table(svc, ana, bia)
    for _ in range(4):
        play_pife_to_the_end(svc, code, who)
        svc.vote_rematch(code, ana)
        svc.vote_rematch(code, bia)
    kept = svc.history(code)
    assert [r.match_number for r in kept.past] == [3, 4] and kept.past_older == 2
    monkeypatch.setenv("PIFECACHETA_PAST_ROUNDS", "100")
    every = TableService(db_engine, bot_delay=0).history(code)
    assert [r.match_number for r in every.past] == [1, 2, 3, 4] and every.past_older == 0
    assert kept.past == every.past[2:]
    assert svc.older_rounds(code) == every.past[:2]
    monkeypatch.setenv("PIFECACHETA_PAST_ROUNDS", "2")
    assert TableService(db_engine, bot_delay=0).history(code) == kept  # a cold replay agrees
    play_pife_to_the_end(svc, code, who)
    svc.vote_rematch(code, ana)
    svc.vote_rematch(code, bia)  # one more round becomes older
    assert svc.history(code).past_older == 3
    assert [r.match_number for r in svc.older_rounds(code)] == [1, 2, 3]
    assert svc.older_rounds(code)[:2] == every.past[:2]
