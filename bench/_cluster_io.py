"""The cluster under the load and soak benchmarks: PostgreSQL + Redis + P backends + nginx.

:class:`Cluster` stands where ``_load_io.Server`` stands for one process (same methods:
``start``, ``port``, ``cpu_seconds``, ``rss_mb``, ``log_errors``, ``profile``, ``stop``), so the
load bench's run drives either. It is what ``scripts/cluster.sh`` starts, set up for a
throwaway run:

* a fresh database on the bench's throwaway PostgreSQL server (``tests/_pg.py``'s
  ``PgServer``: initdb in a temp folder, a free port, ``fsync=off``; one server per bench run,
  one database per configuration and table count);
* its own ``redis-server`` (free port, nothing saved), so no tab state, feed count or lease of
  an earlier run is seen;
* P backends, ``reflex run --env prod --backend-only`` (one granian worker each,
  ``REFLEX_REDIS_URL`` and ``PIFECACHETA_DB_URL`` shared), started one after the other (each
  writes ``.web/backend`` at start), with ``REFLEX_STATE_MANAGER_MODE`` set to the
  configuration's ``tab_state``: the tabs' Reflex states in Redis or in each backend's memory;
  with the ``nginx`` route each knows its name in nginx's ``server`` lines
  (``PIFECACHETA_PROXY_ADDRESS``), so it plays the bots of the tables nginx sends it
  (``live/shards.py``); with ``least_conn`` or ``direct`` the bots go by shard leases;
* nginx on a free port in front of them, configured by ``pifecacheta/proxy_conf.py`` as
  ``scripts/cluster.sh`` does: ``/_event`` hashed on the tab's ``pc_table`` cookie (a table's
  tabs on one backend), or with ``cfg.route == "least_conn"`` spread by fewest connections
  (the balancing before session 24). The tabs connect to nginx (``"direct"``: straight to a
  backend, nginx unused).

CPU and memory are the sums over the P backends' workers; :meth:`Cluster.side_cpu` gives the
CPU seconds of Redis, PostgreSQL and nginx, and of the whole machine, and each backend's CPU,
bot moves and bot shards (``pifecacheta:bots:moves`` / ``:held`` in Redis, ``live/shards.py``),
for the notes: how the bots' work was split.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from _load_io import Config, Server, free_port, ratios

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # pifecacheta.proxy_conf, whichever interpreter runs the bench


def exit_on_signals() -> None:
    """From now on SIGINT raises KeyboardInterrupt and SIGTERM / SIGHUP SystemExit(128 + n)
    (SIGINT even when the shell started the bench ignoring it), so every ``finally`` runs and
    stops what was started; the first one makes the next ones ignored, so that a second Ctrl-C
    or a supervisor's repeated SIGTERM cannot cut that clean-up short."""
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def leave(signum: int, _frame: Any) -> None:
        for sig in signals:
            signal.signal(sig, signal.SIG_IGN)
        raise KeyboardInterrupt if signum == signal.SIGINT else SystemExit(128 + signum)

    for sig in signals:
        signal.signal(sig, leave)


