"""The live table's snapshot cache and the one-call discard decision (pifecacheta/state/snapshots.py)."""

from __future__ import annotations

import asyncio
import random
import threading
from dataclasses import replace

import pytest

from pifecacheta.rules import (
    CACHETA_7,
    PIFE,
    Discard,
    Draw,
    GoOut,
    IllegalActionError,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
    new_match,
    player_view,
    spectator_view,
)
from pifecacheta.rules.cards import parse_hand
from pifecacheta.state import snapshots
from pifecacheta.state.snapshots import SnapshotCache, discard_action, snapshot_for, viewer_key


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class _CountingService:
    """Stands in for TableService.snapshot: counts calls, records the calling thread."""

    def __init__(self, svc=None) -> None:
        self.calls = 0
        self.threads: set[int] = set()
        self.svc = svc

    def snapshot(self, code, who):
        self.calls += 1
        self.threads.add(threading.get_ident())
        if self.svc is not None:
            return self.svc.snapshot(code, who)
        return ("snap", code, who.player_id, self.calls)


class _Who:
    def __init__(self, pid: str, secret: str) -> None:
        self.player_id, self.secret, self.name = pid, secret, pid


def test_one_service_call_per_viewer_and_version_off_the_loop():
    cache, svc = SnapshotCache(), _CountingService()
    ana, bruno = _Who("a", "sa"), _Who("b", "sb")

    async def run():
        first = [await snapshot_for(svc, "T", ana, 3, cache) for _ in range(4)]
        other = await snapshot_for(svc, "T", bruno, 3, cache)
        return first, other

    first, other = asyncio.run(run())
    assert svc.calls == 2  # 4 re-evaluations for Ana's tab cost one read
    assert all(s is first[0] for s in first) and other[2] == "b"
    assert threading.get_ident() not in svc.threads  # the reads ran in worker threads
    assert cache.hits == 3 and cache.misses == 2


def test_a_new_version_or_a_commit_or_another_secret_misses():
    cache, svc = SnapshotCache(), _CountingService()
    ana = _Who("a", "sa")
    forged = _Who("a", "guess")  # same player id, wrong secret: never Ana's entry

    async def get(who, version):
        return await snapshot_for(svc, "T", who, version, cache)

    asyncio.run(get(ana, 1))
    asyncio.run(get(ana, 2))
    assert svc.calls == 2
    cache.table_changed("T")  # a commit (chat does not move the version)
    asyncio.run(get(ana, 2))
    assert svc.calls == 3
    cache.table_changed("other table")
    asyncio.run(get(ana, 2))
    assert svc.calls == 3
    snap = asyncio.run(get(forged, 2))
    assert svc.calls == 4 and snap[3] == 4
    assert viewer_key("T", 2, 1, ana) != viewer_key("T", 2, 1, forged)


def test_entries_expire_and_the_size_is_bounded():
    clock = _Clock()
    cache = SnapshotCache(ttl=10, max_entries=3, clock=clock)
    cache.put(("T", 1), "x")
    clock.t += 9
    assert cache.get(("T", 1)) == "x"
    clock.t += 2
    assert cache.get(("T", 1)) is None
    for i in range(5):
        cache.put(("T", i), i)
    assert [cache.get(("T", i)) for i in range(5)] == [None, None, 2, 3, 4]


def test_a_change_drops_only_that_tables_entries_and_the_index_stays_bounded():
    cache = SnapshotCache(max_entries=4)
    ana = _Who("a", "sa")
    for code in ("T", "U"):
        cache.put(viewer_key(code, 1, 0, ana), code)
    cache.table_changed("T")
    assert cache.get(viewer_key("T", 1, 0, ana)) is None
    assert cache.get(viewer_key("U", 1, 0, ana)) == "U"
    for i in range(50):  # many tables come and go: evicted keys leave the per-table index too
        cache.put(viewer_key(f"X{i}", 1, 0, ana), i)
    assert len(cache._keys_of) <= 4 and sum(len(k) for k in cache._keys_of.values()) == 4


