"""With proxy addresses, a table's bots are played by the backend nginx sends its tabs to.

Two real backends of the app (``reflex run --env prod --backend-only``), each started with
``PIFECACHETA_PROXY_ADDRESS`` = its name in nginx's ``server`` lines, behind real nginx
configured by ``pifecacheta/proxy_conf.py`` (the ``pc_table`` cookie hashed, access log on).
For each table the test asks nginx where a request with the table's cookie goes (the access
log's ``$upstream_addr``; it equals ``live/ring.py``'s prediction), then:

1. plays tables nginx routes to backend A only: every bot move is counted by A
   (``pifecacheta:bots:moves``), none by B;
2. then tables routed to B only: B's count grows, A's stays where it was;
3. SIGKILLs A: nginx now sends A's tables to B, and their bots move again within 15 s, played
   by B; no action is applied twice (no two action-log rows with one table and version).

The test process plays the human seat through the service and announces its changes on the
Redis feed, as ``test_failover.py`` does (its ``Human``).
"""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import sqlalchemy as sa

from pifecacheta import proxy_conf
from pifecacheta.db import make_engine
from pifecacheta.live.redis_feed import RedisFeed
from pifecacheta.live.ring import Ring
from pifecacheta.live.shards import ADDRESSES_KEY, MEMBERS_KEY, MOVES_KEY
from pifecacheta.rules import CACHETA_7

from ._action_log import applied_twice
from ._backends import Backend, backend_env
from ._proxy import NginxProcess, nginx_exe
from ._redis import RedisServer, free_port
from .test_failover import BOTS, TAKEOVER_SECONDS, Human, _bot_rows_after, _last_row

TTL = 3.0


class Setup:
    """The two backends (``A``, ``B``), their addresses, and nginx's port and run folder."""

    def __init__(self, backends: list[Backend], nginx: NginxProcess, port: int, run: Path) -> None:
        self.backends, self.nginx, self.port, self.run = backends, nginx, port, run
        self.address = {b.name: f"127.0.0.1:{b.port}" for b in backends}

    def routed_to(self, code: str) -> str:
        """The name of the backend nginx sends table ``code``'s requests to now (a ``/ping``
        with its cookie; the access log's last upstream, after any failover)."""
        url, cookie = f"http://127.0.0.1:{self.port}/ping", {"Cookie": f"pc_table={code}"}
        before = len(self._rows(code))
        with urllib.request.urlopen(urllib.request.Request(url, headers=cookie), timeout=10) as r:
            assert r.status == 200
        deadline = time.monotonic() + 5
        while True:
            rows = self._rows(code)
            if len(rows) > before:  # this request's line (an older one would name the old route)
                upstream = rows[-1][1].split(",")[-1].strip()
                return next(n for n, a in self.address.items() if a == upstream)
            assert time.monotonic() < deadline, f"no access-log line for {code}"
            time.sleep(0.05)

    def _rows(self, code: str) -> list[list[str]]:
        """The access log's lines of requests with table ``code``'s cookie, split at ``|``."""
        lines = (self.run / "access.log").read_text().splitlines()
        return [ln.split("|") for ln in lines if ln.endswith(f"|{code}")]


@pytest.fixture
def setup(redis_server: RedisServer, redis_url: str, cluster_db_url: str, tmp_path: Path) -> Iterator[Setup]:
    nginx_exe()
    env = backend_env(
        redis_url,
        cluster_db_url,
        "memory",
        PIFECACHETA_BOT_DELAY="0.2",
        PIFECACHETA_ROUND_OVER_DELAY="0.2",
        PIFECACHETA_LEASE_TTL=str(TTL),
    )
    started: list[Backend] = []
    nginx = None
    try:
        for name in ("A", "B"):  # one after the other: both write .web/backend at start
            port = free_port()
            b = Backend(name, port, env | {"PIFECACHETA_PROXY_ADDRESS": f"127.0.0.1:{port}"}, tmp_path)
            started.append(b)
            b.wait_up()
        run = tmp_path / "nginx"
        (run / "nginx-tmp").mkdir(parents=True)
        port = free_port()
        servers = [f"127.0.0.1:{b.port}" for b in started]
        conf = run / "nginx.conf"
        conf.write_text(proxy_conf.config(run, f"127.0.0.1:{port}", servers, access_log=True))
        nginx = NginxProcess(conf)
        nginx.wait_up(f"http://127.0.0.1:{port}/ping")
        yield Setup(started, nginx, port, run)
    finally:
        if nginx is not None:
            nginx.stop()
        for b in started:
            b.stop()


