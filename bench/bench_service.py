"""CPU cost of one move in the service alone: ``TableService`` on a fresh SQLite file, no Reflex.

Plays ``--tables`` tables in one process on a simulated clock (``--tick`` 0.25 s steps):

* ``cacheta`` (default): Cacheta 7 tables of 2 people + 2 bots (Tito, Luna), bot delay
  ``--bot-delay`` 0.5 s; ``pife``: Pife tables of 4 people;
* a person acts ``--think`` 1-2 simulated seconds after its own view says it may (its policy is
  the Carmen bot's, on that person's own ``player_view``), through ``TableService.act`` with the
  version of its last snapshot, as a browser does;
* bots are driven as the app's sweeper drives them: ``pifecacheta.sweeper.BotScheduler`` when
  the checkout has it (due times fed by ``on_change``), else ``drive_once`` every tick (every bot
  table's ``pending_bot_delay``, then ``bot_step`` for those due);
* after every committed change (each ``on_change``), one ``snapshots(code, viewers)`` read, as
  the live updates do; viewers = each person's identity + 1 spectator (a bot has no tab);
* ``--history``: after each of those reads, every viewer's history panel
  (``state/history_ui.history_for`` of each snapshot, all at once on one event loop, as the
  tabs' ``history`` vars ask right after a change), charged to ``history``;
* each table stops after ``--moves`` committed actions or at the end of its match.

Prints, per scenario: moves, CPU ms per move (``time.process_time``, all threads) for the whole
run and for the service part alone, snapshot reads per CPU second, and the split in exclusive
CPU time (a nested call is counted once, in the innermost category): ``act``, ``snapshots``,
``bot step`` (``bot_step``), ``bot scheduling`` (``pending_bot_delay``, ``bot_tables``, the
scheduler's own work), ``people`` (the simulated people's policy; not the server's work) and
``other`` (set-up excluded).

    .venv/bin/python bench/bench_service.py --tables 50 --moves 100
    .venv/bin/python bench/bench_service.py --compare /work/wt-cap-base    # back to back, ratios

``--compare PATH`` runs the same benchmark in ``PATH``'s own venv (``PATH/.venv/bin/python``,
this script with ``--root PATH``) first, then here, and prints both and the ratios here/there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

CATEGORIES = ("act", "snapshots", "history", "bot step", "bot scheduling", "people", "other")
SERVICE = ("act", "snapshots", "history", "bot step", "bot scheduling")


class FakeClock:
    """The service's clock: aware UTC, moved by :meth:`advance` (seconds)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class Timer:
    """Exclusive CPU time (``time.process_time`` seconds) per category, per thread nesting.

    ``with timer("act"): ...`` charges the block to ``act`` minus what nested blocks charged to
    their own categories. Thread-safe; each thread keeps its own nesting stack.
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._local = threading.local()
        self._lock = threading.Lock()

    @contextmanager
    def __call__(self, category: str) -> Iterator[None]:
        stack: list[list[float]] = self._local.__dict__.setdefault("stack", [])
        frame = [time.thread_time(), 0.0]  # start, time charged to children
        stack.append(frame)
        try:
            yield
        finally:
            stack.pop()
            spent = time.thread_time() - frame[0]
            if stack:
                stack[-1][1] += spent
            with self._lock:
                self.seconds[category] += spent - frame[1]
                self.calls[category] += 1

    def wrap(self, obj: Any, name: str, category: str) -> None:
        """Replace ``obj.name`` (a method) by a timed one on the instance."""
        fn = getattr(obj, name)

        def timed(*a: Any, **k: Any) -> Any:
            with self(category):
                return fn(*a, **k)

        setattr(obj, name, timed)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """One scenario in this process; returns the figures as a JSON-able dict."""
    from pifecacheta import sweeper
    from pifecacheta.bots import bot_action
    from pifecacheta.db import make_engine, migrate
    from pifecacheta.rules import CACHETA_7, PIFE, IllegalActionError, Phase
    from pifecacheta.service import Refusal, TableService

    pife = args.scenario == "pife"
    tmp = tempfile.mkdtemp(prefix="bench-service-")
    engine = make_engine(f"sqlite:///{Path(tmp) / 'bench.db'}")
    migrate(engine)
    clock = FakeClock()
    seeds = random.Random(args.seed)
    svc = TableService(
        engine, clock=clock, seed_source=lambda: seeds.randrange(1 << 62), bot_delay=args.bot_delay
    )
    rng = random.Random(args.seed)
    tables: dict[str, dict[str, Any]] = {}
    for i in range(args.tables):
        people = [svc.identify(None, None, f"P{i}-{k}") for k in range(4 if pife else 2)]
        code = svc.create_table(people[0], PIFE if pife else CACHETA_7)
        for p in people[1:]:
            svc.join(code, p)
        if not pife:
            svc.add_bots(code, people[0], ["Tito", "Luna"])
        svc.start(code, people[0])
        tables[code] = {"people": people, "moves": 0, "ready": {}, "snaps": None, "done": False}

    timer = Timer()
    for name, cat in (
        ("act", "act"),
        ("snapshots", "snapshots"),
        ("bot_step", "bot step"),
        ("pending_bot_delay", "bot scheduling"),
        ("bot_tables", "bot scheduling"),
    ):
        timer.wrap(svc, name, cat)
    changed: list[str] = []
    changed_lock = threading.Lock()

    def listen(code: str) -> None:
        with changed_lock:
            changed.append(code)

    svc.on_change(listen)
    scheduler = None
    if hasattr(sweeper, "BotScheduler") and not args.poll:
        scheduler = sweeper.BotScheduler(svc)
        scheduler.attach()
        for name in ("scan", "refresh", "take_due", "run_due"):
            timer.wrap(scheduler, name, "bot scheduling")
        scheduler.scan()

    loop = asyncio.new_event_loop() if args.history else None

    def histories(snaps: list[Any]) -> None:
        from pifecacheta.state import history_ui

        async def every_tab() -> None:
            await asyncio.gather(*(history_ui.history_for(svc, s) for s in snaps if s.view is not None))

        assert loop is not None
        with timer("history"):
            loop.run_until_complete(every_tab())

    def read(code: str) -> None:
        t = tables[code]
        t["snaps"] = svc.snapshots(code, [*t["people"], None])
        if loop is not None:
            histories(t["snaps"])
        for seat_i, snap in enumerate(t["snaps"][:-1]):
            v = snap.view
            mine = v is not None and (
                (v.turn == snap.my_seat and v.phase in (Phase.DRAW, Phase.DISCARD))
                or v.phase is Phase.ROUND_OVER
            )
            if v is not None and v.phase is Phase.MATCH_OVER:
                t["done"] = True
            if not mine:
                t["ready"].pop(seat_i, None)
            elif seat_i not in t["ready"]:
                t["ready"][seat_i] = clock.now + timedelta(seconds=rng.uniform(*args.think))

    def drain() -> None:
        with changed_lock:
            codes = list(changed)
            changed.clear()
        for code in codes:
            tables[code]["moves"] += 1
            read(code)

    for code in tables:
        read(code)
    errors = 0
    ticks = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    with timer("other"):
        while not all(t["done"] or t["moves"] >= args.moves for t in tables.values()):
            ticks += 1
            clock.advance(args.tick)
            for code, t in tables.items():
                if t["done"] or t["moves"] >= args.moves:
                    continue
                for seat_i, at in list(t["ready"].items()):
                    if at > clock.now or seat_i not in t["ready"]:
                        continue
                    snap = t["snaps"][seat_i]
                    with timer("people"):
                        action = bot_action("Carmen", snap.view, rng)
                    t["ready"].pop(seat_i, None)
                    if action is None:
                        continue
                    try:
                        svc.act(code, t["people"][seat_i], action, expected_version=snap.version)
                    except (Refusal, IllegalActionError):
                        errors += 1
                    drain()
            if scheduler is not None:
                scheduler.run_due()
            else:
                sweeper.drive_once(svc)
            drain()
            if ticks > 100_000:
                raise RuntimeError("the tables stopped moving")
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    if scheduler is not None:
        scheduler.detach()
    if loop is not None:
        loop.close()
    engine.dispose()
    moves = sum(t["moves"] for t in tables.values())
    service = sum(timer.seconds[c] for c in SERVICE)
    return {
        "scenario": args.scenario,
        "tables": args.tables,
        "moves": moves,
        "errors": errors,
        "simulated_s": ticks * args.tick,
        "wall_s": wall,
        "cpu_ms_per_move": 1000 * cpu / moves,
        "service_ms_per_move": 1000 * service / moves,
        "reads": timer.calls["snapshots"],
        "reads_per_cpu_s": timer.calls["snapshots"] / max(timer.seconds["snapshots"], 1e-9),
        "split_ms_per_move": {c: 1000 * timer.seconds[c] / moves for c in CATEGORIES},
        "scheduler": "BotScheduler" if scheduler is not None else "drive_once every tick",
    }


def show(r: dict[str, Any], label: str) -> None:
    """Print one result."""
    print(
        f"{label}: {r['scenario']}, {r['tables']} tables, {r['moves']} moves in {r['simulated_s']:.0f} "
        f"simulated s ({r['wall_s']:.1f} s wall), {r['errors']} refused, bots by {r['scheduler']}"
    )
    print(
        f"  CPU {r['cpu_ms_per_move']:.2f} ms/move (service {r['service_ms_per_move']:.2f}), "
        f"{r['reads']} reads, {r['reads_per_cpu_s']:.0f} reads per CPU s"
    )
    print("  split ms/move: " + ", ".join(f"{c} {v:.2f}" for c, v in r["split_ms_per_move"].items()))


def ratios(here: dict[str, Any], there: dict[str, Any]) -> None:
    """Print here/there ratios of the main figures."""

    def q(a: float, b: float) -> str:
        return f"{a / b:.2f}" if b else "n/a"

    print(
        f"ratio here/there: CPU per move {q(here['cpu_ms_per_move'], there['cpu_ms_per_move'])}, "
        f"service per move {q(here['service_ms_per_move'], there['service_ms_per_move'])}, "
        f"reads per CPU s {q(here['reads_per_cpu_s'], there['reads_per_cpu_s'])}"
    )
    print(
        "  split: "
        + ", ".join(
            f"{c} {q(here['split_ms_per_move'][c], there['split_ms_per_move'][c])}" for c in CATEGORIES
        )
    )


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run here (and in ``--compare``'s checkout), print."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--moves", type=int, default=100, help="committed actions per table")
    p.add_argument("--scenario", choices=("cacheta", "pife", "both"), default="both")
    p.add_argument("--bot-delay", type=float, default=0.5)
    p.add_argument("--tick", type=float, default=0.25, help="simulated seconds per step")
    p.add_argument("--think", type=float, nargs=2, default=(1.0, 2.0), help="people's think time, s")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--poll", action="store_true", help="drive bots by drive_once every tick")
    p.add_argument("--history", action="store_true", help="also each viewer's history panel per change")
    p.add_argument("--compare", metavar="PATH", help="another checkout to run first, back to back")
    p.add_argument("--root", help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="print the results as JSON only")
    args = p.parse_args(argv)
    root = Path(args.root or Path(__file__).resolve().parents[1])
    sys.path.insert(0, str(root))
    scenarios = ("cacheta", "pife") if args.scenario == "both" else (args.scenario,)
    there: list[dict[str, Any]] = []
    if args.compare:
        other = Path(args.compare).resolve()
        cmd = [str(other / ".venv/bin/python"), str(Path(__file__).resolve()), "--json", "--root", str(other)]
        passed = [a for a in (argv if argv is not None else sys.argv[1:])]
        skip = False
        for a in passed:  # every argument but --compare PATH
            if skip:
                skip = False
                continue
            if a == "--compare":
                skip = True
                continue
            if a.startswith("--compare="):
                continue
            cmd.append(a)
        env = {**os.environ, "PYTHONPATH": str(other)}
        out = subprocess.run(cmd, cwd=other, env=env, check=True, capture_output=True, text=True).stdout
        there = json.loads(out)
    results = []
    for sc in scenarios:
        args.scenario = sc
        results.append(run(args))
    if args.json:
        print(json.dumps(results))
        return 0
    for i, r in enumerate(results):
        if there:
            show(there[i], f"there ({args.compare})")
        show(r, "here" if there else "result")
        if there:
            ratios(r, there[i])
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
