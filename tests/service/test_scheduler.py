"""Bots scheduled when due: the sweeper's queue reads a table only when it changed (or at a
scan), moves it after its delay, runs due tables side by side, and catches what it was not told."""

from __future__ import annotations

import asyncio
import random
import threading

from pifecacheta.rules import PIFE, Phase
from pifecacheta.service import TableService
from pifecacheta.sweeper import BotScheduler, run_sweeper

from ._fake_service import bot_service, bot_tables, counting
from .helpers import current_turn, play_human_move


def test_a_bot_moves_when_due_and_not_before(db_engine, clock, people) -> None:
    svc = bot_service(db_engine, clock, bot_delay=1.2)
    (code,) = bot_tables(svc, people, 1)
    sched = BotScheduler(svc, workers=1)
    sched.attach()
    sched.scan()
    assert sched.run_due() == []  # 1.2 s not yet passed
    assert (sched.pending()[code] - clock.now).total_seconds() == 1.2
    clock.advance(seconds=1.1)
    assert sched.run_due() == []
    clock.advance(seconds=0.2)
    assert sched.run_due() == [code]  # draw
    assert sched.run_due() == []  # the draw was a move: wait again
    clock.advance(seconds=1.3)
    assert sched.run_due() == [code]  # discard: Ana's turn
    assert current_turn(db_engine, code) == (Phase.DRAW, 0)
    assert sched.run_due() == [] and sched.pending() == {}
    sched.detach()


def test_waiting_tables_are_not_polled(db_engine, clock, people) -> None:
    svc = bot_service(db_engine, clock, bot_delay=0.5)
    codes = bot_tables(svc, people, 5)
    counts = counting(svc)
    sched = BotScheduler(svc, workers=1)
    sched.attach()
    sched.scan()
    sched.run_due()
    assert counts["schedule"] == 5  # one read per table at start
    for _ in range(20):  # ticks before anything is due: no database read
        clock.advance(seconds=0.01)
        assert sched.run_due() == []
    assert counts == {"schedule": 5, "step": 0}
    clock.advance(seconds=1)
    assert sorted(sched.run_due()) == sorted(codes)  # each due bot: one move, no other read
    assert counts == {"schedule": 5, "step": 5}
    assert sched.run_due() == []  # each table changed: its next due time comes from the commit
    assert counts == {"schedule": 5, "step": 5}
    assert all((at - clock.now).total_seconds() == 0.5 for at in sched.pending().values())  # discards
    assert len(sched.pending()) == 5
    sched.detach()


def test_the_due_time_from_a_commit_is_the_one_read(db_engine, clock, people) -> None:
    """After every change, by a bot or a person, the schedule from the commit equals a read's."""
    svc = bot_service(db_engine, clock, bot_delay=0.5)
    (code,) = bot_tables(svc, people, 1)
    assert svc.schedule_after_commit(code) is None  # the bot seats are not known yet: read
    svc.bot_schedule(code)
    rng = random.Random(3)
    kinds = set()
    for _ in range(40):
        clock.advance(seconds=0.7)
        seat = svc.snapshot(code, None).view.turn
        if seat == 1:
            assert svc.bot_step(code, when_due=True)
        else:
            assert play_human_move(svc, db_engine, code, people[0], 0, rng, go_out=False)
        plan = svc.schedule_after_commit(code)
        assert plan is not None and plan == svc.bot_schedule(code)
        kinds.add(plan.at is None)
    assert kinds == {True, False}  # both a person's turn and a bot's


