"""bench/bench_soak.py: its check's spec (every move a tab was told was made, over a full soak
tens of thousands) goes on stdin, not as one argument; a move is told made by its own reply,
not by another seat's push that came first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_check_takes_a_spec_far_over_one_arguments_limit(tmp_path: Path) -> None:
    told = [["ZZZZZZ", f"p-{i:06d}", i] for i in range(20_000)]  # ~560 kB; one argv string: 128 kB
    spec = json.dumps({"tables": [], "told": told})
    assert len(spec) > 4 * 131_072
    env = dict(os.environ) | {"PIFECACHETA_DB_URL": f"sqlite:///{tmp_path / 'soak.db'}"}
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_soak.py"), "--_verify", "-"],
        input=spec, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["tables"] == {} and got["told_missing"] == told  # no such table: none of them logged


def _soak_tab():
    import asyncio
    from types import SimpleNamespace

    sys.path.insert(0, str(ROOT / "bench"))
    from bench_load import Stats
    from bench_soak import SoakTab

    person = {"player_id": "p-ana", "secret": "s", "name": "Ana", "seat": 0}
    setup = {
        "table": "t",
        "session": "v",
        "root": "r",
        "version": "0",
        "tables": [{"code": "C", "people": [person]}],
    }
    run = SimpleNamespace(
        setup=setup, url="ws://127.0.0.1:1", stats=Stats(), tabs=[], told=[], retracted=0, said_lost=0,
        bot_delay=0.5, tab_url=lambda table: "ws://127.0.0.1:1",
    )  # fmt: skip
    asyncio.set_event_loop(asyncio.new_event_loop())  # the tab's Events need one
    return run, SoakTab(run, 0, person, observer=False)


def _frame(version: int, **table: object) -> dict[str, object]:
    return {"delta": {"t": {"ui_rx_state_": {"version": version, "hand_by_suit": []}, **table}}}


def test_a_push_before_the_refusal_of_my_move_is_not_my_move_told_made() -> None:
    run, tab = _soak_tab()
    tab.pending = (1.0, 318)  # my draw sent at version 318
    tab.on_update(2.0, _frame(319))  # the other person's queue-jump go-out, pushed first
    assert run.told == [("C", "p-ana", 318)]
    tab.on_update(2.1, _frame(319, message_serial_rx_state_=4, message_rx_state_="err.stale_version"))
    assert run.told == [] and run.retracted == 1  # the reply: my move was not made
    tab.pending = (3.0, 319)  # my next move, told made by its own reply
    tab.on_update(3.1, _frame(320))
    tab.on_update(3.2, _frame(321))  # the next seat's move: no refusal follows, nothing taken back
    assert run.told == [("C", "p-ana", 319)] and run.retracted == 1
