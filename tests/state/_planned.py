"""A planned two-player game (tests/browser/_planner.py) played through a real TableService.

Shared by the state tests that need a table at a known point: a round just over, a louca, a
queue jump.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _planner import find_seed  # noqa: E402


def act(svc: Any, code: str, who: Any, action: Any) -> None:
    """``who`` plays ``action`` at the table's current version."""
    svc.act(code, who, action, expected_version=svc.snapshot(code, who).version)


def play_planned(
    svc: Any,
    monkeypatch: Any,
    rules: Any,
    *,
    out_of_turn: bool,
    announce: bool = False,
    max_actions: int = 40,
    upto: int | None = None,
) -> tuple[str, dict[int, Any], Any, list[Any]]:
    """Seat Ana (0) and Bruno (1), deal the first planned seed's game and play its log
    (``log[:upto]``). Returns ``(code, {seat: identity}, final match, log)``."""
    seed, final, log = find_seed(
        rules, 2, out_of_turn=out_of_turn, max_actions=max_actions, announce=announce
    )
    monkeypatch.setenv("PIFECACHETA_FIXED_SEED", str(seed))
    who = {0: svc.identify(None, None, "Ana"), 1: svc.identify(None, None, "Bruno")}
    code = svc.create_table(who[0], rules)
    svc.join(code, who[1])
    svc.start(code, who[0])
    for seat, action in log[:upto]:
        act(svc, code, who[seat], action)
    return code, who, final, log