def test_a_due_time_from_a_commit_is_checked_against_the_database(db_engine, clock, people) -> None:
    """Another process moved the bot after this one's commit: the scheduler's due time is only
    a hint, the bot never moves before its delay counted from the database's last move."""
    here = bot_service(db_engine, clock, bot_delay=0.5)
    there = bot_service(db_engine, clock, bot_delay=0.5)
    (code,) = bot_tables(here, people, 1, start=False)
    sched = BotScheduler(here, workers=1, retry_after=0.25)
    sched.attach()
    here.start(code, people[0])
    assert sched.run_due() == []  # Luna due in 0.5 s (this process's commit)
    clock.advance(seconds=0.3)
    assert there.bot_step(code)  # Luna draws in the other process: her discard is due at 0.8
    clock.advance(seconds=0.3)
    assert sched.run_due() == []  # the hint said 0.5: checked, not due yet
    assert current_turn(db_engine, code) == (Phase.DISCARD, 1)
    waited = 0.6
    while sched.run_due() != [code]:  # read again: due 0.5 s after the other process's draw
        clock.advance(seconds=0.05)
        waited += 0.05
        assert waited < 2
    assert 0.8 <= waited + 1e-9 <= 0.6 + 0.25 + 0.05 + 1e-9  # the retry (0.25 s) after the refused try
    assert current_turn(db_engine, code) == (Phase.DRAW, 0)
    sched.detach()


def test_tables_without_bots_are_read_once(svc: TableService, people) -> None:
    code = svc.create_table(people[0], PIFE)
    svc.join(code, people[1])
    counts = counting(svc)
    sched = BotScheduler(svc, workers=1)
    sched.attach()
    svc.start(code, people[0])
    sched.run_due()
    assert counts["schedule"] == 1
    rng = random.Random(2)
    for _ in range(4):
        seat = svc.snapshot(code, None).view.turn
        assert play_human_move(svc, svc.store.engine, code, people[seat], seat, rng, go_out=False)
        sched.run_due()
    assert counts == {"schedule": 1, "step": 0}  # seats are fixed once started: never a bot
    sched.detach()


def test_a_bot_with_nothing_to_play_waits_before_a_retry(db_engine, clock, people) -> None:
    svc = bot_service(db_engine, clock, bot_delay=0)
    (code,) = bot_tables(svc, people, 1)
    counts = {"step": 0}

    def no_move(code: str, **kw) -> bool:  # the bot's policy gives nothing
        counts["step"] += 1
        return False

    svc.bot_step = no_move  # type: ignore[method-assign]
    sched = BotScheduler(svc, workers=1, retry_after=0.25)
    sched.scan()
    for _ in range(5):
        assert sched.run_due() == []
    assert counts["step"] == 1  # tried once, then waits 0.25 s on the (stopped) clock
    clock.advance(seconds=0.3)
    for _ in range(3):
        sched.run_due()
    assert counts["step"] == 2


def test_due_tables_move_side_by_side(db_engine, clock, people) -> None:
    svc = bot_service(db_engine, clock, bot_delay=0.5)
    codes = bot_tables(svc, people, 8)
    threads: set[int] = set()
    step = svc.bot_step
    barrier = threading.Barrier(2, timeout=5)

    calls = iter(range(1000))

    def bot_step(code: str, **kw) -> bool:
        threads.add(threading.get_ident())
        if next(calls) < 2:  # the first call waits for the second, so that one is elsewhere
            try:
                barrier.wait()  # two steps under way at once
            except threading.BrokenBarrierError:
                pass
        return step(code, **kw)

    svc.bot_step = bot_step  # type: ignore[method-assign]
    sched = BotScheduler(svc, workers=4)
    sched.scan()
    clock.advance(seconds=1)
    assert sorted(sched.run_due()) == sorted(codes)
    assert len(threads) >= 2 and not barrier.broken
    sched.detach()


def test_a_person_move_schedules_the_bot_after_its_delay(svc: TableService, db_engine, clock, people) -> None:
    svc.bot_delay = 0.5
    (code,) = bot_tables(svc, people, 1, start=False)
    sched = BotScheduler(svc, workers=1)
    sched.attach()
    svc.start(code, people[0])  # on_change: Luna's first move is due in 0.5 s
    assert sched.run_due() == []
    clock.advance(seconds=0.6)
    assert sched.run_due() == [code]
    clock.advance(seconds=0.6)
    assert sched.run_due() == [code]
    assert play_human_move(svc, db_engine, code, people[0], 0, random.Random(1), go_out=False)  # draw
    assert play_human_move(svc, db_engine, code, people[0], 0, random.Random(1), go_out=False)  # discard
    assert sched.run_due() == []  # Luna's turn again, from now
    clock.advance(seconds=0.4)
    assert sched.run_due() == []
    clock.advance(seconds=0.2)
    assert sched.run_due() == [code]
    sched.detach()


