"""The bot scheduler tests' service (``test_scheduler.py``, ``test_scheduler_owns.py``): a real
TableService on the test database with a fake clock and a fixed deal, Pife tables where a bot
plays first, and a counter of the service's bot reads and steps."""

from __future__ import annotations

from typing import Any

from pifecacheta.rules import PIFE
from pifecacheta.service import Identity, TableService


def bot_service(db_engine: Any, clock: Any = None, *, bot_delay: float = 0.5, **kw: Any) -> TableService:
    """A TableService on ``db_engine`` dealing seed 9, its bots moving ``bot_delay`` s after the
    last move by ``clock`` (the real clock when None); ``kw`` goes to the service as is. Two of
    them on one database stand for two processes of a cluster."""
    if clock is not None:
        kw["clock"] = clock
    return TableService(db_engine, seed_source=lambda: 9, bot_delay=bot_delay, **kw)


def bot_tables(svc: TableService, people: list[Identity], n: int, *, start: bool = True) -> list[str]:
    """``n`` Pife tables Ana (``people[0]``, seat 0) vs the bot Luna (seat 1), who plays first
    once Ana starts the match; started unless ``start`` is False (then still in the lobby).
    Returns their codes."""
    codes = []
    for _ in range(n):
        code = svc.create_table(people[0], PIFE)
        svc.add_bots(code, people[0], ["Luna"])
        if start:
            svc.start(code, people[0])
        codes.append(code)
    return codes


def counting(svc: TableService) -> dict[str, int]:
    """Wrap ``svc``'s ``bot_schedule`` and ``bot_step`` so that each call is counted in the
    returned dict (keys ``schedule`` and ``step``), then passed on to the real method."""
    counts = {"schedule": 0, "step": 0}
    schedule, step = svc.bot_schedule, svc.bot_step

    def count_schedule(code: str) -> Any:
        counts["schedule"] += 1
        return schedule(code)

    def count_step(code: str, **kw: Any) -> bool:
        counts["step"] += 1
        return step(code, **kw)

    svc.bot_schedule = count_schedule  # type: ignore[method-assign]
    svc.bot_step = count_step  # type: ignore[method-assign]
    return counts
