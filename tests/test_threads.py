"""How many threads run the pages' service calls (pifecacheta/threads.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

import pytest

from pifecacheta import threads


def _service_on(dialect: str) -> SimpleNamespace:
    return SimpleNamespace(
        store=SimpleNamespace(engine=SimpleNamespace(dialect=SimpleNamespace(name=dialect)))
    )


def _threads_of_calls(dialect: str, monkeypatch: pytest.MonkeyPatch, calls: int = 8) -> tuple[set[str], int]:
    """Run the lifespan task on a new loop for a service on ``dialect``, then ``calls``
    ``asyncio.to_thread`` calls at once: the names of the threads they ran in, and how many
    ran at the same time at most."""
    monkeypatch.setattr(threads, "get_service", lambda: _service_on(dialect))
    names: set[str] = set()
    lock = threading.Lock()
    running, most = 0, 0

    def call() -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            names.add(threading.current_thread().name)
        time.sleep(0.05)  # long enough for the calls to queue for the pool's threads
        with lock:
            running -= 1

    async def main() -> None:
        await threads.service_threads_task()
        await asyncio.gather(*(asyncio.to_thread(call) for _ in range(calls)))

    asyncio.run(main())
    return names, most


def test_sqlite_service_calls_run_in_two_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PIFECACHETA_SERVICE_THREADS", raising=False)
    names, most = _threads_of_calls("sqlite", monkeypatch)
    assert most == 2 and len(names) == 2 and all(n.startswith("service_") for n in names)


def test_postgresql_keeps_asyncios_own_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PIFECACHETA_SERVICE_THREADS", raising=False)
    names, most = _threads_of_calls("postgresql", monkeypatch)
    assert most > 2 and not any(n.startswith("service_") for n in names)


def test_the_environment_sets_the_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIFECACHETA_SERVICE_THREADS", "3")
    names, most = _threads_of_calls("postgresql", monkeypatch)
    assert most == 3 and all(n.startswith("service_") for n in names)
