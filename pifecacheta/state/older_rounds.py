"""The older rounds of the RODADAS tab: a table's earlier matches' rounds that the server does
not keep in memory nor send to every tab (``HistoryUi.older_rounds`` counts them; the newest
``PIFECACHETA_PAST_ROUNDS`` come with ``TableState.past_rounds``), read for the tab that asks,
:data:`PAGE` at a time, newest first.

They are public facts (seed 000 line 68: FIM DA RODADA showed them to the whole table), read
from the action log by the service (``TableService.older_rounds``), which keeps them for the
last few tables asked, so asking again costs no replay.
"""

from __future__ import annotations

import reflex as rx

from pifecacheta.service import get_service
from pifecacheta.state.history_ui import RoundUi, round_ui
from pifecacheta.state.snapshots import is_refusal
from pifecacheta.state.table import TableState, _in_thread, error_key

PAGE = 12  # older rounds added to the list by each ask


class OlderRoundsState(rx.State):
    """The older rounds this tab asked for: ``older`` (newest first, :class:`RoundUi`), of
    table ``older_code`` when it had ``older_total`` older rounds (the page shows them while
    ``history.older_rounds`` says the same count; a REVANCHE that makes more rounds older
    starts the list again), and ``older_error``: the catalog key of a refusal ("" when none)."""

    older: list[RoundUi] = []
    older_code: str = ""
    older_total: int = 0
    older_error: str = ""

    @rx.event
    async def show_older_rounds(self) -> None:
        """RODADAS ANTERIORES: add the next :data:`PAGE` older rounds of this tab's table to
        :attr:`older` (nothing when all are shown). A refusal (the table is gone) is shown in
        :attr:`older_error` and changes nothing else."""
        table = await self.get_state(TableState)
        await table._ensure_open()  # a click queued while offline reaches a fresh state first
        code = table.table_code
        self.older_error = ""
        if not code:
            return
        try:
            snap = await table._snapshot()  # first: a code that names no table is refused here
            rounds = await _in_thread(get_service().older_rounds, code)
        except Exception as exc:  # noqa: BLE001 - a refusal is shown, anything else raised
            if not is_refusal(exc):
                raise
            self.older_error = error_key(exc)
            return
        if code != self.older_code or len(rounds) != self.older_total:
            self.older, self.older_code, self.older_total = [], code, len(rounds)
        shown = len(self.older)
        if shown >= len(rounds):
            return
        names = {s.seat: s.name for s in snap.seats}
        mode = str(getattr(snap.rules.mode, "value", snap.rules.mode)).lower()
        page = rounds[::-1][shown : shown + PAGE]
        self.older = [*self.older, *(round_ui(r, names, mode, earlier=True) for r in page)]