def pg_server(into: list[Any] | None = None) -> Any:
    """Start a throwaway PostgreSQL server (``tests/_pg.py``'s ``PgServer``), append it to
    ``into`` and return it; a start cut short (an exception, a signal's SystemExit) stops what
    it started and re-raises. Raises ``PgUnavailable`` when Debian's ``postgresql`` is not
    installed (``scripts/test.sh`` does)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from _pg import PgServer  # type: ignore[import-not-found]

    pg = PgServer()
    try:
        pg.start()
    except BaseException:
        pg.stop()
        raise
    if into is not None:
        into.append(pg)
    return pg


def _tree_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` and its live children (0 when gone)."""
    import psutil  # type: ignore[import-untyped]

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def _postmaster_pid(pg: Any) -> int:
    try:
        return int((Path(pg.folder) / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


class Cluster:
    """PostgreSQL database, Redis, ``cfg.processes`` backends and nginx for one run.

    ``Cluster(cfg, env, workdir, pg)`` creates the database and starts Redis at once (the
    set-up writes to both before the backends start); ``env`` is then the environment of the
    set-up and of the backends. :meth:`start` starts the backends and nginx.
    """

    def __init__(self, cfg: Config, env: dict[str, str], workdir: Path, pg: Any) -> None:
        self.cfg, self.workdir, self.pg = cfg, workdir, pg
        self.db_name = f"bench_{uuid.uuid4().hex[:10]}"
        db_url = pg.create_database(self.db_name)
        self.redis_port = free_port()
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is not installed (apt-get install -y redis-server)")
        cmd = [exe, "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with open(workdir / "redis.log", "wb") as log:
            self.redis = subprocess.Popen(
                [*cmd, "--dir", str(workdir)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        try:
            self._wait_redis()
        except BaseException:  # a signal's SystemExit too: the caller never gets this cluster to stop
            self.stop_redis()
            raise
        self.env = env | {
            "PIFECACHETA_DB_URL": db_url, "REFLEX_REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "GRANIAN_WORKERS": "1",
        }  # fmt: skip
        # where the backends keep the tabs' Reflex states (Config.tab_state): said explicitly,
        # so the run does not depend on rxconfig.py's default
        self.env["REFLEX_STATE_MANAGER_MODE"] = cfg.tab_state
        self.backends: list[Server] = []
        self.nginx: subprocess.Popen[bytes] | None = None
        self.port = free_port()

    def _wait_redis(self) -> None:
        import redis

        client = redis.Redis(port=self.redis_port)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.redis.poll() is not None or time.monotonic() > deadline:
                    log = self.workdir / "redis.log"
                    raise RuntimeError(f"redis-server did not start: see {log}") from None
                time.sleep(0.05)
        client.close()

    def start(self, timeout: float = 180.0) -> None:
        """Start the backends one after the other, then nginx; wait until nginx answers ``/ping``."""
        for i in range(self.cfg.processes):
            b = Server(self.cfg, self.env, self.workdir)
            if self.cfg.route == "nginx":  # its name in nginx's server lines: it plays the bots
                b.env = self.env | {"PIFECACHETA_PROXY_ADDRESS": f"127.0.0.1:{b.port}"}  # nginx sends it
            b.log_path = self.workdir / f"backend-{i + 1}.log"
            self.backends.append(b)
            b.start(timeout)
        self.start_nginx()

    def start_nginx(self) -> None:
        """Write the nginx configuration for the backends (``pifecacheta/proxy_conf.py``, the
        policy by ``cfg.route``) and start nginx (foreground, own group)."""
        exe = shutil.which("nginx") or "/usr/sbin/nginx"
        run = self.workdir / "nginx"
        (run / "nginx-tmp").mkdir(parents=True, exist_ok=True)
        from pifecacheta import proxy_conf

        servers = [f"127.0.0.1:{b.port}" for b in self.backends]
        policy = "least_conn" if self.cfg.route == "least_conn" else "table"
        conf = run / "nginx.conf"
        conf.write_text(  # the access log: one line per websocket, when it closes (tables_split)
            proxy_conf.config(
                run, f"127.0.0.1:{self.port}", servers, policy=policy, connections=8192, access_log=True
            )
        )
        cmd = [exe, "-p", str(run), "-e", str(run / "nginx-error.log"), "-c", str(conf), "-g", "daemon off;"]
        with open(run / "nginx.log", "wb") as log:
            self.nginx = subprocess.Popen(
                cmd,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            if self.nginx.poll() is not None:
                errors = (run / "nginx-error.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"nginx exited: {errors}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/ping", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("nginx did not answer /ping in 30 s") from None
                time.sleep(0.2)

    def tables_split(self, tables: int) -> str:
        """From nginx's access log, once the ``tables`` tables' tabs have closed (waits up to 3 s
        for their lines): ``"(tables split over 2+ backends: 3 of 40)"``,
        the tables (by the ``pc_table`` cookie of their ``/_event`` requests) whose tabs nginx
        sent to more than one backend (a failed-over request counts its final backend)."""
        path = self.workdir / "nginx" / "access.log"
        deadline = time.monotonic() + 3  # nginx writes a websocket's line as it closes
        where: dict[str, set[str]] = {}
        while True:
            where.clear()
            lines = path.read_text().splitlines() if path.exists() else []
            for row in (ln.split("|") for ln in lines):
                if len(row) == 5 and row[3].startswith("/_event") and row[4] not in ("", "-"):
                    where.setdefault(row[4], set()).add(row[1].split(", ")[-1])
            if len(where) >= tables or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        split = sum(1 for backends in where.values() if len(backends) > 1)
        return f"(tables split over 2+ backends: {split} of {len(where)})"

    def cpu_seconds(self) -> float:
        """CPU seconds the backends' workers have used so far (their sum)."""
        return sum(b.cpu_seconds() for b in self.backends)

    def rss_mb(self) -> float:
        """The backends' workers' resident memory, MiB (their sum)."""
        return sum(b.rss_mb() for b in self.backends)

    def log_errors(self) -> int:
        """Error and traceback lines in the backends' logs."""
        return sum(b.log_errors() for b in self.backends)

    def profile(self, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
        """py-spy of the first backend only (see ``Server.profile``)."""
        return self.backends[0].profile(seconds, out) if self.backends else None

    def side_cpu(self) -> dict[str, float]:
        """CPU seconds so far of Redis, PostgreSQL (postmaster and its connections), nginx,
        and of the whole machine (``psutil.cpu_times``: every process, other work included);
        ``cpu<i>``, ``bots<i>`` and ``shards<i>``: backend i's CPU seconds, bot moves played so
        far and bot shards held now (i from 1)."""
        import psutil

        busy = psutil.cpu_times()
        out = {
            "redis": _tree_cpu(self.redis.pid), "postgres": _tree_cpu(_postmaster_pid(self.pg)),
            "nginx": _tree_cpu(self.nginx.pid) if self.nginx else 0.0,
            "machine": busy.user + busy.nice + busy.system + busy.irq + busy.softirq,
        }  # fmt: skip
        moves, held = self._bot_counts()
        for i, b in enumerate(self.backends, 1):
            out[f"cpu{i}"] = b.cpu_seconds()
            pids = _tree_pids(b.proc.pid) if b.proc else set()
            out[f"bots{i}"] = float(sum(n for pid, n in moves.items() if pid in pids))
            out[f"shards{i}"] = float(sum(n for pid, n in held.items() if pid in pids))
        return out

    def _bot_counts(self) -> tuple[dict[int, int], dict[int, int]]:
        """Bot moves so far and bot shards held now, by holder pid (``live/shards.py``'s
        hashes; empty when Redis does not answer)."""
        import redis

        client = redis.Redis(port=self.redis_port, socket_timeout=2)
        try:
            raw = [client.hgetall("pifecacheta:bots:moves"), client.hgetall("pifecacheta:bots:held")]
        except redis.RedisError:
            return {}, {}
        finally:
            client.close()
        by_pid: list[dict[int, int]] = [{}, {}]
        for table, out in zip(raw, by_pid, strict=True):
            for holder, n in table.items():  # <host>:<pid>:<random>
                pid = int(holder.decode().split(":")[-2])
                out[pid] = out.get(pid, 0) + int(n)
        return by_pid[0], by_pid[1]

    def stop_redis(self) -> None:
        """Stop Redis (its own process group)."""
        _stop_group(self.redis)

    def stop(self) -> None:
        """Stop nginx, the backends and Redis; drop the database."""
        for b in self.backends:
            b.stop()
        _stop_group(self.nginx)
        self.stop_redis()
        self.nginx = None
        try:
            self.pg.drop_database(self.db_name)
        except Exception:  # noqa: BLE001, S110 - the server goes at the end of the bench anyway
            pass


def _stop_group(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM the process group of ``proc`` (started with ``start_new_session``), SIGKILL it
    after 10 s; nothing when it is None or has exited."""
    if proc is not None and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _tree_pids(pid: int) -> set[int]:
    """Process ``pid`` and its live children's pids (empty when gone)."""
    import psutil

    try:
        root = psutil.Process(pid)
        return {pid, *(p.pid for p in root.children(recursive=True))}
    except psutil.Error:
        return set()


def side_notes(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    """``"redis 3%, postgres 12%, nginx 2% of a core; machine 190% of 2 cores; backends CPU
    61%/58%, bot moves 410/397, bot shards 8/8"`` over a window."""
    if not before:
        return ""
    pct = {k: (after[k] - before[k]) / seconds * 100 for k in before}
    parts = ", ".join(f"{k} {pct[k]:.0f}%" for k in ("redis", "postgres", "nginx"))
    text = f"{parts} of a core; machine {pct['machine']:.0f}% of {os.cpu_count()} cores"
    n = sum(1 for k in before if k.startswith("cpu"))
    if n:
        cpu = "/".join(f"{pct[f'cpu{i}']:.0f}%" for i in range(1, n + 1))
        bots = "/".join(f"{after[f'bots{i}'] - before[f'bots{i}']:.0f}" for i in range(1, n + 1))
        shards = "/".join(f"{after[f'shards{i}']:.0f}" for i in range(1, n + 1))
        text += f"; backends CPU {cpu}, bot moves {bots}, bot shards {shards}"
    return text


def cluster_ratios(runs: list[list[dict[str, Any]]], n: int, tag: str = "") -> list[str]:
    """Each cluster size's figures at ``n`` tables against the smallest size's (``runs``: the
    cluster configurations' rows, smallest first; ``tag`` follows the sizes):
    ``"  P2/P1 at 50 tables: moves_s 1.9, ..."``."""
    last = [r[-1] for r in runs if r and r[-1]["n"] == n]
    base = last[0]["processes"] if last else 0
    return [ratios(last[0], f).replace("B/A", f"P{f['processes']}/P{base}{tag}") for f in last[1:]]


ROUTES = ("nginx", "least_conn", "direct")  # bench_load --route: Config.route (_load_io.py)


def label(p: int, tab_state: str, route: str, states: list[str], routes: list[str]) -> str:
    """A cluster configuration's label: ``P2``, and ``-memory`` / ``-least_conn`` when several
    places of the tab states / routes run (``P2-memory-least_conn``)."""
    return f"P{p}" + (f"-{tab_state}" if len(states) > 1 else "") + (f"-{route}" if len(routes) > 1 else "")


def pair_ratios(
    results: dict[str, list[dict[str, Any]]], n: int, p: int, states: list[str], routes: list[str]
) -> list[str]:
    """For P backends at ``n`` tables: memory over redis per route (both tab states run), and
    each route over the first one given per tab state (``"  P2 nginx/least_conn at 40 tables:
    ..."``); only the pairs whose two runs reached ``n``."""

    def lab(ts: str, r: str) -> str:
        return label(p, ts, r, states, routes)

    pairs: list[tuple[str, str, str]] = []
    for r in routes if len(states) > 1 else ():
        pairs.append(
            (lab("redis", r), lab("memory", r), f"P{p} memory/redis" + (f" ({r})" * (len(routes) > 1)))
        )
    for ts in states:
        for r in routes[1:]:
            pairs.append(
                (lab(ts, routes[0]), lab(ts, r), f"P{p} {r}/{routes[0]}" + (f" ({ts})" * (len(states) > 1)))
            )
    out = []
    for a, b, name in pairs:
        ra, rb = results.get(a) or [], results.get(b) or []
        if ra and rb and ra[-1]["n"] == n and rb[-1]["n"] == n:
            out.append(ratios(ra[-1], rb[-1]).replace("B/A", name))
    return out
