"""The per-tab token bucket of pifecacheta/ratelimit.py (the wire test floods a real server)."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

from pifecacheta.ratelimit import BURST, RATE, FloodGuard, TokenBuckets


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate():
    clock = Clock()
    buckets = TokenBuckets(clock=clock)
    assert all(buckets.take("tab-a") for _ in range(BURST))
    assert not buckets.take("tab-a")  # the burst is spent
    assert buckets.take("tab-b")  # another tab has its own bucket
    clock.now += 1.0 / RATE
    assert buckets.take("tab-a") and not buckets.take("tab-a")  # one more per 1/RATE s
    clock.now += 3600
    assert sum(buckets.take("tab-a") for _ in range(BURST + 5)) == BURST  # refilled, never above


def _event(name: str) -> SimpleNamespace:
    return SimpleNamespace(name=name, payload={})


def _state(token: str) -> SimpleNamespace:
    return SimpleNamespace(router=SimpleNamespace(session=SimpleNamespace(client_token=token)))


def test_the_guard_drops_the_excess_logs_once_and_never_drops_a_page_load(caplog):
    clock = Clock()
    guard = FloodGuard(TokenBuckets(clock=clock))

    async def run() -> list[object]:
        out = []
        for _ in range(BURST + 50):
            out.append(await guard.preprocess(None, _state("tab-x"), _event("s.table_state.draw")))
        for _ in range(5):  # the page's own reload while flooded: processed
            out.append(
                await guard.preprocess(None, _state("tab-x"), _event("reflex___state____state.hydrate"))
            )
        return out

    with caplog.at_level(logging.WARNING, logger="pifecacheta.ratelimit"):
        results = asyncio.run(run())
    assert results[:BURST] == [None] * BURST
    assert all(r is not None and not r.delta and not r.events for r in results[BURST : BURST + 50])
    assert results[-5:] == [None] * 5
    assert [r.getMessage() for r in caplog.records] == [
        "tab tab-x sends events faster than 50/s: dropping the excess"
    ]
