"""A table read that fails does not leave a player's page blank or stuck.

After every change each tab re-reads its own view of the table (``TableState.ui``), and only
then. A read that failed used to show the "not found" screen - no COMPRAR, no hand - until
the table's next change, which on a player's own turn never comes (the bots wait for them).
Now the read is retried, the page keeps the table as it last was, and the tab re-reads by
itself a moment later. AppHarness runs the backend in this process, so the test makes the
app's own service fail the next table reads.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator

import pytest
from _flows import start_two
from _replay import hand
from playwright.sync_api import expect


@contextlib.contextmanager
def _failing_reads(n: int) -> Iterator[list[int]]:
    """The app's service fails its next ``n`` table reads (``snapshot``/``snapshots``) with
    SQLite's "database is locked"; yields ``[reads failed so far]``. Meanwhile it derives no
    table state from its own commit either (``snapshots_known``, which reads nothing), so
    every state goes to a read that fails."""
    from pifecacheta.service import get_service

    svc = get_service()
    if not svc.store.listeners:  # the backend runs in another process: nothing to patch
        pytest.skip("the app's service is not in this process")
    lock = threading.Lock()
    failed = [0]
    real_one, real_many, real_known = svc.snapshot, svc.snapshots, svc.snapshots_known

    def fail_once() -> None:
        with lock:
            if failed[0] < n:
                failed[0] += 1
                raise sqlite3.OperationalError("database is locked")

    def snapshot(code, who):
        fail_once()
        return real_one(code, who)

    def snapshots(code, whos):
        fail_once()
        return real_many(code, whos)

    def snapshots_known(code, whos):
        with lock:
            if failed[0] < n:
                return None
        return real_known(code, whos)

    svc.snapshot, svc.snapshots, svc.snapshots_known = snapshot, snapshots, snapshots_known
    try:
        yield failed
    finally:
        del svc.snapshot, svc.snapshots, svc.snapshots_known  # back to the class's methods


def test_a_failed_read_on_my_move_keeps_the_table_and_catches_up(app_harness, new_page):
    a, b = start_two(new_page, app_harness, "cacheta7", 11)
    a.get_by_role("button", name="COMEÇAR").click()
    draw = b.get_by_role("button", name="COMPRAR", exact=True)
    expect(draw).to_be_enabled()  # Bruno plays first
    expect(hand(b)).to_have_count(9)
    # Bruno draws; the reads that follow his move fail: the batch read of the table and all
    # three tries of his own read. Nobody moves after that (it is his turn to discard).
    with _failing_reads(4) as failed:
        draw.click()
        for p in (a, b):  # both screens reach the new state anyway
            expect(p.locator('.seat[data-seat="1"] .seat-cards')).to_have_text("10")
        expect(hand(b)).to_have_count(10)
        assert failed[0] == 4
    expect(b.locator("#status-line")).to_contain_text("Descarte uma carta")  # his discard turn
    expect(draw).to_be_disabled()
    for p in (a, b):
        expect(p.get_by_text("Esta mesa não existe ou expirou.")).to_have_count(0)
