"""On SQLite a move starts from what this process's own latest commit of the table kept
(``Store.known``: the row, the seats, the parsed match), so its write transaction reads only the
player's secret (another process on the same file may have replaced it): the guarded
``UPDATE ... WHERE version = v`` proves the row unchanged. Whatever that path refuses, or finds
moved on, is asked again of the database, so the answers are those of a read."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from pifecacheta.rules import CACHETA_7, PIFE, Discard, Draw, IllegalActionError, LeaveTable, Phase
from pifecacheta.service import AccessReplaced, NotSeated, StaleVersion, TableService

from .helpers import hidden_match, log_count, patch_match, play_human_move, play_rounds


@contextmanager
def _statements(engine: sa.Engine) -> Iterator[list[str]]:
    """The SQL statements this thread runs on ``engine`` inside the block, in order."""
    mine, seen = threading.get_ident(), []

    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if threading.get_ident() == mine:
            seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", before)


def _reads(statements: list[str]) -> list[str]:
    return [x for x in statements if x.upper().startswith("SELECT")]


def _sqlite_only(svc: TableService) -> None:
    if svc.store.engine.dialect.name != "sqlite":
        pytest.skip("rows are kept for the next writer on SQLite only")


def _pife_for_two(svc: TableService, people: list[Any]) -> str:
    ana, bia = people[:2]
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    svc.start(code, ana)
    return code


def _turn(svc: TableService, code: str) -> int:
    return hidden_match(svc.store.engine, code).round.turn


def _both_played(svc: TableService, people: list[Any]) -> tuple[str, int]:
    """A Pife table of Ana and Bia after each drew and discarded once (its row kept by this
    process's commits); returns its code and the seat to play, in its draw."""
    code = _pife_for_two(svc, people)
    rng = random.Random(3)
    for _ in range(4):
        seat = _turn(svc, code)
        assert play_human_move(svc, svc.store.engine, code, people[seat], seat, rng, go_out=False)
    return code, _turn(svc, code)


def test_a_move_after_this_process_commit_reads_only_the_secret(svc: TableService, people: list[Any]) -> None:
    _sqlite_only(svc)
    code, seat = _both_played(svc, people)
    version = svc.snapshot(code, people[seat]).version
    before = log_count(svc.store.engine, code)
    with _statements(svc.store.engine) as seen:
        assert svc.act(code, people[seat], Draw(), expected_version=version) == version + 1
    reads = _reads(seen)
    assert len(reads) == 1 and "FROM player" in reads[0]
    assert [x.split()[0] for x in seen] == ["BEGIN", "SELECT", "UPDATE", "INSERT"]
    assert log_count(svc.store.engine, code) == before + 1
    assert hidden_match(svc.store.engine, code).round.phase is Phase.DISCARD


def test_the_kept_row_and_seats_are_the_database_s(svc: TableService, people: list[Any]) -> None:
    """Cacheta rounds of a person and two bots (NA BOA saved right after a discard, round
    ends): after every commit the kept row, seats and match equal a fresh read of the table."""
    _sqlite_only(svc)
    ana = people[0]
    code = svc.create_table(ana, CACHETA_7)
    svc.add_bots(code, ana, ["Carmen", "Tito"])
    svc.start(code, ana)
    compared = 0
    for _ in play_rounds(svc, code, ana, random.Random(7)):
        compared += _compare_kept(svc, code)
    assert compared > 30


def test_a_seat_that_leaves_is_kept_as_left(svc: TableService, people: list[Any]) -> None:
    """A FORA player leaves the table (seed 000 line 69) on the kept row: the seats kept after
    it show the seat left, as a read does, and that player's next move is refused."""
    _sqlite_only(svc)
    ana, bia, caio = people[:3]
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bia)
    svc.join(code, caio)
    svc.start(code, ana)
    patch_match(svc.store.engine, code, lambda m: replace(m, lives=(7, 7, 0)))  # Caio is FORA
    rng = random.Random(2)
    seat = _turn(svc, code)
    assert seat != 2
    assert play_human_move(svc, svc.store.engine, code, people[seat], seat, rng, go_out=False)
    svc.snapshot(code, caio)
    version = svc.snapshot(code, caio).version
    assert svc.store.known(code, version) is not None
    svc.act(code, caio, LeaveTable(), expected_version=version)
    assert _compare_kept(svc, code) == 1
    kept = svc.store.known(code, version + 1)
    assert kept is not None and kept.by_index(2) is not None and kept.by_index(2).left
    with pytest.raises(NotSeated):
        svc.act(code, caio, Draw(), expected_version=version + 1)


