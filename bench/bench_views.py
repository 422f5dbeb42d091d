"""CPU cost of the tabs' updates per move: Reflex deltas of real table tabs, no sockets.

In one process: ``TableService`` on a fresh SQLite file, ``--tables`` Cacheta tables of 2
people, each with ``--tabs`` tabs (the two players', then spectators), each tab a real
``TableState`` of the app's Reflex state manager (the page's states as Reflex builds them). A
move is one ``act`` of the player to move (the Carmen policy on its own view, not timed), then,
as the live feed does, for every tab of the table: its ``table_version`` set to the new change
count under its lock, its delta resolved and serialised as the frame would be (``json_dumps``).
``--notices K`` adds K events per tab and move that change nothing at the table (a state of
another page part set, as the turn notices' ``signal`` does about 5 times a second per tab in
a browser), each with its delta and frame too.

Prints the CPU (``time.process_time``, all threads) per move of the tabs' updates, the frames'
bytes per move, and how many deltas carried ``ui`` / ``history`` / ``past_rounds``.

    .venv/bin/python bench/bench_views.py --tables 20 --moves 40 --notices 2
    .venv/bin/python bench/bench_views.py --compare /tmp/cap-base     # that checkout first, then ratios
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
import time
import uuid
from pathlib import Path
from typing import Any


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The benchmark in this process (the checkout on ``sys.path``); a JSON-able result."""
    import dataclasses

    import reflex as rx
    from reflex_base.utils.format import json_dumps

    from pifecacheta.bots import bot_action
    from pifecacheta.db import make_engine, migrate
    from pifecacheta.pifecacheta import app
    from pifecacheta.rules import CACHETA_7, Phase
    from pifecacheta.service import TableService
    from pifecacheta.state import table, table_view, viewer
    from pifecacheta.state.notices import NoticeState
    from pifecacheta.state.snapshots import CACHE
    from pifecacheta.state.table import TableState

    tmp = tempfile.mkdtemp(prefix="bench-views-")
    engine = make_engine(f"sqlite:///{Path(tmp) / 'bench.db'}")
    migrate(engine)
    seeds = random.Random(args.seed)
    svc = TableService(engine, seed_source=lambda: seeds.randrange(1 << 62), bot_delay=0)
    for module in (table, table_view, viewer):
        module.get_service = lambda: svc  # type: ignore[attr-defined]
    svc.on_change(CACHE.table_changed)
    rng = random.Random(args.seed)
    name = TableState.get_full_name()
    tables: list[dict[str, Any]] = []
    for i in range(args.tables):
        people = [svc.identify(None, None, f"P{i}-{k}") for k in range(2)]
        code = svc.create_table(people[0], CACHETA_7)
        svc.join(code, people[1])
        svc.start(code, people[0])
        viewers = [*people, *(svc.identify(None, None, f"S{i}-{k}") for k in range(args.tabs - 2))]
        tabs = [(f"bench-{uuid.uuid4().hex}", who) for who in viewers]
        tables.append({"code": code, "people": people, "tabs": tabs, "count": 1, "moves": 0})
    counts = {"frames": 0, "bytes": 0, "ui": 0, "history": 0, "past_rounds": 0}

    async def update(token: str, code: str, who: Any, count: int | None, notice: bool) -> None:
        async with app.modify_state(rx.BaseStateToken(ident=token, cls=TableState)) as root:
            tab = await root.get_state(TableState)
            if count is None:  # a new tab, set as a loaded one
                tab.table_code, tab.me, tab._secret, tab._name = code, who.player_id, who.secret, who.name
                router = tab.router
                session = dataclasses.replace(router.session, client_token=token)
                tab.router = dataclasses.replace(router, session=session)
                count = 1
            if notice:
                (await root.get_state(NoticeState)).permission = rng.choice(("granted", "default"))
            else:
                await tab._hear(count)  # the live feed's push
            delta = await root._get_resolved_delta()
            root._clean()
        frame = json_dumps(delta)
        counts["frames"] += 1
        counts["bytes"] += len(frame)
        for var in ("ui", "history", "past_rounds"):
            counts[var] += f"{var}_rx_state_" in delta.get(name, {})

    async def everything() -> float:
        for t in tables:
            for token, who in t["tabs"]:
                await update(token, t["code"], who, None, False)
        cpu = 0.0
        for _ in range(args.moves):
            for t in tables:
                code = t["code"]
                snaps = svc.snapshots(code, t["people"])
                for seat, snap in enumerate(snaps):
                    v = snap.view
                    if v is None or v.phase is Phase.MATCH_OVER:
                        continue
                    if v.phase is Phase.ROUND_OVER or (
                        v.turn == snap.my_seat and v.phase in (Phase.DRAW, Phase.DISCARD)
                    ):
                        action = bot_action("Carmen", v, rng)
                        if action is not None:
                            svc.act(code, t["people"][seat], action, expected_version=snap.version)
                            t["moves"] += 1
                            t["count"] += 1
                        break
                t0 = time.process_time()
                await asyncio.gather(*(update(tok, code, who, t["count"], False) for tok, who in t["tabs"]))
                for _k in range(args.notices):
                    await asyncio.gather(
                        *(update(tok, code, who, t["count"], True) for tok, who in t["tabs"])
                    )
                cpu += time.process_time() - t0
        return cpu

    cpu = asyncio.run(everything())
    engine.dispose()
    moves = sum(t["moves"] for t in tables)
    return {
        "tables": args.tables,
        "tabs": args.tabs,
        "notices": args.notices,
        "moves": moves,
        "cpu_ms_per_move": 1000 * cpu / max(moves, 1),
        "bytes_per_move": counts["bytes"] / max(moves, 1),
        **{k: counts[k] for k in ("frames", "ui", "history", "past_rounds")},
    }


def show(r: dict[str, Any], label: str) -> None:
    """Print one result."""
    print(
        f"{label}: {r['tables']} tables x {r['tabs']} tabs, {r['notices']} notice event(s) per tab and move, "
        f"{r['moves']} moves: {r['cpu_ms_per_move']:.2f} ms CPU per move for the tabs' updates, "
        f"{r['bytes_per_move']:.0f} frame bytes per move; of {r['frames']} deltas, ui in {r['ui']}, "
        f"history in {r['history']}, past_rounds in {r['past_rounds']}"
    )


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module's docstring."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--tabs", type=int, default=3, help="tabs per table: the 2 players', then spectators")
    p.add_argument("--moves", type=int, default=40, help="moves per table")
    p.add_argument("--notices", type=int, default=2, help="events per tab and move that change nothing")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--compare", metavar="PATH", help="another checkout (with its .venv) to run first")
    p.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = p.parse_args(argv)
    there = None
    if args.compare:
        other = Path(args.compare).resolve()
        cmd = [str(other / ".venv/bin/python"), str(Path(__file__).resolve()), "--json"]
        cmd += [f"--{k}={getattr(args, k)}" for k in ("tables", "tabs", "moves", "notices", "seed")]
        env = {**os.environ, "PYTHONPATH": str(other)}
        out = subprocess.run(cmd, cwd=other, env=env, check=True, capture_output=True, text=True).stdout
        there = json.loads(out.strip().splitlines()[-1])
    here = run(args)
    if args.json:
        print(json.dumps(here))
        return 0
    if there is not None:
        show(there, f"there ({args.compare})")
    show(here, "here" if there else "result")
    if there is not None:
        print(f"ratio here/there: CPU per move {here['cpu_ms_per_move'] / there['cpu_ms_per_move']:.2f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
