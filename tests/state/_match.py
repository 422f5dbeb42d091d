"""A whole Cacheta 7 match with hostile text, played through a real TableService, for the
state tests that compare what is written on the wire with what Reflex would write
(``test_frames.py``, ``test_wire.py``).

Ana's name and her chat line carry HTML, ``$`` replacement patterns (``$&``, ``$1``, ``$'``),
a backslash, a tab and the line separator U+2028: text that a naive writer escapes wrongly.
Two bots (Carmen, Tito) sit with her; she plays Carmen's policy whenever it is her turn.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from pifecacheta.bots import bot_action
from pifecacheta.rules import CACHETA_7
from pifecacheta.service import Identity, TableService
from pifecacheta.state import history_ui

HOSTILE_NAME = 'Zé <b>"R$ $& $1</b> ‹img› \\ \t'
HOSTILE_CHAT = "olá <script>$'</script> ✓ \u2028 \x7f"

Look = Callable[[TableService, str, Identity], Awaitable[None]]


def play_hostile_match(db_engine: Any, clock: Any, look: Look, *, max_steps: int = 400) -> int:
    """Seat Ana (``HOSTILE_NAME``) with two bots at a Cacheta 7 table dealt with seed 11, start
    it, send ``HOSTILE_CHAT`` and play the match to its end (or ``max_steps`` steps): before
    every step (a bot's move or Ana's), ``await look(svc, code, ana)`` runs in a fresh event
    loop, so it may read the table as any viewer. The history cache is emptied first.

    Returns how many times ``look`` ran. A refused move of Ana's (not her turn) is skipped:
    the bots move next."""
    history_ui._kept.clear()
    svc = TableService(db_engine, clock=clock, seed_source=lambda: 11, bot_delay=0, round_over_delay=0)
    ana = svc.identify(None, None, HOSTILE_NAME)
    code = svc.create_table(ana, CACHETA_7)
    svc.add_bots(code, ana, ["Carmen", "Tito"])
    svc.start(code, ana)
    svc.chat(code, ana, HOSTILE_CHAT)
    rng = random.Random(5)
    looks = 0
    for _ in range(max_steps):
        asyncio.run(look(svc, code, ana))
        looks += 1
        snap = svc.snapshot(code, ana)
        if snap.status == "finished":
            break
        if svc.bot_step(code):
            continue
        action = bot_action("Carmen", snap.view, rng) if snap.view is not None else None
        if action is None:
            break
        try:
            svc.act(code, ana, action, expected_version=snap.version)
        except Exception:  # noqa: BLE001 - a refusal (not Ana's turn): the bots move next
            continue
    return looks
