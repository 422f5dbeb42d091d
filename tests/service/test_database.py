"""The database under the service, on SQLite and on PostgreSQL: migrations, time zones, text
limits, and writers racing on one table (tests/conftest.py runs each test on both).

What differs between the two and is pinned here: PostgreSQL returns ``timestamptz`` in the
session's zone (the test server's is America/Sao_Paulo), enforces ``VARCHAR(n)`` (SQLite does
not), runs writers of one table at the same time unless the row is locked (SQLite has one
writer), and needs the migrations' DDL in its own dialect.
"""

from __future__ import annotations

import secrets
import threading
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlmodel import Session, SQLModel

from pifecacheta import db
from pifecacheta.models import Seat
from pifecacheta.rules import PIFE
from pifecacheta.service import ChatRateLimited, Refusal, TableService
from pifecacheta.service.chat import CHAT_MAX, CHAT_RATE_COUNT

from .helpers import table_row

APP_TABLES = {t.name for t in SQLModel.metadata.sorted_tables}


def _alembic(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def _head() -> str | None:
    return ScriptDirectory.from_config(_alembic("sqlite://")).get_current_head()


def _revision(engine: sa.Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


# --- migrations ------------------------------------------------------------------------


def test_a_fresh_database_migrates_to_head_and_matches_the_models(empty_db_url: str) -> None:
    engine = db.init_db(empty_db_url)
    assert _revision(engine) == _head()
    assert APP_TABLES <= set(sa.inspect(engine).get_table_names())
    with engine.connect() as conn:  # what alembic autogenerate would write next: nothing
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(ctx, SQLModel.metadata) == []
    assert db.init_db(empty_db_url) is engine  # once per process


def test_migrations_go_down_to_nothing_and_up_again(empty_db_url: str) -> None:
    engine = db.make_engine(empty_db_url)
    try:
        db.migrate(engine)
        cfg = _alembic(empty_db_url)
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "base")
        assert not APP_TABLES & set(sa.inspect(engine).get_table_names())
        db.migrate(engine)
        assert _revision(engine) == _head()
    finally:
        engine.dispose()


def test_backends_starting_together_migrate_one_after_the_other(empty_db_url: str) -> None:
    """Three processes (engines) migrate one new database at once: all succeed, one schema."""
    engines = [db.make_engine(empty_db_url) for _ in range(3)]
    barrier = threading.Barrier(len(engines))
    errors: list[BaseException] = []

    def start(engine: sa.Engine) -> None:
        barrier.wait()
        try:
            db.migrate(engine)
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert errors == []
        assert _revision(engines[0]) == _head()
        with engines[0].connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM alembic_version")).scalar() == 1
    finally:
        for e in engines:
            e.dispose()


def test_postgres_urls_get_the_psycopg_driver() -> None:
    for url in ("postgresql://u@h/d", "postgres://u@h/d", "postgresql+psycopg://u@h/d"):
        assert db.engine_url(url).drivername == "postgresql+psycopg"
    assert db.make_engine("postgres://u@localhost/d").dialect.driver == "psycopg"


# --- what each dialect stores --------------------------------------------------------


def test_datetimes_come_back_as_the_same_instant_in_utc(svc: TableService, db_engine, clock, people) -> None:
    ana = people[0]
    code = svc.create_table(ana, PIFE)
    row = table_row(db_engine, code)
    for at in (row.created_at, row.last_move_at, svc.action_log(code)[0]["at"]):
        assert at == clock.now and at.utcoffset() is not None and at.utcoffset().total_seconds() == 0
    if db_engine.dialect.name == "postgresql":  # the test server answers in another zone
        with db_engine.connect() as conn:
            assert conn.execute(sa.text("SHOW timezone")).scalar() == "America/Sao_Paulo"
            raw = conn.execute(sa.text("SELECT created_at FROM game_table")).scalar()
        assert raw.utcoffset().total_seconds() != 0 and raw == clock.now


def test_names_and_chat_at_their_limits_fit_in_any_database(svc: TableService, db_engine) -> None:
    """24-character names (4-byte characters too), the " 2" of a second one, a 200-character
    chat line: PostgreSQL's VARCHAR(n) counts characters and takes them all."""
    long_name = "😀é" * 20  # cut to 24 characters by clean_name
    ana = svc.identify(None, None, long_name)
    twin = svc.identify(None, None, long_name)
    assert ana.name == long_name[:24]
    code = svc.create_table(ana, PIFE)
    assert svc.join(code, twin) == 1
    line = "ção😀" * (CHAT_MAX // 4)
    svc.chat(code, twin, line)
    snap = svc.snapshot(code, ana)
    assert [s.name for s in snap.seats] == [long_name[:24], long_name[:22] + " 2"]
    assert [(c.name, c.text) for c in snap.chat] == [(long_name[:22] + " 2", line)]
    with db_engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT name FROM player WHERE id = :i"), {"i": ana.player_id})
        assert stored.scalar() == long_name[:24]


def test_the_models_declare_the_lengths_the_service_writes() -> None:
    """What PostgreSQL enforces: the service never writes past these (clean_name,
    distinct_name, CHAT_MAX, ``player:<32 hex>`` actors, 16-character invite codes)."""
    cols = {(t.name, c.name): c.type for t in SQLModel.metadata.sorted_tables for c in t.columns}
    assert cols[("player", "name")].length == cols[("seat", "name")].length == 24  # type: ignore[attr-defined]
    assert cols[("chat_message", "text")].length == CHAT_MAX  # type: ignore[attr-defined]
    assert cols[("action_log", "actor")].length >= len("player:") + 32  # type: ignore[attr-defined]
    assert cols[("game_table", "code")].length >= len(secrets.token_urlsafe(12)) == 16  # type: ignore[attr-defined]


# --- writers racing on one table -----------------------------------------------------


def test_racing_joins_from_three_processes_take_three_seats(db_url: str, clock) -> None:
    services = [TableService(db.make_engine(db_url), clock=clock, bot_delay=0) for _ in range(4)]
    ana, *others = (
        s.identify(None, None, n) for s, n in zip(services, ("Ana", "Bia", "Caio", "Davi"), strict=True)
    )
    code = services[0].create_table(ana, PIFE)
    barrier = threading.Barrier(3)
    seats: list[object] = []

    def sit(service: TableService, who) -> None:  # type: ignore[no-untyped-def]
        barrier.wait()
        try:
            seats.append(service.join(code, who))
        except Exception as e:  # reported by the assertion
            seats.append(e)

    threads = [threading.Thread(target=sit, args=(s, w)) for s, w in zip(services[1:], others, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert sorted(seats, key=str) == [1, 2, 3]
        snap = services[0].snapshot(code, ana)
        assert snap.version == 3 and len(snap.seats) == 4
        log = services[0].action_log(code)
        assert [e["version"] for e in log] == [0, 1, 2, 3]
    finally:
        for s in services:
            s.store.engine.dispose()


def test_racing_chat_lines_respect_the_rate_limit(svc: TableService, people) -> None:
    """Eight lines at once from one seat: the 5-in-10-seconds limit still holds (the table
    row's lock makes the count and the insert one step on PostgreSQL)."""
    ana, bia, _, _ = people
    code = svc.create_table(ana, PIFE)
    svc.join(code, bia)
    barrier = threading.Barrier(8)
    results: list[object] = []

    def post(i: int) -> None:
        barrier.wait()
        try:
            svc.chat(code, bia, f"linha {i}")
            results.append("ok")
        except Refusal as e:
            results.append(type(e))

    threads = [threading.Thread(target=post, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results.count("ok") == CHAT_RATE_COUNT
    assert results.count(ChatRateLimited) == 8 - CHAT_RATE_COUNT
    assert len(svc.snapshot(code, ana).chat) == CHAT_RATE_COUNT


def test_a_second_seat_with_the_same_number_is_an_integrity_error(
    svc: TableService, db_engine, people
) -> None:
    """What ``Lobby.join`` catches from a joiner that lost the race for a seat: SQLAlchemy's
    IntegrityError on both drivers (sqlite3's and psycopg's UniqueViolation underneath)."""
    ana, bia, _, _ = people
    code = svc.create_table(ana, PIFE)
    table_id = table_row(db_engine, code).id
    with pytest.raises(sa.exc.IntegrityError), Session(db_engine) as s, s.begin():
        s.add(Seat(table_id=table_id, seat=0, player_id=bia.player_id, name="Bia"))
    assert [x.name for x in svc.snapshot(code, ana).seats] == ["Ana"]


@pytest.mark.backends("postgresql")
def test_the_service_goes_on_after_the_database_server_restarts(
    pg_server, svc: TableService, people, clock
) -> None:
    """Pooled connections die with the server; the next use checks and replaces them."""
    ana, bia, _, _ = people
    code = svc.create_table(ana, PIFE)
    pg_server.restart()
    assert svc.join(code, bia) == 1
    assert svc.snapshot(code, ana).version == 1


def test_a_stored_instant_survives_the_round_trip_exactly(svc: TableService, db_engine, clock) -> None:
    clock.now = datetime(2026, 3, 8, 5, 59, 59, 999_999, tzinfo=UTC)  # microseconds, near a DST edge
    ana = svc.identify(None, None, "Ana")
    code = svc.create_table(ana, PIFE)
    assert table_row(db_engine, code).created_at == clock.now
