"""The waiting room's seat events of a table tab: get up, remove a seat, add ONE bot.

A Reflex state mixin that ``TableState`` (``state/table.py``) inherits; each event is one
service call through ``TableState._call`` (a refusal becomes the tab's message, a change is
published on the live feed). Seed 000 line 70: before the start the creator may fill seats
with bots; one at a time here, every free seat with COMPLETAR COM ROBÔS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import reflex as rx

from pifecacheta.service import BOT_NAMES


def next_bot(seats: Any) -> list[str]:
    """The one bot that ``+ ROBÔ`` seats: the first of Carmen, Tito, Luna not seated ([] if
    all are). ``seats``: the snapshot's ``SeatInfo`` tuple.

    >>> from pifecacheta.service import SeatInfo
    >>> next_bot([SeatInfo(0, "Ana", False, True, False), SeatInfo(1, "Carmen", True, False, False)])
    ['Tito']
    """
    seated = {s.name for s in seats if s.is_bot}
    return [n for n in BOT_NAMES if n not in seated][:1]


class Seating(rx.State, mixin=True):
    """LEVANTAR (leave my seat), TIRAR (the creator removes a seat) and + ROBÔ."""

    if TYPE_CHECKING:
        table_code: str

        async def _call(self, fn: Any) -> Any: ...

        async def _ensure_open(self) -> None: ...

    @rx.event
    async def leave_seat(self) -> Any:
        """Get up from my seat before the start and watch (the creator stays)."""
        await self._ensure_open()  # a click queued while offline reaches a fresh state first
        code = self.table_code
        return await self._call(lambda svc, who: svc.leave_seat(code, who))

    @rx.event
    async def remove_seat(self, seat: int) -> Any:
        """The creator removes the person or bot at ``seat`` (an int; a forged value is refused
        by the service as ``no_such_seat``)."""
        await self._ensure_open()  # a click queued while offline reaches a fresh state first
        code = self.table_code
        return await self._call(lambda svc, who: svc.remove_seat(code, who, seat))

    @rx.event
    async def add_one_bot(self) -> Any:
        """+ ROBÔ: seat the next bot in the first free seat (creator only, like COMPLETAR)."""
        await self._ensure_open()  # a click queued while offline reaches a fresh state first
        code = self.table_code

        def add(svc: Any, who: Any) -> None:
            svc.add_bots(code, who, next_bot(svc.snapshot(code, who).seats))

        return await self._call(add)