def test_refusals_are_not_cached():
    from pifecacheta.service import Refusal

    cache = SnapshotCache()

    class Missing:
        calls = 0

        def snapshot(self, code, who):
            self.calls += 1
            raise Refusal("table_not_found")

    svc = Missing()
    for _ in range(2):
        with pytest.raises(Refusal):
            asyncio.run(snapshot_for(svc, "T", _Who("a", "s"), 0, cache))
    assert svc.calls == 2  # a refusal is the service's answer: not cached, not tried again


def test_the_cache_follows_the_real_service_commits(db_url, monkeypatch):
    """A chat line changes no version: the on_change listener still makes the next read fresh."""
    from pifecacheta import db, service

    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "7")
    real = service.TableService(db.init_db(db_url))
    cache = SnapshotCache()
    real.on_change(cache.table_changed)
    ana = real.identify(None, None, "Ana")
    code = real.create_table(ana, CACHETA_7)
    counting = _CountingService(real)
    before = asyncio.run(snapshot_for(counting, code, ana, 5, cache))
    real.chat(code, ana, "oi")
    after = asyncio.run(snapshot_for(counting, code, ana, 5, cache))
    assert counting.calls == 2 and before.chat == () and [c.text for c in after.chat] == ["oi"]


def _engine_go_outs(match, seat) -> set:
    return {a.discard for a in legal_actions(match, seat) if isinstance(a, GoOut) and a.discard is not None}


def test_discard_action_is_a_go_out_exactly_when_the_engine_accepts_one():
    """Seed 000 line 56: the leftover dropped on the pile goes out; any other card is a discard."""
    match = new_match(PIFE, 2, seed=3)
    seat = match.round.turn
    match = apply(match, seat, Draw())
    hand = parse_hand("AH 2H 3H QS KS AS 7C 7D 7H 9S")
    match = replace(
        match,
        round=replace(
            match.round, hands=tuple(hand if i == seat else h for i, h in enumerate(match.round.hands))
        ),
    )
    view = player_view(match, seat)
    nine_spades = hand[-1]
    assert discard_action(view, nine_spades) == GoOut(discard=nine_spades)
    apply(match, seat, discard_action(view, nine_spades))  # the engine agrees
    for card in hand[:-1]:
        assert discard_action(view, card) == Discard(card)
    # not my turn, a spectator, or a card I do not hold: a plain discard (the engine judges it)
    assert discard_action(player_view(match, 1 - seat), nine_spades) == Discard(nine_spades)
    assert discard_action(spectator_view(match), nine_spades) == Discard(nine_spades)
    assert discard_action(None, nine_spades) == Discard(nine_spades)


@pytest.mark.parametrize("rules", [PIFE, CACHETA_7])
def test_discard_action_agrees_with_the_engine_over_random_rounds(rules):
    """Every card of every discard turn in random play: GoOut iff the engine lists GoOut(card)."""
    rng = random.Random(11)
    checked = 0
    for seed in range(6):
        match = new_match(rules, 3, seed=seed)
        for _ in range(120):
            r = match.round
            if r is None or r.phase not in (Phase.DRAW, Phase.DISCARD):
                break
            seat = r.turn
            if r.phase is Phase.DISCARD:
                view = player_view(match, seat)
                outs = _engine_go_outs(match, seat)
                for card in view.hand:
                    expected = GoOut(discard=card) if card in outs else Discard(card)
                    assert discard_action(view, card) == expected
                    checked += 1
                choices = [a for a in legal_actions(match, seat) if isinstance(a, Discard)]
            else:
                choices = [Draw(), TakeDiscard()]
            rng.shuffle(choices)
            for action in choices:
                try:
                    match = apply(match, seat, action)
                    break
                except IllegalActionError:
                    continue
    assert checked > 500


