"""The home page: create a table (Pife, or Cacheta with 7 or 10 lives) under your name.

Seed 000 line 48: the creator picks Pife or Cacheta with 7 or 10 lives; line 46: the creator
sends the invite link. Creating sits the creator at seat 0 and opens ``/mesa/<code>``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import reflex as rx

from pifecacheta import live
from pifecacheta.service import get_service
from pifecacheta.state.viewer import ViewerState

MODES: tuple[str, ...] = ("pife", "cacheta7", "cacheta10")


def rules_for(mode: str) -> Any:
    """The engine ``Rules`` of a lobby choice: "pife", "cacheta7" or "cacheta10".

    >>> rules_for("cacheta10").lives
    10

    Raises:
        ValueError: unknown choice.
    """
    from pifecacheta.rules import CACHETA_7, CACHETA_10, PIFE

    try:
        return {"pife": PIFE, "cacheta7": CACHETA_7, "cacheta10": CACHETA_10}[mode]
    except KeyError:
        raise ValueError(f"unknown mode {mode!r}") from None


class LobbyState(rx.State):
    """The create-a-table form."""

    mode: str = "cacheta7"
    name_input: str = ""
    message: str = ""

    @rx.event
    async def load(self) -> None:
        """Prefill the name this browser used last time; this tab shows no table any more, so it
        stops watching the one it came from on the live feed."""
        live.current().unwatch(live.tab_of(self).token)
        session = await self.get_state(ViewerState)
        self.name_input = self.name_input or session.name
        self.message = ""

    @rx.event
    def set_mode(self, mode: str | list[str]) -> None:
        """Pick Pife / Cacheta 7 / Cacheta 10."""
        mode = mode[0] if isinstance(mode, list) else mode
        if mode in MODES:
            self.mode = mode

    @rx.event
    def set_name_input(self, name: str) -> None:
        """The name field."""
        self.name_input = name[:24]

    @rx.event
    async def create(self) -> Any:
        """CRIAR MESA: create the table, sit at seat 0 and open its page (the service calls run
        in a worker thread)."""
        from pifecacheta.state.table import error_key

        if not self.name_input.strip():
            self.message = "err.bad_name"
            return None
        session = await self.get_state(ViewerState)
        try:
            who = await session._identity(self.name_input.strip())
            code = await asyncio.to_thread(get_service().create_table, who, rules_for(self.mode))
        except ValueError as exc:
            if not hasattr(exc, "code"):
                raise
            self.message = error_key(exc)
            return None
        self.message = ""
        return rx.redirect(f"/mesa/{code}")