def test_a_change_of_the_delays_reschedules(db_engine, clock, people) -> None:
    svc = bot_service(db_engine, clock, bot_delay=60)
    (code,) = bot_tables(svc, people, 1)
    sched = BotScheduler(svc, workers=1)
    sched.scan()
    assert sched.run_due() == []
    svc.bot_delay = 0
    assert sched.run_due() == [code]


def test_the_scan_catches_a_change_it_was_not_told(db_engine, clock, people) -> None:
    """Another process (here a second service on the same database) plays; this scheduler hears
    nothing until its safety scan, which finds the bot due."""
    here = bot_service(db_engine, clock, bot_delay=0.5)
    there = bot_service(db_engine, clock, bot_delay=0.5)
    (code,) = bot_tables(there, people, 1, start=False)
    sched = BotScheduler(here, workers=1)
    sched.attach()
    sched.scan()
    assert sched.run_due() == [] and sched.pending() == {}  # lobby: no bot to move
    there.start(code, people[0])
    clock.advance(seconds=1)
    assert sched.run_due() == []  # not told
    sched.scan()
    assert sched.run_due() == [code]
    sched.detach()


def test_the_loop_wakes_on_a_change_not_on_its_tick(svc: TableService, db_engine, people) -> None:
    """With a 30 s tick, a bot still answers a person's move at once: the change wakes the loop."""
    ana = people[0]
    (code,) = bot_tables(svc, people, 1, start=False)

    async def main() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(run_sweeper(svc, tick=30, sweep_every=3600, stop=stop))
        await asyncio.sleep(0.2)  # the loop's first pass: nothing to do yet
        await asyncio.to_thread(svc.start, code, ana)  # Luna (seat 1) to play, no delay
        for _ in range(200):
            await asyncio.sleep(0.01)
            if current_turn(db_engine, code) == (Phase.DRAW, 0):
                break
        stop.set()
        await asyncio.wait_for(task, timeout=5)

    asyncio.run(main())
    assert current_turn(db_engine, code) == (Phase.DRAW, 0)  # Luna drew and discarded within 2 s


def test_a_table_due_again_during_its_move_is_scheduled_once_the_move_is_done(
    db_engine, clock, people
) -> None:
    """start_due finds a table due while its move still runs: not handed over twice, and not
    lost: once that move is done, the table is scheduled again."""
    svc = bot_service(db_engine, clock, bot_delay=0.5)
    (code,) = bot_tables(svc, people, 1)
    release, started = threading.Event(), threading.Event()
    real = svc.bot_step

    def slow_step(c: str, **kw) -> bool:
        started.set()
        assert release.wait(5)
        return False  # another writer won: the scheduler reads the table again

    svc.bot_step = slow_step  # type: ignore[method-assign]
    sched = BotScheduler(svc, workers=2, retry_after=0)
    done = threading.Event()
    sched.on_mark = done.set
    sched.scan()
    clock.advance(seconds=1)
    assert sched.start_due() == [code]
    assert started.wait(5)
    with sched._lock:  # due again while the move runs (as a change during it would make it)
        sched._marked.add(code)
    assert sched.start_due() == []  # under way: not handed over twice
    assert sched.pending() == {}
    svc.bot_step = real  # type: ignore[method-assign]
    done.clear()
    release.set()
    assert done.wait(5)
    for _ in range(100):
        if sched._running == set():
            break
        threading.Event().wait(0.01)
    assert sched.start_due() == [code]  # scheduled again once the first move was done
    sched.detach()
    assert current_turn(db_engine, code) == (Phase.DISCARD, 1)