def test_snapshots_for_many_viewers_equal_one_snapshot_each(db_url, monkeypatch):
    """service.snapshots: one read of the table, the same projections as snapshot per viewer."""
    from pifecacheta import db, service

    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "7")
    real = service.TableService(db.init_db(db_url))
    ana, bruno, carla = (real.identify(None, None, n) for n in ("Ana", "Bruno", "Carla"))
    code = real.create_table(ana, CACHETA_7)
    real.join(code, bruno)
    real.start(code, ana)
    real.chat(code, bruno, "boa sorte")
    forged = service.Identity(ana.player_id, "not-the-secret", "Ana")
    whos = [ana, bruno, carla, forged, None, ana]
    many = real.snapshots(code, whos)
    assert many == [real.snapshot(code, w) for w in whos]
    assert [s.my_seat for s in many] == [0, 1, None, None, None, 0]
    assert many[0].view.hand and many[1].view.hand and set(many[0].view.hand).isdisjoint(many[1].view.hand)
    assert all(s.view.hand == () for s in many[2:5])  # spectators, forged secret included
    with pytest.raises(service.Refusal):
        real.snapshots("nope", [ana])


def test_the_first_miss_reads_the_table_once_for_every_tab(db_url, monkeypatch):
    """After a change, 6 tabs refresh at once: one batch read serves all of them."""
    from pifecacheta import db, service

    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "7")
    real = service.TableService(db.init_db(db_url))
    cache = SnapshotCache()
    real.on_change(cache.table_changed)
    people = [real.identify(None, None, n) for n in ("Ana", "Bruno", "Carla", "Davi", "Eva", "Fabi")]
    code = real.create_table(people[0], PIFE)
    for p in people[1:4]:
        real.join(code, p)
    real.start(code, people[0])

    class Counting:
        def __init__(self) -> None:
            self.batches: list[int] = []
            self.singles = 0

        def snapshot(self, c, who):
            self.singles += 1
            return real.snapshot(c, who)

        def snapshots(self, c, whos):
            self.batches.append(len(whos))
            return real.snapshots(c, whos)

    svc = Counting()

    async def every_tab(version):
        return await asyncio.gather(*(snapshot_for(svc, code, w, version, cache) for w in people))

    first = asyncio.run(every_tab(1))  # nobody seen yet: concurrent misses wait for one read
    assert [s.my_seat for s in first] == [0, 1, 2, 3, None, None]
    version = first[1].version
    real.act(code, people[1], Draw(), expected_version=version)  # seat 1 plays first
    svc.batches.clear()
    svc.singles = 0
    after = asyncio.run(every_tab(2))
    assert svc.batches == [6] and svc.singles == 0  # all six tabs known: one read
    assert [s.view.hand_counts[1] for s in after] == [10] * 6
    assert after == [real.snapshot(code, w) for w in people]


def test_a_page_load_forgets_only_its_own_entries():
    cache, svc = SnapshotCache(), _CountingService()
    ana, bruno = _Who("a", "sa"), _Who("b", "sb")

    async def read(who):
        return await snapshot_for(svc, "T", who, 4, cache)

    for who in (ana, bruno):
        asyncio.run(read(who))
    cache.forget_viewer("T", ana)
    cache.forget_viewer("other", bruno)
    asyncio.run(read(ana))
    asyncio.run(read(bruno))
    assert svc.calls == 3  # Ana read again, Bruno's entry stayed


class _Snap:
    """A stand-in snapshot: the table version it was read at, and what it held."""

    def __init__(self, version: int, text: str = "") -> None:
        self.version, self.text = version, text