def _compare_kept(svc: TableService, code: str) -> int:
    """1 after checking that the kept table at the database's version equals a read of it, 0
    when nothing is kept for that version."""
    with svc.store.read() as s:
        read = svc.store.load(s, code)
    kept = svc.store.known(code, read.table.version)
    if kept is None:
        return 0
    assert kept.table == read.table
    assert kept.seats == read.seats
    assert kept.match == read.match
    return 1


def test_a_row_moved_on_by_another_writer_is_read(svc: TableService, people: list[Any]) -> None:
    """Another process (here a bare UPDATE) moves the version on: a move at the database's
    version is played from a read, a move at the kept version is refused as stale."""
    _sqlite_only(svc)
    code = _pife_for_two(svc, people)
    seat = _turn(svc, code)
    who = people[seat]
    version = svc.snapshot(code, who).version
    svc.act(code, who, Draw(), expected_version=version)  # kept: the row at version + 1
    with svc.store.engine.begin() as c:
        c.execute(sa.text("UPDATE game_table SET version = version + 1 WHERE code = :c"), {"c": code})
    before = log_count(svc.store.engine, code)
    discard = hidden_match(svc.store.engine, code).round.hands[seat][0]
    with pytest.raises(StaleVersion):
        svc.act(code, who, Discard(discard), expected_version=version + 1)
    assert log_count(svc.store.engine, code) == before
    with _statements(svc.store.engine) as seen:
        assert svc.act(code, who, Discard(discard), expected_version=version + 2) == version + 3
    assert any("FROM game_table" in x for x in _reads(seen))


def test_a_refusal_on_the_kept_row_is_the_one_a_read_gives(svc: TableService, people: list[Any]) -> None:
    _sqlite_only(svc)
    code = _pife_for_two(svc, people)
    seat = _turn(svc, code)
    version = svc.snapshot(code, people[seat]).version
    svc.act(code, people[seat], Draw(), expected_version=version)
    other = people[1 - seat]
    svc.snapshot(code, other)
    before = log_count(svc.store.engine, code)
    with pytest.raises(IllegalActionError) as out_of_turn:
        svc.act(code, other, Draw(), expected_version=version + 1)
    assert out_of_turn.value.code == "not_your_turn"
    with pytest.raises(NotSeated):
        svc.act(code, people[2], Draw(), expected_version=version + 1)
    assert log_count(svc.store.engine, code) == before


def test_a_secret_replaced_in_this_process_is_refused(svc: TableService, people: list[Any]) -> None:
    _sqlite_only(svc)
    code, seat = _both_played(svc, people)
    old = people[seat]
    new = svc.replace_secret(old)
    version = svc.snapshot(code, new).version
    with pytest.raises(AccessReplaced):
        svc.act(code, old, Draw(), expected_version=version)
    assert svc.act(code, new, Draw(), expected_version=version) == version + 1


