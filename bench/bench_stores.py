"""What Redis and PostgreSQL take of one move, measured on this machine (docs/SCALING.md).

Each move of a table costs the cluster:

* **Redis**: one call of the live feed's publish script (``live/redis_feed.py``: INCR of the
  table's change count, PEXPIRE, PUBLISH of ``{code, count, from}``) for the table, and one
  per person of the table for the MINHAS MESAS keys (``player:<id>``); every backend process
  subscribes to the one channel, so each message is delivered once per process;
* **PostgreSQL**: one write transaction: the table row read ``FOR UPDATE``, the
  version-guarded ``UPDATE game_table``, one ``INSERT INTO action_log``.

This bench starts its own ``redis-server`` (no persistence) and its own PostgreSQL (Debian's
programs, default durability: fsync and synchronous commit on), both on loopback, and prints:
the publish script's calls per second from 1 and 8 client threads; messages delivered per
second to 1 and 4 subscribers; and pgbench's transactions per second for the move's
transaction with 8 clients over 1,000 tables. ``--seconds`` per measurement (default 5).

Run: ``.venv/bin/python bench/bench_stores.py [--seconds 5]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from _pg import PgServer  # noqa: E402  (the tests' throwaway PostgreSQL)

from pifecacheta.live.redis_feed import _PUBLISH_LUA  # noqa: E402  (the feed's own script)

CHANNEL = "pifecacheta:feed"
MOVE_SQL = """\\set id random(1, 1000)
BEGIN;
SELECT version FROM game_table WHERE id = :id FOR UPDATE;
UPDATE game_table SET version = version + 1, last_move_at = now() WHERE id = :id;
INSERT INTO action_log (table_id, version, seat, actor, action_json, at)
    VALUES (:id, 1, 0, 'bot:Tito', '{"type": "discard", "card": "7H"}', now());
END;
"""


class DurablePg(PgServer):
    """The tests' throwaway server with PostgreSQL's default durability (the tests turn
    fsync and synchronous commit off; a production server keeps them on)."""

    def _options(self) -> str:
        return (
            super()._options().replace("-c fsync=off -c synchronous_commit=off -c full_page_writes=off ", "")
        )


def start_redis() -> tuple[subprocess.Popen[bytes], str]:
    """A ``redis-server`` on a free loopback port, no persistence; (process, URL)."""
    from _pg import free_port

    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    return proc, url


def publish_rate(url: str, threads: int, seconds: float) -> float:
    """The feed's publish script calls per second from ``threads`` clients (one round trip
    each, as ``RedisFeed.publish`` does)."""
    stop = time.monotonic() + seconds
    counts = [0] * threads

    def worker(i: int) -> None:
        client = redis.Redis.from_url(url)
        script = client.register_script(_PUBLISH_LUA)
        n = 0
        while time.monotonic() < stop:
            script(
                keys=[f"pifecacheta:changes:T{i}-{n % 500}"], args=[CHANNEL, f"T{n}", "bench", 2_592_000_000]
            )
            n += 1
        counts[i] = n

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sum(counts) / seconds


def delivery_rate(url: str, subscribers: int, seconds: float) -> float:
    """Messages per second delivered in all to ``subscribers`` clients of the channel while
    4 threads publish as fast as they can."""
    got = [0] * subscribers
    ready = threading.Barrier(subscribers + 1)
    done = threading.Event()

    def listen(i: int) -> None:
        pubsub = redis.Redis.from_url(url).pubsub()
        pubsub.subscribe(CHANNEL)
        pubsub.get_message(timeout=1)  # the subscription's confirmation
        ready.wait()
        while not done.is_set():
            if pubsub.get_message(timeout=0.2) is not None:
                got[i] += 1

    listeners = [threading.Thread(target=listen, args=(i,)) for i in range(subscribers)]
    for t in listeners:
        t.start()
    ready.wait()
    publish_rate(url, 4, seconds)
    time.sleep(0.5)  # the last messages on their way
    done.set()
    for t in listeners:
        t.join()
    return sum(got) / seconds


def pg_move_tps(seconds: float) -> tuple[float, str]:
    """pgbench's transactions per second for the move's transaction (8 clients, 2 threads,
    1,000 tables) on a durable throwaway server; (tps, pgbench's latency line)."""
    import sqlalchemy as sa

    from pifecacheta.db import make_engine, migrate

    pg = DurablePg()
    pg.start()
    try:
        url = pg.create_database("bench")
        engine = make_engine(url)
        migrate(engine)
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO game_table (code, mode, lives, rules_json, creator_id, status, version,"
                    " created_at, last_move_at, turn_started_at, rematch_json)"
                    " SELECT 'T' || g, 'cacheta', 7, '{}', 'p', 'playing', 0, now(), now(), now(),"
                    " '{\"votes\": []}'"
                    " FROM generate_series(1, 1000) AS g"
                )
            )
        engine.dispose()
        script = Path(tempfile.mkdtemp()) / "move.sql"
        script.write_text(MOVE_SQL)
        assert pg.folder is not None
        bindir = Path(shutil.which("pgbench") or "pgbench")
        out = subprocess.run(
            [str(bindir), "-n", "-c", "8", "-j", "2", "-T", str(int(seconds)), "-f", str(script),
             "-h", "127.0.0.1", "-p", str(pg.port), "-U", "postgres", "bench"],
            capture_output=True, text=True, check=True, env=os.environ | {"PGCONNECT_TIMEOUT": "10"},
        )  # fmt: skip
        tps = next(line for line in out.stdout.splitlines() if line.startswith("tps"))
        lat = next((line for line in out.stdout.splitlines() if line.startswith("latency average")), "")
        return float(tps.split("=")[1].split()[0]), lat
    finally:
        pg.stop()


def main() -> int:
    """Print the figures; exit 0."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores; the clients share them)")
    proc, url = start_redis()
    try:
        for threads in (1, 8):
            print(
                f"redis publish script, {threads} client thread(s): "
                f"{publish_rate(url, threads, args.seconds):,.0f}/s"
            )
        for subs in (1, 4):
            print(
                f"redis messages delivered to {subs} subscriber(s): "
                f"{delivery_rate(url, subs, args.seconds):,.0f}/s in all"
            )
    finally:
        proc.terminate()
        proc.wait()
    tps, lat = pg_move_tps(args.seconds)
    print(
        "postgresql move transaction (FOR UPDATE + UPDATE + INSERT), 8 clients, durable: "
        f"{tps:,.0f} tps; {lat}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
