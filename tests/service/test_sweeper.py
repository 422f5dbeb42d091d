"""The background driver moves bots after their delay and expires idle matches."""

from __future__ import annotations

import asyncio

from pifecacheta.rules import PIFE, Phase, Termination
from pifecacheta.service import TableService
from pifecacheta.sweeper import drive_once, run_sweeper

from .helpers import current_turn


def test_drive_once_waits_for_the_bot_delay(db_engine, clock, people) -> None:
    svc = TableService(db_engine, clock=clock, seed_source=lambda: 9, bot_delay=1.2)
    ana = people[0]
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Luna"])
    svc.start(code, ana)  # Luna (seat 1) plays first
    assert drive_once(svc) == []  # 1.2 s not yet passed on the fake clock
    clock.advance(seconds=1.3)
    assert drive_once(svc) == [code]  # draw
    assert drive_once(svc) == []  # the draw was a move: wait again
    clock.advance(seconds=1.3)
    assert drive_once(svc) == [code]  # discard
    assert current_turn(db_engine, code) == (Phase.DRAW, 0)


def test_run_sweeper_moves_bots_and_expires(svc: TableService, clock, people) -> None:
    ana = people[0]
    code = svc.create_table(ana, PIFE)
    svc.add_bots(code, ana, ["Luna"])
    svc.start(code, ana)
    changed: list[str] = []
    svc.on_change(changed.append)

    async def main() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(run_sweeper(svc, tick=0.01, sweep_every=0.0, stop=stop))
        for _ in range(500):
            await asyncio.sleep(0.01)
            if svc.snapshot(code, None).view.turn == 0:
                break
        clock.advance(days=8)
        for _ in range(500):
            await asyncio.sleep(0.01)
            if svc.snapshot(code, None).status == "finished":
                break
        stop.set()
        await asyncio.wait_for(task, timeout=30)

    asyncio.run(main())
    snap = svc.snapshot(code, ana)
    assert snap.status == "finished" and snap.view.outcome.termination is Termination.EXPIRED
    assert changed.count(code) == 3  # Luna's draw and discard, then the expiry
