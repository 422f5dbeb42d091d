"""Load of one backend process: N active tables of simulated players over real websockets.

For each N of ``--tables`` (default 10 25 50 100 200 400), on a fresh SQLite database and Reflex
state directory: (1) ``--_setup`` runs in the checkout's own interpreter (so ``--compare`` uses
the other checkout's code) and creates N started tables through ``TableService``; (2) the
server is ``reflex run --env prod --backend-only`` on 127.0.0.1, in its own process group;
(3) each person and spectator is a websocket client speaking Reflex's protocol as a browser tab
does (``bench/_load_io.py``): token in the query, ``hydrate_and_load`` of ``/mesa/<code>`` with
the person's localStorage identity in the CONNECT packet, then ``TableState`` events (``draw``,
``take``, ``card_double``, ``pile_click``, ``go_out``, ``next_round``, ``vote_rematch``) with the
version of the last ``ui`` the tab received. A person reads its hand from its own ``ui`` deltas,
thinks 1-2 s, takes a discard that fits, discards its loosest card; the bots are the server's.
(4) ``--seconds`` of measurement once every tab has its first view; the server is killed on
every way out.

Scenarios: ``cacheta`` (2 people + 2 bots per table), ``pife`` (4 people), ``--spectators K``
more tabs per table. Printed per N: moves/s, server CPU (% of one core) and RSS, move -> each
other tab's update (median/p95/p99), the acting tab's own reply, bot wait beyond its delay,
refusals, errors, dropped connections; then the knee (first N with p95 over 250 ms).
``--compare CHECKOUT`` / ``--compare-env K=V`` run a second configuration right after each N
and print B/A ratios. bench/README.md says more. Usage::

    PATH=.tools/node_modules/.bin:$PATH REFLEX_USE_SYSTEM_BUN=1 .venv/bin/python bench/bench_load.py \\
        [--tables 10 25] [--seconds 30] [--scenario cacheta|pife] [--spectators 0] \\
        [--compare /path/to/other/checkout] [--compare-env REFLEX_STATE_MANAGER_MODE=memory]
        [--processes 1 2 4 [--skip-sqlite] [--tab-state redis memory] [--route least_conn nginx direct]]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cluster_io import ROUTES, exit_on_signals, label  # noqa: E402
from _load_io import ROW, Config, Server, SioTab, med, pct, print_report, ratios, top_frames  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
KNEE_MS = 250.0
# A Cacheta table of 2 people and 2 bots goes round in about 8 s (two turns of two moves with
# 1-2 s of thought each, two bot turns of two moves 0.5 s apart): tables that start within
# that span are spread over the round; the window opens once the last one has started.
STAGGER_S = 8.0
WARMUP_S = 10.0
PLAY_PHASES = ("draw", "discard")


# ---- set-up (runs inside the checkout under test, with its interpreter) --------------------------
def setup_tables(spec: dict[str, Any]) -> dict[str, Any]:
    """Create ``spec["tables"]`` started tables through the checkout's ``TableService``.

    Runs with the current directory at the checkout (its ``pifecacheta`` package and migrations);
    the database is ``PIFECACHETA_DB_URL``. Returns the Reflex state names this app compiles
    (the root; the viewer's state, which holds the localStorage identity; the table tab's
    state, which handles ``draw`` / ``card_double``), the frontend state schema, the Reflex
    version, and per table its code and its people (player id, secret, name, seat).
    """
    sys.path.insert(0, os.getcwd())
    import importlib

    import reflex as rx

    importlib.import_module("pifecacheta.pifecacheta")  # the app: every state class is defined
    from pifecacheta import service as service_module
    from pifecacheta.rules import CACHETA_7, PIFE

    def walk(cls: Any) -> Any:
        yield cls
        for sub in cls.get_substates():
            yield from walk(sub)

    states = list(walk(rx.State))  # found by what they hold, not by their (changing) names
    viewer = next(c for c in states if {"player_id", "secret", "name"} <= set(c.base_vars))
    table = next(c for c in states if {"draw", "card_double", "pile_click"} <= set(c.event_handlers))
    try:
        schema = rx.State._to_frontend_schema()
    except Exception:  # noqa: BLE001 - an older Reflex: the frontend sends none either
        schema = None
    from reflex.constants import Reflex

    svc = service_module.get_service()  # the process-wide service on PIFECACHETA_DB_URL
    pife = spec["scenario"] == "pife"
    tables = []
    for i in range(spec["tables"]):
        people = [svc.identify(None, None, f"P{i}{c}") for c in ("a", "b", "c", "d")[: 4 if pife else 2]]
        code = svc.create_table(people[0], PIFE if pife else CACHETA_7)
        seats = [0] + [svc.join(code, p) for p in people[1:]]
        if not pife:
            svc.add_bots(code, people[0], ["Carmen", "Tito"])
        svc.start(code, people[0])
        ids = [{"player_id": p.player_id, "secret": p.secret, "name": p.name} for p in people]
        tables.append({"code": code, "people": [d | {"seat": s} for d, s in zip(ids, seats, strict=True)]})
    return {
        "root": rx.State.get_full_name(), "session": viewer.get_full_name(), "table": table.get_full_name(),
        "schema": schema, "version": Reflex.VERSION, "tables": tables,
    }  # fmt: skip


# ---- the simulated tabs ------------------------------------------------------------------------
@dataclass
class Stats:
    """What one run of one N collected (times in seconds, ``time.monotonic()``)."""

    moves: list[tuple[float, int, int, int, float]] = field(default_factory=list)  # t, table, tab, v, reply
    bot_waits: list[float] = field(default_factory=list)
    version_steps: int = 0  # table version increments seen in the window (every move, any seat)
    refusals: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)  # events the people sent, by handler
    errors: list[str] = field(default_factory=list)
    dropped: int = 0
    t0: float = float("inf")
    t1: float = float("inf")


RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def worth(card: dict[str, Any], hand: list[dict[str, Any]]) -> int:
    """How much ``card`` helps ``hand`` (CardUi dicts): the hand's other cards of its rank plus
    those of its suit within two ranks, i.e. what could make a set or a run with it."""
    rank = {x: i for i, x in enumerate(RANKS)}
    r = rank.get(card.get("rank", ""), -9)
    return sum(
        1 for o in hand if o.get("id") != card.get("id") and (o.get("rank") == card.get("rank") or (
            o.get("suit") == card.get("suit") and abs(rank.get(o.get("rank", ""), -99) - r) <= 2))
    )  # fmt: skip


def loosest(cards: list[dict[str, Any]], hand: list[dict[str, Any]]) -> str:
    """The id of the card of ``cards`` worth least to ``hand`` (ties at random): a discard."""
    return str(min(cards, key=lambda c: (worth(c, hand), random.random()))["id"])


class Tab:
    """One simulated browser tab at one table: a seated person (``person``) or a spectator."""

    def __init__(self, run: Run, table: int, info: dict[str, Any] | None, observer: bool) -> None:
        self.run, self.table, self.person, self.observer = run, table, info, observer
        self.index = len(run.tabs)
        self.frames: list[tuple[float, int]] = []  # (t, ui version) of every ui frame
        self.ui: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.pending: tuple[float, int] | None = None  # (t_send, version) of my last move
        self.refused = False
        self.no_take = -1  # the version at which taking the discard was refused: draw instead
        code = run.setup["tables"][table]["code"]
        self.router = {"pathname": f"/mesa/{code}", "asPath": f"/mesa/{code}", "query": {"code": code}}
        cookie = {"Cookie": f"pc_table={code}"}  # as nginx sets it on the page load of /mesa/<code>
        self.sio = SioTab(run.tab_url(table), str(uuid.uuid4()), run.setup["version"], self.on_update, cookie)

    async def open(self) -> None:
        """Connect with the page's boot event (hydrate + on_load), as the browser does."""
        s = self.run.setup
        payload: dict[str, Any] = {}
        if self.person is not None:  # this browser's localStorage (pages/session: pc_player, ...)
            fq = s["session"] + ".{}_rx_state_"
            ident = {k: self.person[k] for k in ("player_id", "secret", "name")} | {"lang": "pt"}
            payload["vars"] = {fq.format(k): v for k, v in ident.items()}
        event = {"name": s["root"] + ".hydrate_and_load", "payload": payload, "router_data": self.router}
        await self.sio.connect({"event": event, "state_schema": s["schema"]})

    def on_update(self, t: float, update: dict[str, Any]) -> None:
        """One state update that reached this tab at ``t``: record its ``ui`` version and time."""
        delta = (update.get("delta") or {}).get(self.run.setup["table"]) or {}
        if "message_serial_rx_state_" in delta and self.pending is not None:  # a refusal: a new serial
            st, msg = self.run.stats, str(delta.get("message_rx_state_") or "?")
            st.refusals[msg] = st.refusals.get(msg, 0) + 1
            self.no_take, self.pending, self.refused = self.pending[1], None, True
            self.changed.set()
        ui = delta.get("ui_rx_state_")
        if not isinstance(ui, dict):
            return
        prev, prev_t = self.ui, (self.frames[-1][0] if self.frames else t)
        self.ui = ui
        v = int(ui.get("version", -1))
        self.frames.append((t, v))
        st = self.run.stats
        if self.pending is not None and v > self.pending[1]:
            t_send = self.pending[0]
            if st.t0 <= t_send <= st.t1:
                st.moves.append((t_send, self.table, self.index, v, t - t_send))
            self.pending = None
        if self.observer and prev and v > int(prev.get("version", -1)) and st.t0 <= t <= st.t1:
            st.version_steps += v - int(prev.get("version", -1))
            seats: list[dict[str, Any]] = prev.get("seats", [])
            turn = next((x for x in seats if x.get("seat") == prev.get("turn_seat")), {})
            if prev.get("phase") in PLAY_PHASES and turn.get("is_bot"):
                st.bot_waits.append(t - prev_t - self.run.bot_delay)
        self.changed.set()

    def _move(self, ui: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """The event a person sends for view ``ui``, or None when it is not this tab's to act."""
        v = int(ui.get("version", 0))
        if ui.get("can_go_out"):  # BATER is enabled: a person presses it
            return "go_out", {"version": v}
        if ui.get("can_draw"):  # the discard when it fits the hand (PEGAR DO LIXO), else the stock
            top = ui.get("discard_top") or {}
            if ui.get("has_discard") and v != self.no_take and worth(top, ui.get("hand_by_suit", [])) >= 2:
                return "take", {"version": v}
            return "draw", {"version": v}
        if ui.get("can_discard"):
            cards = ui.get("hand_by_suit", [])  # neither the card taken from the pile nor its twin
            taken = {(c.get("rank"), c.get("suit")) for c in cards if c.get("taken")}
            hand = [c for c in cards if (c.get("rank"), c.get("suit")) not in taken]
            plain = [c for c in hand if not c.get("wild")] or hand
            if not plain:
                return None
            card = loosest(plain, ui.get("hand_by_suit", []))
            if random.random() < 0.5:  # double-click, or tap the card then the pile
                return "card_double", {"card_id": card, "version": v}
            return "pile_click", {"version": v, "phase": "discard", "selected": card}
        people = [p["seat"] for p in self.run.setup["tables"][self.table]["people"]]
        if ui.get("can_next_round") and self.person is not None and self.person["seat"] == min(people):
            return "next_round", {"version": v}
        if ui.get("match_over") and ui.get("rematch_offered") and not ui.get("rematch_voted"):
            return "vote_rematch", {}
        return None

    async def play(self, stop: asyncio.Event, start_after: float = 0.0) -> None:
        """A person: wait for a view that is mine to act on, think, send the click's event.
        The first move waits ``start_after`` seconds more (its table's start in ``--stagger``)."""
        acted: int | None = None
        if start_after > 0:
            await asyncio.sleep(start_after)
        while not stop.is_set():
            await self.changed.wait()
            self.changed.clear()
            if self.refused:
                self.refused, acted = False, None
            v = int(self.ui.get("version", -1))
            if v == acted or self.pending is not None or self._move(self.ui) is None:
                continue
            await asyncio.sleep(random.uniform(*self.run.think))
            if stop.is_set() or int(self.ui.get("version", -1)) != v or (move := self._move(self.ui)) is None:
                self.changed.set()
                continue
            name, payload = move
            self.run.stats.kinds[name] = self.run.stats.kinds.get(name, 0) + 1
            name = f"{self.run.setup['table']}.{name}"
            event = {"name": name, "payload": payload, "router_data": self.router}
            acted = v
            if not name.endswith(".vote_rematch"):  # a vote changes the version only once everyone voted
                pending = self.pending = (time.monotonic(), v)  # set before the send: the reply may win
                asyncio.get_running_loop().call_later(15, self._timeout, pending)
            await self.sio.emit_event(event)

    def _timeout(self, pending: tuple[float, int]) -> None:
        if self.pending is pending:  # no reply in 15 s
            self.run.stats.errors.append(f"tab {self.index}: no reply to a move in 15 s")
            self.pending, self.refused = None, True
            self.changed.set()


class Run:
    """One configuration at one N: set-up, server, tabs, measurement window, figures."""

    def __init__(self, cfg: Config, args: argparse.Namespace, n: int) -> None:
        self.cfg, self.args, self.n = cfg, args, n
        self.think = tuple(args.think)
        self.bot_delay = args.bot_delay
        self.tabs: list[Tab] = []
        self.stats = Stats()
        self.setup: dict[str, Any] = {}
        self.url = ""
        self.table_urls: list[str] = []  # --route direct: backend i serves tables i, i + P, ...

    def tab_url(self, table: int) -> str:
        """Where a tab of table number ``table`` connects: the server (nginx for a cluster), or
        with ``--route direct`` the table's own backend, every tab of a table on the same one."""
        return self.table_urls[table % len(self.table_urls)] if self.table_urls else self.url

    def env(self, workdir: Path) -> dict[str, str]:
        """The server's and the set-up's environment: a fresh database and state directory."""
        states = workdir / "states"  # REFLEX_STATES_WORKDIR: the disk state manager's files
        states.mkdir()
        for _ in range(self.args.stale_states):  # earlier visitors' tabs: files the manager scans
            (states / f"{uuid.uuid4().hex}.pkl").touch()
        return dict(os.environ) | {
            "PIFECACHETA_DB_URL": f"sqlite:///{workdir / 'bench.db'}", "REFLEX_STATES_WORKDIR": str(states),
            "PIFECACHETA_BOT_DELAY": str(self.bot_delay), "REFLEX_TELEMETRY_ENABLED": "false",
            "REFLEX_CHECK_LATEST_VERSION": "false", "PYTHONUNBUFFERED": "1",
            "PATH": f"{self.cfg.root / '.tools' / 'node_modules' / '.bin'}:{os.environ.get('PATH', '')}",
        } | self.cfg.env  # fmt: skip

    def measure(self) -> dict[str, Any]:
        """Set up, serve, play, measure; always stops the server and removes the work dir."""
        workdir = Path(tempfile.mkdtemp(prefix="bench_load_"))
        server: Any = None
        try:
            env = self.env(workdir)
            if self.cfg.processes:  # PostgreSQL + Redis first: the set-up writes to both
                from _cluster_io import Cluster

                server = Cluster(self.cfg, env, workdir, PG[0])
                SERVERS.append(server)
                env = server.env
            spec = json.dumps({"tables": self.n, "scenario": self.args.scenario})
            out = subprocess.run(
                [str(self.cfg.python()), str(Path(__file__).resolve()), "--_setup", spec],
                cwd=self.cfg.root, env=env, capture_output=True, text=True, timeout=600, check=False,
            )  # fmt: skip
            if out.returncode != 0:
                raise RuntimeError(f"set-up failed in {self.cfg.root}:\n{out.stderr[-3000:]}")
            self.setup = json.loads(out.stdout.strip().splitlines()[-1])
            if server is None:
                server = Server(self.cfg, env, workdir)
                SERVERS.append(server)
            server.start()
            self.url = f"ws://127.0.0.1:{server.port}"
            if self.cfg.processes and self.cfg.route == "direct":
                self.table_urls = [f"ws://127.0.0.1:{b.port}" for b in server.backends]
            return asyncio.run(self._play(server))
        finally:
            if server is not None:
                server.stop()
                SERVERS.remove(server)
            shutil.rmtree(workdir, ignore_errors=True)

    async def _play(self, server: Any) -> dict[str, Any]:
        for i, table in enumerate(self.setup["tables"]):
            for j, person in enumerate(table["people"]):
                self.tabs.append(Tab(self, i, person, observer=j == 0))
            for _ in range(self.args.spectators):
                self.tabs.append(Tab(self, i, None, observer=False))
        gate = asyncio.Semaphore(16)
        t_connect = time.monotonic()

        async def open_one(tab: Tab) -> None:
            async with gate:
                try:
                    await tab.open()
                except Exception as exc:  # noqa: BLE001
                    self.stats.errors.append(f"connect: {type(exc).__name__}: {exc}")

        await asyncio.gather(*(open_one(t) for t in self.tabs))
        live = [t for t in self.tabs if t.sio.closed.is_set() is False and t.sio.ws is not None]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(not t.frames for t in live):
            await asyncio.sleep(0.1)
        connect_s = time.monotonic() - t_connect
        stop = asyncio.Event()
        # each table starts at its own moment within --stagger seconds (its people wait that
        # long before their first move), as tables do that were not all opened in one second;
        # the window opens --warmup seconds later
        starts = [random.uniform(0, self.args.stagger) for _ in self.setup["tables"]]
        players = [asyncio.create_task(t.play(stop, starts[t.table])) for t in live if t.person is not None]
        await asyncio.sleep(self.args.warmup)
        st = self.stats
        me = time.process_time  # this bench's own CPU: the clients share the machine's cores
        cpu0, mine0, side0, st.t0 = server.cpu_seconds(), me(), server.side_cpu(), time.monotonic()
        rss_max = rss0 = server.rss_mb()
        spy = self.args.py_spy and self.args.py_spy / f"{self.cfg.label}-{self.n}.txt"
        spy_proc = spy and server.profile(self.args.seconds, spy)
        by_minute: list[float] = []  # RSS at each whole minute of a long window
        while time.monotonic() - st.t0 < self.args.seconds:
            await asyncio.sleep(1.0)
            rss_max = max(rss_max, now := server.rss_mb())
            if time.monotonic() - st.t0 >= 60 * (len(by_minute) + 1):
                by_minute.append(now)
        st.t1 = time.monotonic()
        if spy and spy_proc:
            await asyncio.to_thread(spy_proc.wait, 60)
        cpu1, mine, side1 = server.cpu_seconds(), (me() - mine0) / (st.t1 - st.t0) * 100, server.side_cpu()
        stop.set()
        await asyncio.sleep(2.0)  # the last moves' updates still on their way
        st.dropped = sum(1 for t in live if t.sio.closed.is_set())
        for task in players:
            task.cancel()
        for res in await asyncio.gather(*players, return_exceptions=True):
            if isinstance(res, Exception):
                st.errors.append(f"player: {type(res).__name__}: {res}")
        await asyncio.gather(*(t.sio.close() for t in self.tabs), return_exceptions=True)
        split = server.tables_split(self.n) if self.cfg.processes and self.cfg.route != "direct" else ""
        cpu = (cpu1 - cpu0) / (st.t1 - st.t0) * 100
        f = self._figures(connect_s, cpu, rss_max, server.log_errors()) | {"bench_cpu": mine}
        f["notes"].insert(0, f"RSS {rss0:.0f} -> {server.rss_mb():.0f} MiB")
        if by_minute:
            f["rss_by_minute"] = by_minute
            f["notes"].insert(1, "RSS by minute " + " ".join(f"{r:.0f}" for r in by_minute))
        if side0:  # a cluster: what Redis, PostgreSQL, nginx and the whole machine used
            from _cluster_io import side_notes

            f["notes"].insert(1, side_notes(side0, side1, st.t1 - st.t0))
        if split:
            f["notes"].insert(2, split)
        if spy and spy.exists():
            f["notes"].append(f"profile {spy}: " + ", ".join(top_frames(spy)))
        return f

    def _figures(self, connect_s: float, cpu: float, rss: float, log_errors: int) -> dict[str, Any]:
        st = self.stats
        by_table: dict[int, list[Tab]] = {}
        for t in self.tabs:
            by_table.setdefault(t.table, []).append(t)
        others, missed = [], 0
        by_second: dict[int, list[float]] = {}  # second of the window -> its moves' latencies
        for t_send, table, tab, v, _ in st.moves:
            for other in by_table[table]:
                if other.index == tab:
                    continue
                times = [x for x, _ in other.frames]
                k = bisect.bisect_left(times, t_send)
                hit = next((x for x, ver in other.frames[k:] if ver >= v), None)
                if hit is None:
                    missed += 1
                else:
                    others.append((hit - t_send) * 1000)
                    by_second.setdefault(int(t_send - st.t0), []).append(others[-1])
        span, reply, bot = st.t1 - st.t0, [m[4] * 1000 for m in st.moves], [w * 1000 for w in st.bot_waits]
        return {
            "n": self.n, "processes": self.cfg.processes, "tabs": len(self.tabs), "connect_s": connect_s,
            "moves_s": st.version_steps / span,
            "people_s": len(st.moves) / span, "cpu": cpu, "rss": rss,
            "cpu_ms": cpu * 10 / (st.version_steps / span) if st.version_steps else float("nan"),
            "o50": med(others), "o95": pct(others, 95), "o99": pct(others, 99),
            "r50": med(reply), "r95": pct(reply, 95), "b50": med(bot), "b95": pct(bot, 95),
            "refused": sum(st.refusals.values()), "errors": len(st.errors) + log_errors,
            "dropped": st.dropped,
            "notes": [f"missed updates {missed}" if missed else "", dict(st.refusals) or "", dict(st.kinds),
                      *st.errors[:5]],
            "by_second": {k: (len(v), med(v), pct(v, 95)) for k, v in sorted(by_second.items())},
        }  # fmt: skip


def timeline(by_second: dict[int, tuple[int, float, float]]) -> str:
    """One line per ten seconds of the window: ``second:count/median/p95`` of the moves sent in
    each second (ms from the move to each other tab), to tell steady queueing from stalls."""
    cells = [f"{k}:{n}/{m:.0f}/{p:.0f}" for k, (n, m, p) in by_second.items()]
    return "\n".join("    " + " ".join(cells[i : i + 10]) for i in range(0, len(cells), 10))


SERVERS: list[Any] = []  # running servers (or clusters), stopped on any exit
PG: list[Any] = []  # the throwaway PostgreSQL server of --processes, stopped at the end


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[10, 25, 50, 100, 200, 400])
    ap.add_argument("--seconds", type=float, default=30.0, help="measurement window per N")
    ap.add_argument(
        "--stagger", type=float, default=STAGGER_S,
        help="each table's people start within this many seconds (0: every table at once)",
    )  # fmt: skip
    ap.add_argument(
        "--warmup", type=float, default=WARMUP_S, help="seconds of play before the window opens (0: none)"
    )
    ap.add_argument("--scenario", choices=("cacheta", "pife"), default="cacheta")
    ap.add_argument("--spectators", type=int, default=0, help="extra spectator tabs per table")
    ap.add_argument("--think", type=float, nargs=2, default=(1.0, 2.0), metavar=("MIN", "MAX"))
    ap.add_argument("--bot-delay", type=float, default=0.5, help="PIFECACHETA_BOT_DELAY for the server")
    ap.add_argument("--compare", type=Path, help="a second checkout (with its own .venv) to run after each N")
    ap.add_argument("--compare-env", action="append", default=[], metavar="K=V", help="env of the second run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write every figure to this file")
    ap.add_argument(
        "--stale-states", type=int, default=0, help="empty state files of past tabs to start with"
    )
    ap.add_argument(
        "--timeline", action="store_true",
        help="also print, for each second of the window, its moves -> other tab: count, median, p95",
    )  # fmt: skip
    ap.add_argument("--py-spy", type=Path, metavar="DIR", help="py-spy record --gil of each window, into DIR")
    ap.add_argument(
        "--processes", type=int, nargs="+", metavar="P",
        help="per N, P backends on PostgreSQL + Redis behind nginx too, for each P (e.g. 1 2 4)",
    )  # fmt: skip
    ap.add_argument("--skip-sqlite", action="store_true", help="with --processes: no one-process SQLite run")
    ap.add_argument(
        "--tab-state", nargs="+", choices=("redis", "memory"), default=["memory"], metavar="WHERE",
        help="with --processes: where the backends keep the tabs' Reflex states (REFLEX_STATE_MANAGER_MODE), "
        "memory (the app's default) and/or redis; with both, each P runs in each, back to back",
    )  # fmt: skip
    ap.add_argument(
        "--route", nargs="+", choices=ROUTES, default=["nginx"], metavar="ROUTE",
        help="with --processes: where the tabs' websockets go: nginx (it hashes the pc_table cookie each "
        "tab sends: a table's tabs on one backend, as scripts/cluster.sh), least_conn (nginx, fewest "
        "connections: a table's tabs spread, the balancing before session 24), direct (straight to "
        "backend table number %% P); with several, each P runs with each, back to back",
    )  # fmt: skip
    ap.add_argument("--_setup", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._setup:  # inside the checkout under test: create the tables, print them as JSON
        print(json.dumps(setup_tables(json.loads(args._setup))))
        return 0
    random.seed(args.seed)
    if args.py_spy:
        args.py_spy.mkdir(parents=True, exist_ok=True)
    if args.compare and not Config("B", args.compare).python().exists():
        ap.error(f"--compare {args.compare}: no .venv/bin/python there (source scripts/_env.sh in it)")
    if args.processes and (args.compare or args.compare_env):
        ap.error("--processes runs its own configurations: no --compare with it")
    configs = [] if args.processes and args.skip_sqlite else [Config("A", ROOT)]
    states, routes = list(dict.fromkeys(args.tab_state)), list(dict.fromkeys(args.route))
    configs += [
        Config(label(p, ts, r, states, routes), ROOT, processes=p, tab_state=ts, route=r)
        for p in args.processes or [] for ts in states for r in routes
    ]  # fmt: skip
    exit_on_signals()
    if args.processes:
        from _cluster_io import pg_server

        pg_server(PG)
        print(f"PostgreSQL (throwaway, fsync off) on port {PG[0].port}; Redis and nginx per run")
    if args.compare or args.compare_env:
        env = dict(kv.split("=", 1) for kv in args.compare_env)
        configs.append(Config("B", (args.compare or ROOT).resolve(), env))
    for c in configs:
        where = f" tab states in {c.tab_state}, tabs routed by {c.route}" if c.processes else ""
        print(f"config {c.label}: {c.root}{where} {' '.join(f'{k}={v}' for k, v in c.env.items())}".rstrip())
    print(
        f"scenario {args.scenario}, {args.spectators} spectator tab(s) per table, think {args.think[0]}-"
        f"{args.think[1]} s, bot delay {args.bot_delay} s, tables start within {args.stagger:.0f} s,"
        f" {args.warmup:.0f} s of warm-up, {args.seconds:.0f} s per N;",
        "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()),
    )

    results: dict[str, list[dict[str, Any]]] = {c.label: [] for c in configs}
    interrupted = failed = False
    try:
        for n in args.tables:
            for c in configs:
                try:
                    f = Run(c, args, n).measure()
                except Exception as exc:  # noqa: BLE001 - one failed N must not lose the others
                    failed = True
                    print(f"{c.label} at {n} tables FAILED: {type(exc).__name__}: {exc}")
                    continue
                results[c.label].append(f)
                print(ROW.format(label=c.label, **f), f"connect {f['connect_s']:.1f}s", *f["notes"])
                if args.timeline:
                    print(timeline(f["by_second"]))
            last = [r[-1] for r in results.values() if r and r[-1]["n"] == n]
            if len(last) == 2 and not args.processes:  # both configurations ran this N
                print(ratios(*last))
            if args.processes:
                from _cluster_io import cluster_ratios, pair_ratios

                for ts in states:  # each size against the smallest, per place of the tab states and route
                    for r in routes:
                        same = [
                            results[c.label]
                            for c in configs
                            if c.processes and (c.tab_state, c.route) == (ts, r)
                        ]
                        tag = "".join(f" ({x})" for x, xs in ((ts, states), (r, routes)) if len(xs) > 1)
                        for line in cluster_ratios(same, n, tag):
                            print(line)
                for p in args.processes:  # memory over redis, each route over the first, per size
                    for line in pair_ratios(results, n, p, states, routes):
                        print(line)
    except KeyboardInterrupt:
        print("interrupted: the server was stopped; figures so far below")
        interrupted = True
    finally:
        for s in list(SERVERS):
            s.stop()
        for pg in PG:
            pg.stop()
    print_report({c.label: results[c.label] for c in configs}, KNEE_MS, served=bool(args.processes))
    if args.json:
        args.json.write_text(json.dumps({"argv": sys.argv[1:], "results": results}, indent=1, default=str))
    return 130 if interrupted else 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
