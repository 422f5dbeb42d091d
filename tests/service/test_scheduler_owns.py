"""The sweeper in a cluster drives only the tables of its bot shards (``owns``): it neither
schedules nor plays another table, a change of the held shards is read at once (``reshard``),
without expiry (``sweeps=False``) it never sweeps, and a change made by another process is
read from the database, not guessed from this process's older commit."""

from __future__ import annotations

import asyncio
import random
import time

from pifecacheta.live.service_link import remote_change
from pifecacheta.rules import Phase
from pifecacheta.sweeper import BotScheduler, run_sweeper

from ._fake_service import bot_service, bot_tables
from .helpers import current_turn, log_count, play_human_move


def test_the_scheduler_drives_only_the_tables_it_owns(db_engine, clock, people) -> None:
    svc = bot_service(db_engine, clock, bot_delay=0.5)
    mine, theirs = bot_tables(svc, people, 2)
    owned = {mine}
    moved: list[str] = []
    sched = BotScheduler(svc, owns=owned.__contains__, workers=1)
    sched.on_move = moved.append
    sched.attach()
    sched.scan()
    sched.refresh()
    assert set(sched.pending()) == {mine}  # the other table is another backend's
    sched.mark(theirs)  # a change heard at the other table: still not scheduled here
    sched.refresh()
    assert set(sched.pending()) == {mine}
    clock.advance(seconds=1)
    assert sched.run_due() == [mine] and moved == [mine]
    sched.refresh()
    assert set(sched.pending()) == {mine}  # Luna's next move (her discard)
    theirs_before = log_count(db_engine, theirs)
    assert not sched.step(theirs)  # asked directly: not its table, nothing written
    assert log_count(db_engine, theirs) == theirs_before

    owned.add(theirs)  # this backend takes the other table's shard: a scan reads it
    sched.scan()
    sched.refresh()
    assert set(sched.pending()) == {mine, theirs}
    owned.clear()  # ... and loses both: a scan forgets them, a due move is not played
    sched.scan()
    assert sched.pending() == {}
    clock.advance(seconds=5)
    before = (log_count(db_engine, mine), log_count(db_engine, theirs))
    assert sched.run_due() == []
    assert (log_count(db_engine, mine), log_count(db_engine, theirs)) == before
    sched.detach()


def test_the_scheduler_drops_a_lost_tables_due_move_before_playing_it(db_engine, clock, people) -> None:
    """The held shards shrank between the scheduling and the move: the move is not played."""
    svc = bot_service(db_engine, clock, bot_delay=0.5)
    (code,) = bot_tables(svc, people, 1)
    owned = {code}
    sched = BotScheduler(svc, owns=owned.__contains__, workers=1)
    sched.scan()
    sched.refresh()
    assert code in sched.pending()
    owned.clear()
    clock.advance(seconds=1)
    before = log_count(db_engine, code)
    assert sched.run_due() == []
    assert log_count(db_engine, code) == before


def test_run_sweeper_reads_a_newly_owned_table_at_once_and_never_sweeps_without_sweeps(
    db_engine, people
) -> None:
    """A 30 s tick and an hour between scans: only ``reshard`` can make the loop read a table
    it just took, and the bot then moves (in a fraction of a second on a quiet machine; the
    wait allows 20 s, still short of the 30 s tick, for a loaded one)."""
    svc = bot_service(db_engine, bot_delay=0, round_over_delay=0)
    (code,) = bot_tables(svc, people, 1)
    sweeps: list[int] = []
    sweep = svc.sweep

    def counted_sweep(now=None):  # noqa: ANN001, ANN202
        sweeps.append(1)
        return sweep(now)

    svc.sweep = counted_sweep  # type: ignore[method-assign]
    owned: set[str] = set()
    moved: list[str] = []

    async def main() -> None:
        stop, reshard = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(
            run_sweeper(
                svc,
                tick=30,
                scan_every=3600,
                sweep_every=0,
                stop=stop,
                sweeps=False,
                owns=owned.__contains__,
                reshard=reshard,
                on_move=moved.append,
            )
        )
        await asyncio.sleep(0.5)  # its first scan: not this backend's table
        assert current_turn(db_engine, code) == (Phase.DRAW, 1) and moved == []
        owned.add(code)
        reshard.set()  # the shard was just taken
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and current_turn(db_engine, code) != (Phase.DRAW, 0):
            await asyncio.sleep(0.01)
        # on_move follows the discard's commit in the bot's thread: give it its moment
        while time.monotonic() < deadline and len(moved) < 2:
            await asyncio.sleep(0.01)
        stop.set()
        await asyncio.wait_for(task, timeout=5)

    asyncio.run(main())
    assert current_turn(db_engine, code) == (Phase.DRAW, 0)  # Luna drew and discarded
    assert moved == [code, code] and sweeps == []


def test_a_change_heard_from_another_process_is_read_not_taken_from_an_older_commit(
    db_engine, clock, people
) -> None:
    """This process played Luna's last move (its latest commit: Ana's turn, no bot due); Ana
    then moves through another backend. Heard as a remote change, the table is read again and
    Luna's next move is scheduled, not dropped until the safety scan."""
    here = bot_service(db_engine, clock, bot_delay=0.5)
    there = bot_service(db_engine, clock, bot_delay=0.5)
    (code,) = bot_tables(here, people, 1)
    sched = BotScheduler(here, workers=1)
    sched.attach()
    sched.scan()
    rng = random.Random(5)
    while current_turn(db_engine, code)[1] != 0:  # Luna draws and discards here
        clock.advance(seconds=1)
        sched.run_due()
    assert sched.pending() == {}  # Ana's turn: nothing due
    assert play_human_move(there, db_engine, code, people[0], 0, rng, go_out=False)  # draw
    assert play_human_move(there, db_engine, code, people[0], 0, rng, go_out=False)  # discard
    assert current_turn(db_engine, code)[1] == 1  # Luna's turn, written by the other process
    with remote_change():  # the Redis feed tells this process (live/cluster.py)
        here.store.notify(code)
    sched.refresh()
    assert code in sched.pending()
    clock.advance(seconds=1)
    assert sched.run_due() == [code]
    sched.detach()