def test_a_failed_read_is_tried_again_but_a_refusal_is_not(monkeypatch, caplog):
    """A busy database, a dropped connection: the tab's own read is retried (and logged); a
    Refusal is the service's answer and fails at once."""
    import sqlite3

    from pifecacheta.service import Refusal

    monkeypatch.setattr(snapshots, "READ_RETRIES", (0, 0))

    class Flaky:
        def __init__(self, failures: int, exc: Exception) -> None:
            self.failures, self.exc, self.calls = failures, exc, 0

        def snapshot(self, code, who):
            self.calls += 1
            if self.calls <= self.failures:
                raise self.exc
            return _Snap(3, who.player_id)

    locked = sqlite3.OperationalError("database is locked")
    svc = Flaky(2, locked)
    snap = asyncio.run(snapshot_for(svc, "T", _Who("a", "s"), 1, SnapshotCache()))
    assert (snap.text, svc.calls) == ("a", 3)
    assert sum("database is locked" in r.getMessage() for r in caplog.records) == 2

    svc = Flaky(3, locked)  # still failing after every retry: the last error is raised
    with pytest.raises(sqlite3.OperationalError):
        asyncio.run(snapshot_for(svc, "T", _Who("a", "s"), 1, SnapshotCache()))
    assert svc.calls == 3

    svc = Flaky(1, Refusal("table_not_found"))
    with pytest.raises(Refusal):
        asyncio.run(snapshot_for(svc, "T", _Who("a", "s"), 1, SnapshotCache()))
    assert svc.calls == 1


@pytest.mark.parametrize("outcome", ["raise", "cancel"])
def test_a_failed_or_cancelled_batch_read_leaves_each_tab_its_own_read(outcome):
    """The shared batch read of a table state fails, or is cancelled while the tabs wait for
    it: no waiting tab fails with it, each reads its own snapshot."""
    import time

    cache = SnapshotCache()
    ana, bruno = _Who("a", "sa"), _Who("b", "sb")
    singles: list[str] = []

    class Service:
        def snapshot(self, code, who):
            singles.append(who.player_id)
            return _Snap(9, who.player_id)

        def snapshots(self, code, whos):
            if outcome == "raise":
                raise RuntimeError("batch broke")
            time.sleep(0.2)  # still running when it is cancelled
            return [_Snap(9, "batch") for _ in whos]

    svc = Service()

    async def run():
        first = asyncio.create_task(snapshot_for(svc, "T", ana, 1, cache))
        await asyncio.sleep(0)
        task = cache.inflight[("T", 1, 0)]  # Ana's miss started the batch read
        second = asyncio.create_task(snapshot_for(svc, "T", bruno, 1, cache))
        await asyncio.sleep(0.01)
        if outcome == "cancel":
            task.cancel()
        return await asyncio.gather(first, second)

    got = asyncio.run(run())
    assert [s.text for s in got] == ["a", "b"]
    assert sorted(singles) == ["a", "b"]
    assert cache.inflight == {}


def test_the_last_good_snapshot_is_per_viewer_and_the_newest_version():
    """What a tab falls back to when a read fails: its own newest snapshot, never another's
    (the key holds the secret), and an older version read late does not replace it."""
    cache = SnapshotCache(ttl=1, max_entries=4)
    ana, forged = _Who("a", "sa"), _Who("a", "guess")
    assert cache.last_good("T", ana) is None
    cache.put(viewer_key("T", 1, 0, ana), _Snap(5, "v5"))
    cache.put(viewer_key("T", 2, 1, ana), _Snap(4, "v4, read before the commit, stored late"))
    cache.table_changed("T")  # entries go; the fallback stays
    assert cache.get(viewer_key("T", 1, 0, ana)) is None
    assert cache.last_good("T", ana).text == "v5"
    assert cache.last_good("T", forged) is None
    assert cache.last_good("U", ana) is None
    cache.put(viewer_key("T", 3, 2, ana), _Snap(6, "v6"))
    assert cache.last_good("T", ana).text == "v6"
    for n in range(5):  # bounded like the entries
        cache.put(viewer_key(f"X{n}", 0, 0, ana), _Snap(0))
    assert cache.last_good("T", ana) is None
    cache.put(viewer_key("T", 3, 2, ana), _Snap(6, "v6"))
    cache.clear()
    assert cache.last_good("T", ana) is None


