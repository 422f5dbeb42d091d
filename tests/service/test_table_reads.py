"""Snapshot reads derived from this process's own commit of a plain move (service/table_reads.py):
no statement after such a move, and every snapshot equal to what a database read gives, through
whole matches with chat lines, round ends, a replaced secret and time passing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from pifecacheta.rules import CACHETA_7, PIFE, Draw
from pifecacheta.service import Identity, TableService
from pifecacheta.service.play import Play
from pifecacheta.service.table_reads import FRESH

from .helpers import current_turn, play_human_move


@pytest.fixture(autouse=True)
def _sqlite_only(db_engine: sa.Engine) -> None:
    if db_engine.dialect.name != "sqlite":
        pytest.skip("reads are derived on SQLite only (one process)")


@contextmanager
def statements(engine: sa.Engine) -> Iterator[list[str]]:
    """The SQL statements run on ``engine`` inside the block."""
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:  # noqa: ANN001
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def _table(svc: TableService, people: list[Identity], rules=PIFE, seated: int = 2) -> str:
    code = svc.create_table(people[0], rules)
    for who in people[1:seated]:
        svc.join(code, who)
    svc.start(code, people[0])
    return code


def _move(
    svc: TableService, db_engine: sa.Engine, code: str, people: list[Identity], rng: random.Random
) -> bool:
    _phase, turn = current_turn(db_engine, code)
    if turn is None:
        return False
    return play_human_move(svc, db_engine, code, people[turn], turn, rng)


def test_a_plain_move_is_derived_without_a_statement(svc: TableService, db_engine, people) -> None:
    code = _table(svc, people)
    derived, full = Play(svc.store, derive_reads=True), Play(svc.store, derive_reads=False)
    whos = [people[0], people[1], None]
    derived.snapshots(code, whos)  # the read kept
    _phase, turn = current_turn(db_engine, code)
    svc.act(code, people[turn], Draw(), expected_version=svc.snapshot(code, people[turn]).version)
    with statements(db_engine) as seen:
        snaps = derived.snapshots(code, whos)
    assert seen == []
    assert snaps == full.snapshots(code, whos)
    assert len(snaps[turn].view.hand) == 10  # the drawn card is there


def test_the_default_derives_on_sqlite(svc: TableService, db_engine, people) -> None:
    code = _table(svc, people)
    play = Play(svc.store)
    play.snapshots(code, [people[0]])
    _phase, turn = current_turn(db_engine, code)
    svc.act(code, people[turn], Draw(), expected_version=svc.snapshot(code, people[turn]).version)
    with statements(db_engine) as seen:
        play.snapshots(code, [people[0]])
    assert seen == []


@pytest.mark.parametrize(("rules", "seated", "seed"), [(PIFE, 2, 1), (CACHETA_7, 3, 2), (PIFE, 4, 3)])
def test_whole_matches_read_the_same_derived_or_not(
    db_engine, clock, people, rules, seated: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIFECACHETA_FAIR_DEAL", "1")  # verifiable deals: a waiting deal after each round
    svc = TableService(
        db_engine, clock=clock, seed_source=lambda: 1000 + seed, bot_delay=0, round_over_delay=0
    )
    people = [svc.identify(None, None, n) for n in ("Ana", "Bia", "Caio", "Davi")]
    forged = Identity(people[1].player_id, "not-the-secret", "Bia")
    code = _table(svc, people, rules, seated)
    derived, full = Play(svc.store, derive_reads=True), Play(svc.store, derive_reads=False)
    whos = [*people[:seated], None, forged]
    rng = random.Random(seed)
    for step in range(400):
        if rng.random() < 0.1:
            clock.advance(seconds=10)  # past the chat's rate limit
            svc.chat(code, people[rng.randrange(seated)], f"linha {step} <b>$&</b>")
        if rng.random() < 0.05:
            clock.advance(seconds=rng.choice([1, 3600, 49 * 3600]))  # 48 h: ENCERRAR POR AUSÊNCIA
        if not _move(svc, db_engine, code, people, rng):
            break
        assert derived.snapshots(code, whos) == full.snapshots(code, whos), f"step {step}"
    reads = derived._reads  # noqa: SLF001 - the counts say both ways were taken
    assert reads.derived > 50 and reads.read > 5


def test_a_chat_line_between_is_read(svc: TableService, db_engine, people) -> None:
    code = _table(svc, people)
    play = Play(svc.store, derive_reads=True)
    play.snapshots(code, [people[0]])
    svc.chat(code, people[1], "oi")
    _phase, turn = current_turn(db_engine, code)
    svc.act(code, people[turn], Draw(), expected_version=svc.snapshot(code, people[turn]).version)
    snap = play.snapshots(code, [people[0]])[0]
    assert [c.text for c in snap.chat] == ["oi"]


def test_a_replaced_secret_sees_no_hand_after_the_next_move(svc: TableService, db_engine, people) -> None:
    code = _table(svc, people)
    play = Play(svc.store, derive_reads=True)
    old = people[0]
    assert play.snapshots(code, [old])[0].my_seat == 0
    new = svc.replace_secret(old)
    _phase, turn = current_turn(db_engine, code)
    who = new if turn == 0 else people[turn]
    svc.act(code, who, Draw(), expected_version=svc.snapshot(code, who).version)
    snap = play.snapshots(code, [old])[0]
    assert snap.my_seat is None and snap.view.hand == ()


def test_a_read_older_than_fresh_is_read_again(svc: TableService, db_engine, people) -> None:
    code = _table(svc, people)
    now = [0.0]
    play = Play(svc.store, derive_reads=True)
    play._reads.clock = lambda: now[0]  # noqa: SLF001 - the monotonic clock of the kept reads
    play.snapshots(code, [people[0]])
    _phase, turn = current_turn(db_engine, code)
    svc.act(code, people[turn], Draw(), expected_version=svc.snapshot(code, people[turn]).version)
    now[0] = FRESH + 0.1
    with statements(db_engine) as seen:
        play.snapshots(code, [people[0]])
    assert seen


def test_a_new_viewer_is_read(svc: TableService, db_engine, people) -> None:
    code = _table(svc, people)
    play = Play(svc.store, derive_reads=True)
    play.snapshots(code, [people[0]])
    _phase, turn = current_turn(db_engine, code)
    svc.act(code, people[turn], Draw(), expected_version=svc.snapshot(code, people[turn]).version)
    with statements(db_engine) as seen:
        snaps = play.snapshots(code, [people[0], people[1]])
    assert seen and snaps[1].my_seat == 1
