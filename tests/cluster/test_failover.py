"""Two real backend processes of the app on one Redis and one database: the bots are shared
out by bot shard (``live/shards.py``: each backend plays the bots of its shards' tables, both
play), and when the backend holding the watched table's shard is killed (SIGKILL) the other
takes its shards over and that table's bots move again within 15 s, with no action applied
twice (no two action-log rows with the same table and version). A tab on the other backend
(a spectator: ``_spectator.py``) sees the moves made elsewhere (the killed backend's bots, the
human's moves) before the kill, and the bots' moves after it; a tab of the killed backend,
reconnecting to the other with its token, shows the table as it is now.

Each backend is ``reflex run --env prod --backend-only --backend-port P`` (one granian
worker), as production runs it, in its own session so SIGKILL reaches its whole process
group. The test process plays the human seat of each table through the service and
announces each of its changes on the Redis feed, as a third backend would.

The database is ``PIFECACHETA_CLUSTER_DB_URL`` when set (e.g. a PostgreSQL URL; its schema is
migrated here), else a SQLite file in WAL mode in the test's temp folder. It runs with the
tabs' Reflex states in each backend's memory (the default) and in Redis
(``REFLEX_STATE_MANAGER_MODE=redis``): the tabs' keys in Redis say which one ran.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import sqlalchemy as sa
from sqlmodel import Session, select

from pifecacheta.db import make_engine
from pifecacheta.live.lease import LEASE_KEY
from pifecacheta.live.redis_feed import RedisFeed
from pifecacheta.live.shards import MOVES_KEY, shard_key, shard_of
from pifecacheta.models import ActionLog, GameTable
from pifecacheta.rules import CACHETA_7, Discard, Draw, GoOut, Match, NextRound, legal_actions
from pifecacheta.service import TableService

from ._action_log import applied_twice
from ._backends import Backend, backend_env, stored_state_keys
from ._redis import RedisServer, free_port
from ._spectator import Spectator

BOTS = ["Carmen", "Tito", "Luna"]
TAKEOVER_SECONDS = 15.0
SHARDS = 4


@pytest.fixture
def backends(
    redis_server: RedisServer, redis_url: str, cluster_db_url: str, tab_state: str, tmp_path: Path
) -> Iterator[list[Backend]]:
    env = backend_env(
        redis_url,
        cluster_db_url,
        tab_state,
        PIFECACHETA_BOT_DELAY="0.2",
        PIFECACHETA_ROUND_OVER_DELAY="0.2",
        PIFECACHETA_LEASE_TTL="3",
        PIFECACHETA_BOT_SHARDS=str(SHARDS),
    )
    started: list[Backend] = []
    try:
        for name in ("A", "B"):  # one after the other: both write .web/backend at start
            b = Backend(name, free_port(), env, tmp_path)
            started.append(b)
            b.wait_up()
        yield started
    finally:
        for b in started:
            b.stop()


def _match(engine: sa.Engine, code: str) -> tuple[Match | None, int]:
    with Session(engine) as s:
        t = s.exec(select(GameTable).where(GameTable.code == code)).one()
        return (Match.from_dict(json.loads(t.match_json)) if t.match_json else None), t.version


class Human:
    """Ana, seated with three bots at each table, playing her turns through the service and
    telling the cluster of each change on the Redis feed (as a backend's event handler does)."""

    def __init__(self, engine: sa.Engine, feed: RedisFeed, tables: int) -> None:
        self.engine, self.feed = engine, feed
        self.svc = TableService(engine)
        self.ana = self.svc.identify(None, None, "Ana")
        self.rng = random.Random(7)
        self.codes = [self._new_table() for _ in range(tables)]

    def _new_table(self) -> str:
        code = self.svc.create_table(self.ana, CACHETA_7)  # several rounds: a long match
        self.svc.add_bots(code, self.ana, BOTS)
        self.svc.start(code, self.ana)
        self.feed.publish(code)
        return code

    def play(self) -> None:
        """One move of Ana at each table where she can move (a finished table is replaced)."""
        for i, code in enumerate(self.codes):
            match, version = _match(self.engine, code)
            acts = legal_actions(match, 0) if match is not None else ()
            if match is not None and match.round is not None and match.outcome is not None and not acts:
                self.codes[i] = self._new_table()
                continue
            plain = [a for a in acts if isinstance(a, GoOut | NextRound | Draw)]
            discards = [a for a in acts if isinstance(a, Discard)]
            pick = plain[0] if plain else (self.rng.choice(discards) if discards else None)
            if pick is None:
                continue
            try:
                self.svc.act(code, self.ana, pick, expected_version=version)
            except ValueError:  # a bot moved first (stale version): next time
                continue
            self.feed.publish(code)


def _bot_rows_after(engine: sa.Engine, row_id: int, code: str | None = None) -> int:
    """Bot actions logged after row ``row_id`` (at table ``code`` only, when given)."""
    with Session(engine) as s:
        query = select(ActionLog).where(ActionLog.id > row_id)  # type: ignore[operator]
        if code is not None:
            query = query.join(GameTable, GameTable.id == ActionLog.table_id).where(GameTable.code == code)  # type: ignore[arg-type]
        return sum(1 for r in s.exec(query).all() if r.actor.startswith("bot:"))


def _rows_after(engine: sa.Engine, row_id: int, code: str) -> list[tuple[int, str, str]]:
    """(version, actor, action) of table ``code``'s actions logged after row ``row_id``."""
    with Session(engine) as s:
        query = (
            select(ActionLog)
            .join(GameTable, GameTable.id == ActionLog.table_id)  # type: ignore[arg-type]
            .where(ActionLog.id > row_id, GameTable.code == code)  # type: ignore[operator]
        )
        return [(r.version, r.actor, r.action_json[:40]) for r in s.exec(query).all()]


def _last_row(engine: sa.Engine) -> int:
    with Session(engine) as s:
        return int(s.exec(sa.text("SELECT COALESCE(MAX(id), 0) FROM action_log")).one()[0])  # type: ignore[call-overload]


def _lease_pid(client: redis.Redis, key: str = LEASE_KEY) -> int:
    raw = client.get(key)
    assert raw is not None, f"nobody holds the lease {key}"
    return int(raw.decode().split(":")[-2])  # <host>:<pid>:<random>


def _shard_holders(client: redis.Redis) -> list[int | None]:
    """The pid holding each bot shard's lease now (None: free)."""
    raws = [client.get(shard_key(k)) for k in range(SHARDS)]
    return [None if raw is None else int(raw.decode().split(":")[-2]) for raw in raws]


def _shard_pid(client: redis.Redis, code: str) -> int:
    """The pid holding table ``code``'s bot shard."""
    return _lease_pid(client, shard_key(shard_of(code, SHARDS)))


def _settled(client: redis.Redis, backends: list[Backend], timeout: float = 30.0) -> None:
    """Wait until every shard is held and each backend holds its half."""
    deadline = time.monotonic() + timeout
    while True:
        holders = _shard_holders(client)
        per = [sum(1 for pid in holders if pid is not None and b.owns(pid)) for b in backends]
        if per == [SHARDS // 2] * len(backends):
            return
        assert time.monotonic() < deadline, f"the bot shards did not settle: {holders}"
        time.sleep(0.2)


def test_the_bots_move_on_within_15_s_after_the_lease_holder_is_killed(
    backends: list[Backend], redis_url: str, cluster_db_url: str, tab_state: str
) -> None:
    engine = make_engine(cluster_db_url)
    feed = RedisFeed(redis_url)
    client = redis.Redis.from_url(redis_url)
    spectator = doomed = moved = None
    try:
        _settled(client, backends)
        human = Human(engine, feed, tables=3)
        while len({b.name for c in human.codes for b in backends if b.owns(_shard_pid(client, c))}) < 2:
            assert len(human.codes) < 20, "no table in one backend's shards"
            human.codes.append(human._new_table())  # a table of each backend's shards
        watched = human.codes[0]
        holder = next(b for b in backends if b.owns(_shard_pid(client, watched)))
        survivor = next(b for b in backends if b is not holder)
        spectator = Spectator(survivor.port, human.codes[0])
        doomed = Spectator(holder.port, human.codes[0])  # a tab of the backend to be killed
        start, opened = _last_row(engine), time.monotonic()
        deadline = opened + 60
        while (
            _bot_rows_after(engine, start) < 10
            or len(set(spectator.versions_since(opened))) < 4
            or doomed.last() < 0
        ):
            assert time.monotonic() < deadline, f"no play seen with both backends up: {spectator.error!r}"
            human.play()
            time.sleep(0.1)
        for tab in (spectator, doomed):  # the tabs' states are where the backends were told
            keys = stored_state_keys(client, tab.token)
            assert bool(keys) == (tab_state == "redis"), f"tab states in {tab_state}, in Redis: {keys}"
        # the watched table's bots moved in the holder of its shard, its human's moves in
        # this process: the tab on the other backend saw them through the Redis feed
        assert holder.owns(_shard_pid(client, watched))
        while len(client.hgetall(MOVES_KEY)) < 2:  # both backends play bots (their own tables)
            assert time.monotonic() < deadline, f"bot moves per backend: {client.hgetall(MOVES_KEY)}"
            human.play()
            time.sleep(0.1)

        holder.kill()
        killed_at = time.monotonic()
        after_kill = _last_row(engine)  # the dead holder writes nothing from here on
        shown_at_kill = spectator.last()
        doomed.close()
        # its browser reconnects (through the proxy) to the surviving backend, same token
        moved = Spectator(survivor.port, human.codes[0], token=doomed.token)
        while (
            _bot_rows_after(engine, after_kill, watched) < 3
            or spectator.last() <= shown_at_kill
            or moved.last() <= shown_at_kill
        ):
            assert time.monotonic() - killed_at < TAKEOVER_SECONDS, (
                f"no bot move shown {TAKEOVER_SECONDS} s after the holder died "
                f"(tabs: {spectator.last()}, {moved.last()} vs {shown_at_kill}; "
                f"{spectator.error!r}, {moved.error!r}; shards held by {_shard_holders(client)}, "
                f"members {client.zrange('pifecacheta:bots:members', 0, -1)}, bot moves "
                f"{client.hgetall(MOVES_KEY)}; the watched table's log since the kill: "
                f"{_rows_after(engine, after_kill, watched)}):\n{survivor.log()}"
            )
            human.play()
            time.sleep(0.1)
        took = time.monotonic() - killed_at
        assert all(pid is not None and survivor.owns(pid) for pid in _shard_holders(client))
        deadline = time.monotonic() + 10  # the sweeper lease too, if the killed one held it
        while not survivor.owns(_lease_pid(client)):
            assert time.monotonic() < deadline, "the survivor did not take the sweeper lease"
            time.sleep(0.2)
        assert survivor.proc.poll() is None and spectator.error is None
        print(
            f"bots moved again {took:.1f} s after the SIGKILL of backend {holder.name}; "
            f"the reconnected tab got {'a new token' if moved.new_tokens else 'its own token'}"
        )

        with engine.connect() as conn:
            twice = applied_twice(conn)
        assert twice == []  # no action applied twice
    finally:
        for tab in (spectator, doomed, moved):
            if tab is not None:
                tab.close()
        feed.close()
        client.close()
        engine.dispose()
