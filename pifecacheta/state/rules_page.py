"""``/regras`` opened from a table (``/regras?mesa=<code>``): that table's house rules and Dicas.

The link to the rules page from a table (``components/table_rules.py``) carries the table's
invite code, so the page can say, above the site's rules, which house rules that table plays
(seed 000 "Variações" and lines 33-38). The code is the one the viewer already holds to open
the table; only public values are read (the table's ``Rules`` and its Dicas option, through a
spectator's snapshot). No code, an unknown one or a failed read: the page shows only the
site's rules.
"""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from pifecacheta.service import get_service, house_rules_on
from pifecacheta.state.snapshots import is_refusal

log = logging.getLogger(__name__)
MAX_CODE = 32  # GameTable.code's length: anything longer is no table's code


class RulesPageState(rx.State):
    """The table the rules page was opened from: ``house`` (its house rules on, names of
    ``service.HOUSE_RULES``), ``hints_on`` (Dicas), ``from_table`` (a table was found)."""

    house: list[str] = []
    hints_on: bool = False
    from_table: bool = False

    @rx.event
    async def load(self) -> None:
        """on_load of ``/regras`` and ``/reglas``: read the ``mesa`` query parameter's table."""
        code = str(self.router.url.query_parameters.get("mesa", ""))
        self.house, self.hints_on, self.from_table = [], False, False
        if not code or len(code) > MAX_CODE:
            return
        try:
            snap = await asyncio.to_thread(get_service().snapshot, code, None)
        except Exception as exc:  # noqa: BLE001
            if not is_refusal(exc):
                raise
            return  # no such table: the site's rules only
        self.house = list(house_rules_on(snap.rules))
        self.hints_on = snap.hints
        self.from_table = True