def test_a_secret_replaced_by_another_process_is_refused(
    svc: TableService, people: list[Any], db_engine: sa.Engine, clock: Any
) -> None:
    """Several backends may share one SQLite file (``scripts/cluster.sh``): a secret replaced
    on another one (Meu acesso) no longer moves here, although this process kept the row."""
    _sqlite_only(svc)
    code, seat = _both_played(svc, people)
    other = TableService(db_engine, clock=clock, seed_source=lambda: 12345, bot_delay=0)
    new = other.replace_secret(people[seat])
    version = svc.snapshot(code, new).version
    assert svc.store.known(code, version) is not None
    before = log_count(db_engine, code)
    with pytest.raises(AccessReplaced):
        svc.act(code, people[seat], Draw(), expected_version=version)
    assert log_count(db_engine, code) == before
    assert svc.act(code, new, Draw(), expected_version=version) == version + 1


def test_on_postgresql_every_move_reads_the_row_and_the_secret(svc: TableService, people: list[Any]) -> None:
    """Several processes share PostgreSQL: another one may have replaced a secret, so nothing
    kept by this one is trusted."""
    if svc.store.engine.dialect.name == "sqlite":
        pytest.skip("PostgreSQL only")
    code, seat = _both_played(svc, people)
    version = svc.snapshot(code, people[seat]).version
    with _statements(svc.store.engine) as seen:
        svc.act(code, people[seat], Draw(), expected_version=version)
    reads = _reads(seen)
    assert any("FROM player" in x for x in reads) and any("FROM game_table" in x for x in reads)


def test_a_bot_step_after_this_process_commit_reads_no_row(svc: TableService, people: list[Any]) -> None:
    _sqlite_only(svc)
    ana = people[0]
    code = svc.create_table(ana, CACHETA_7)
    svc.add_bots(code, ana, ["Tito"])
    svc.start(code, ana)
    rng = random.Random(1)
    while _turn(svc, code) != 1:
        assert play_human_move(svc, svc.store.engine, code, ana, 0, rng, go_out=False)
    assert svc.bot_step(code)  # Tito draws: his seats are learned from a read
    with _statements(svc.store.engine) as seen:
        assert svc.bot_step(code)  # Tito discards, planned on the commit of his draw
    assert not any("FROM game_table" in x or "FROM seat" in x for x in _reads(seen))
    assert svc.action_log(code)[-1]["actor"] == "bot:Tito"


def _luna_after_a_person(svc: TableService, people: list[Any], monkeypatch: pytest.MonkeyPatch) -> str:
    """A Pife table of Ana and Luna, Luna to play after Ana's commit (decisions in the thread)."""
    monkeypatch.setenv("PIFECACHETA_BOT_PROCESSES", "0")
    ana = people[0]
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Luna"])
    svc.start(code, ana)
    rng = random.Random(4)
    while _turn(svc, code) != 1 or svc.store.known(code, svc.snapshot(code, ana).version) is None:
        if _turn(svc, code) == 1:
            assert svc.bot_step(code)
        else:
            assert play_human_move(svc, svc.store.engine, code, ana, 0, rng, go_out=False)
    return code


def test_luna_decides_on_the_kept_table_without_a_read(
    svc: TableService, people: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _sqlite_only(svc)
    code = _luna_after_a_person(svc, people, monkeypatch)
    with _statements(svc.store.engine) as seen:
        assert svc.bot_step(code)
    assert _reads(seen) == []
    assert svc.action_log(code)[-1]["actor"] == "bot:Luna"


def test_luna_decides_on_a_read_after_the_kept_table_proved_stale(
    svc: TableService, people: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer moves the version on (a bare UPDATE): Luna's decision on the kept table
    is not played, and the next one is made on a read, so she plays."""
    _sqlite_only(svc)
    code = _luna_after_a_person(svc, people, monkeypatch)
    with svc.store.engine.begin() as c:
        c.execute(sa.text("UPDATE game_table SET version = version + 1 WHERE code = :c"), {"c": code})
    before = log_count(svc.store.engine, code)
    assert not svc.bot_step(code)
    assert log_count(svc.store.engine, code) == before
    assert svc.bot_step(code)
    assert svc.action_log(code)[-1]["actor"] == "bot:Luna"
