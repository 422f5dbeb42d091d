"""A Cacheta 7 table of Ana and Bruno, started on the deal whose first round has a take from
the lixo and a jump (``tests/browser/_history_plan.py``: ``find_take_and_jump``), for the state
tests of the history panel and its past rounds."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pifecacheta.rules import CACHETA_7
from pifecacheta.service import Identity, TableService

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _history_plan import find_take_and_jump  # noqa: E402


def start_take_and_jump(svc: TableService) -> tuple[str, dict[int, Identity], Any, list[tuple[int, Any]]]:
    """Create, fill and start the table on ``svc`` (its next deal's seed is the plan's).

    Returns (table code, seat -> identity, the plan's final match, the plan's moves as
    (seat, action) pairs: played in order, the last one ends the first round)."""
    seed, final, log = find_take_and_jump(CACHETA_7, max_actions=30)
    svc.store.seed_source = lambda: seed
    who = {0: svc.identify(None, None, "Ana"), 1: svc.identify(None, None, "Bruno")}
    code = svc.create_table(who[0], CACHETA_7)
    svc.join(code, who[1])
    svc.start(code, who[0])
    return code, who, final, log
