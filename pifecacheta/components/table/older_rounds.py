"""RODADAS ANTERIORES: the end of the RODADAS tab when the table has more earlier rounds than
the server sends every tab (``HistoryUi.older_rounds``): a button that adds the next older ones
to the list for this viewer (``state/older_rounds.py``), the count still to see on it, and a
polite announcement of how many are in the list after each ask.

The button stays in the page (``aria-disabled`` once every older round is shown), so the focus
of a keyboard user who pressed it is not lost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex_base.vars import ArrayVar, ObjectVar

from pifecacheta.components.common import polite_region
from pifecacheta.components.table.shared import T, fill_in
from pifecacheta.state.history_ui import RoundUi
from pifecacheta.state.older_rounds import OlderRoundsState
from pifecacheta.state.table import TableState

COUNT = TableState.history.older_rounds.to(int)  # the table's older rounds (HistoryUi.older_rounds)
OLDER: ArrayVar[list[RoundUi]] = OlderRoundsState.older  # type: ignore[assignment]
# the list asked for belongs to this table and to the older rounds it has now
SHOWING = (OlderRoundsState.older_code == TableState.table_code) & (OlderRoundsState.older_total == COUNT)
LEFT = COUNT - rx.cond(SHOWING, OLDER.length(), 0)  # older rounds not in the list yet

FOCUS_RING: dict[str, Any] = {"&:focus-visible": {"outline": "2px solid #ffd27f", "outline_offset": "2px"}}


def older_items(render: Callable[[ObjectVar[RoundUi]], rx.Component]) -> rx.Component:
    """The older rounds asked for, each drawn by ``render`` (the list's own items), after the
    rounds every tab has."""
    return rx.cond(SHOWING, rx.foreach(OLDER, render))  # type: ignore[no-any-return]


def _shown() -> Any:
    """How many older rounds are in the list, in words ("1 rodada anterior", "3 rodadas ...")."""
    n = OLDER.length()
    return rx.cond(n == 1, T["hist.older_shown_one"], fill_in(T["hist.older_shown"], "{n}", n.to_string()))


def older_control(prefix: str) -> rx.Component:
    """The button and its announcement when the table has older rounds, and a refusal of the
    ask (``prefix`` keeps the side panel's ids apart from the dialog's)."""
    return rx.fragment(  # type: ignore[no-any-return]
        rx.cond(
            COUNT > 0,
            rx.vstack(
                rx.button(
                    rx.cond(
                        LEFT > 0, fill_in(T["hist.older_more"], "{n}", LEFT.to_string()), T["hist.older_all"]
                    ),
                    on_click=OlderRoundsState.show_older_rounds,
                    aria_disabled=rx.cond(LEFT > 0, "false", "true"),
                    variant="soft",
                    color_scheme="amber",
                    size="1",
                    id=f"{prefix}-older-rounds",
                    style={**FOCUS_RING, "&[aria-disabled='true']": {"opacity": "0.75", "cursor": "default"}},
                ),
                polite_region(
                    rx.cond(SHOWING & (OLDER.length() > 0), _shown(), ""), id=f"{prefix}-older-live"
                ),
                spacing="1",
                padding_top="0.5em",
            ),
        ),
        rx.cond(
            OlderRoundsState.older_error != "",
            rx.text(T[OlderRoundsState.older_error], size="2", color="#ffb4a8", role="alert"),
        ),
    )