class RoutedHuman(Human):
    """:class:`Human` whose new tables are the ones nginx routes to backend ``want`` (a table
    routed elsewhere is left unstarted: its bots never move)."""

    def __init__(self, engine: sa.Engine, feed: RedisFeed, setup: Setup, want: str, tables: int) -> None:
        self.setup, self.want = setup, want
        super().__init__(engine, feed, tables)

    def _new_table(self) -> str:
        for _ in range(60):
            code = self.svc.create_table(self.ana, CACHETA_7)
            if self.setup.routed_to(code) != self.want:
                continue
            ring = Ring(self.setup.address.values())
            assert ring.server(code) == self.setup.address[self.want]  # nginx's choice, predicted
            self.svc.add_bots(code, self.ana, BOTS)
            self.svc.start(code, self.ana)
            self.feed.publish(code)
            return code
        raise AssertionError(f"no table routed to {self.want} in 60")


def _moves(client: redis.Redis, backend: Backend) -> int:
    """Bot moves counted so far by ``backend``'s process (``pifecacheta:bots:moves``)."""
    total = 0
    for holder, n in client.hgetall(MOVES_KEY).items():
        if backend.owns(int(holder.decode().split(":")[-2])):
            total += int(n)
    return total


def _quiet(engine: sa.Engine, codes: list[str], seconds: float = 2.0, timeout: float = 30.0) -> None:
    """Wait until no bot moves at ``codes`` for ``seconds`` (their bots wait for the human),
    plus a round of the bot shards (the counts reach Redis)."""
    start = _last_row(engine)
    seen, since = -1, time.monotonic()
    deadline = since + timeout
    while True:
        n = sum(_bot_rows_after(engine, start, c) for c in codes)
        if n != seen:
            seen, since = n, time.monotonic()
        elif time.monotonic() - since >= seconds:
            time.sleep(TTL / 3 + 0.5)
            return
        assert time.monotonic() < deadline, "the bots did not stop"
        time.sleep(0.2)


def _play(human: Human, engine: sa.Engine, bot_moves: int, timeout: float = 60.0) -> None:
    """Play the human's turns until ``bot_moves`` bot moves were made at its tables."""
    start = _last_row(engine)
    deadline = time.monotonic() + timeout
    while sum(_bot_rows_after(engine, start, c) for c in human.codes) < bot_moves:
        assert time.monotonic() < deadline, "the bots did not play"
        human.play()
        time.sleep(0.1)


def test_a_tables_bots_are_played_by_the_backend_nginx_routes_it_to(
    setup: Setup, redis_url: str, cluster_db_url: str
) -> None:
    a, b = setup.backends
    engine = make_engine(cluster_db_url)
    feed = RedisFeed(redis_url)
    client = redis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + 30  # both announced their addresses, then a round each
        while not (client.hlen(ADDRESSES_KEY) == 2 and client.zcard(MEMBERS_KEY) == 2):
            assert time.monotonic() < deadline, client.hgetall(ADDRESSES_KEY)
            time.sleep(0.2)
        time.sleep(TTL / 3 + 0.5)

        on_a = RoutedHuman(engine, feed, setup, "A", tables=3)
        _play(on_a, engine, bot_moves=12)
        _quiet(engine, on_a.codes)
        assert _moves(client, a) > 0 and _moves(client, b) == 0, client.hgetall(MOVES_KEY)

        a_moves = _moves(client, a)
        on_b = RoutedHuman(engine, feed, setup, "B", tables=3)
        _play(on_b, engine, bot_moves=12)
        _quiet(engine, on_b.codes)
        assert _moves(client, b) > 0 and _moves(client, a) == a_moves, client.hgetall(MOVES_KEY)

        b_moves = _moves(client, b)
        a.kill()
        killed_at = time.monotonic()
        after_kill = _last_row(engine)
        assert all(setup.routed_to(c) == "B" for c in on_a.codes)  # nginx fails over to B
        while sum(_bot_rows_after(engine, after_kill, c) for c in on_a.codes) < 3:
            assert time.monotonic() - killed_at < TAKEOVER_SECONDS, (
                f"no bot move at A's tables {TAKEOVER_SECONDS} s after A's SIGKILL: "
                f"members {client.zrange(MEMBERS_KEY, 0, -1)}, "
                f"addresses {client.hgetall(ADDRESSES_KEY)}:\n{b.log()}"
            )
            on_a.play()
            time.sleep(0.1)
        print(f"A's tables' bots moved again {time.monotonic() - killed_at:.1f} s after its SIGKILL, on B")
        _quiet(engine, on_a.codes)
        assert _moves(client, b) > b_moves  # B played them
        with engine.connect() as conn:
            twice = applied_twice(conn)
        assert twice == []  # no action applied twice
    finally:
        feed.close()
        client.close()
        engine.dispose()