def test_a_state_derived_from_the_own_commit_is_built_on_the_loop(db_url, monkeypatch):
    """After this process's own plain move, the tabs' snapshots come from snapshots_known on
    the event loop's own thread (no worker thread); before it (nothing kept) and after a chat
    line (not derivable) they come from the batch read in a worker thread. Same projections.
    On PostgreSQL (several processes) nothing is derived: every state is a read."""
    from pifecacheta import db, service

    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", "7")
    real = service.TableService(db.init_db(db_url))
    one_process = real.store.engine.dialect.name == "sqlite"
    cache = SnapshotCache()
    real.on_change(cache.table_changed)
    people = [real.identify(None, None, n) for n in ("Ana", "Bruno", "Eva")]
    code = real.create_table(people[0], CACHETA_7)
    real.join(code, people[1])
    real.start(code, people[0])

    class Recording:
        def __init__(self) -> None:
            self.calls: list[tuple[str, int, bool]] = []  # (method, thread, answered)

        def snapshot(self, c, who):
            self.calls.append(("snapshot", threading.get_ident(), True))
            return real.snapshot(c, who)

        def snapshots(self, c, whos):
            self.calls.append(("snapshots", threading.get_ident(), True))
            return real.snapshots(c, whos)

        def snapshots_known(self, c, whos):
            snaps = real.snapshots_known(c, whos)
            self.calls.append(("known", threading.get_ident(), snaps is not None))
            return snaps

    svc = Recording()

    async def every_tab(count):
        loop_thread = threading.get_ident()
        snaps = await asyncio.gather(*(snapshot_for(svc, code, w, count, cache) for w in people))
        return loop_thread, snaps

    loop_thread, first = asyncio.run(every_tab(1))  # nobody seen yet: the other tabs read alone
    assert [c[0] for c in svc.calls][:2] == ["known", "snapshots"]  # nothing kept yet: a read
    assert svc.calls[0][2] is False and all(c[1] != loop_thread for c in svc.calls[1:])
    svc.calls.clear()
    asyncio.run(every_tab(2))  # every tab seen: one batch read for the three, kept
    assert [c[0] for c in svc.calls] == ["known", "snapshots"] and svc.calls[0][2] is False
    turn = first[0].view.turn
    real.act(code, people[turn], Draw(), expected_version=first[0].version)
    svc.calls.clear()
    loop_thread, after = asyncio.run(every_tab(3))
    if one_process:
        assert svc.calls == [("known", loop_thread, True)]  # one call, on the loop, no thread
    else:
        assert [c[:1] + c[2:] for c in svc.calls] == [("known", False), ("snapshots", True)]
    assert after == [real.snapshot(code, w) for w in people]
    assert [s.my_seat for s in after] == [0, 1, None] and after[turn].view.hand_counts[turn] == 10
    real.chat(code, people[0], "oi")  # a chat line: the kept read cannot give the next state
    svc.calls.clear()
    _, chatted = asyncio.run(every_tab(4))
    assert [c[0] for c in svc.calls] == ["known", "snapshots"] and svc.calls[0][2] is False
    assert [c.text for c in chatted[2].chat] == ["oi"]


def test_a_failing_known_snapshot_falls_back_to_the_read(caplog):
    """snapshots_known raising is logged and the batch read in a worker thread answers."""

    class Broken:
        def snapshot(self, c, who):
            raise AssertionError("the batch answers")

        def snapshots(self, c, whos):
            return [("read", w.player_id) for w in whos]

        def snapshots_known(self, c, whos):
            raise RuntimeError("boom")

    snap = asyncio.run(snapshot_for(Broken(), "T", _Who("a", "s"), 1, SnapshotCache()))
    assert snap == ("read", "a") and "from the last commit failed" in caplog.text
