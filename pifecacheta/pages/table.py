"""``/mesa/<code>``: the waiting room, the table, FIM DA RODADA and the end of the match.

The page only assembles the parts in ``pifecacheta/components/table/``; which part shows
follows the viewer's ``TableUi`` (``TableState.ui``).
"""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.access import access_watch
from pifecacheta.components.common import page_shell
from pifecacheta.components.notices import turn_signal
from pifecacheta.components.table.actions import actions, status_line
from pifecacheta.components.table.centre import centre
from pifecacheta.components.table.chat import chat
from pifecacheta.components.table.dialogs import extras
from pifecacheta.components.table.hand import hand
from pifecacheta.components.table.history import history_button, history_live, history_side
from pifecacheta.components.table.messages import HIDE_KEYFRAMES, message_callout
from pifecacheta.components.table.replay import replay_dialog
from pifecacheta.components.table.round_over import round_over_panel
from pifecacheta.components.table.seats import seats
from pifecacheta.components.table.shared import UI, T, fill, new_table_link
from pifecacheta.components.table.waiting_room import expired_room, waiting_room
from pifecacheta.state.table import TableState

__all__ = ["expired_room", "round_over_panel", "table_board", "table_page", "waiting_room"]


def _top_line() -> rx.Component:
    """The table's rules (the game, and a Cacheta's starting lives), the round number, and the
    buttons at the right (DESISTIR, pause, ...)."""
    return rx.hstack(  # type: ignore[no-any-return]  # rx components are untyped in Reflex 0.10.1
        rx.text(
            rx.cond(UI.mode == "pife", T["mode.pife"], T["mode.cacheta"]),
            rx.cond(UI.mode == "cacheta", rx.text(" · ", UI.lives_start, " ", T["table.lives"], as_="span")),
            " · ",
            T["table.round"],
            " ",
            UI.round_number,
            size="2",
            style={"opacity": "0.85"},
        ),
        rx.spacer(),
        history_button(),
        extras(),
        width="100%",
        align="center",
    )


def _absence_hint() -> rx.Component:
    """To the players: the one whose turn it is has been away long enough to end the match."""
    return rx.cond(  # type: ignore[no-any-return]
        UI.absence_claimable & UI.is_player,
        rx.callout(fill("absence.hint", UI.turn_name), color_scheme="orange", size="1", id="absence-hint"),
    )


def table_board() -> rx.Component:
    """The table while a match is on (and its end screens), with the move history: beside it
    on a wide screen (wider than the page's column), behind a button on a narrow one."""
    return rx.box(  # type: ignore[no-any-return]
        _board(),
        history_side(),
        history_live(),
        style={
            "display": "grid",
            "grid_template_columns": rx.breakpoints(initial="minmax(0, 1fr)", md="minmax(0, 1fr) 20em"),
            "gap": "1em",
            "align_items": "start",
            "width": rx.breakpoints(initial="100%", md="min(96vw, 1400px)"),
            "margin_left": rx.breakpoints(initial="0", md="calc(50% - min(48vw, 700px))"),
        },
    )


def _board() -> rx.Component:
    """The seats, the centre or FIM DA RODADA, the status line, the buttons, the hand, the chat."""
    return rx.vstack(  # type: ignore[no-any-return]
        _top_line(),
        seats(),
        rx.cond(UI.round_over | UI.match_over, round_over_panel(), centre()),
        message_callout(),
        rx.cond(~UI.round_over & ~UI.match_over, status_line()),
        _absence_hint(),
        rx.cond(UI.is_player & ~UI.i_am_out & ~UI.round_over & ~UI.match_over, actions()),
        rx.cond(UI.is_player & (UI.hand_count > 0), hand()),  # type: ignore[operator]
        chat(),
        width="100%",
        spacing="3",
        align="center",
    )


def _not_found() -> rx.Component:
    """A spinner until the viewer is known; then "no such table" and NOVA MESA."""
    return rx.cond(  # type: ignore[no-any-return]
        TableState.me == "",
        rx.center(rx.spinner(size="3"), padding="3em"),
        rx.vstack(
            rx.text(T["table.not_found"], size="4"),
            new_table_link(),
            align="center",
            padding="3em",
        ),
    )


def table_page() -> rx.Component:
    """``/mesa/<code>``: the waiting room, the expired room or the table, by the table's status."""
    return page_shell(
        rx.el.style(HIDE_KEYFRAMES),
        turn_signal(),  # the tab title, favicon, chime and notification on the viewer's turn
        access_watch(),  # a seat lost to a key replaced elsewhere: say so (/acesso)
        replay_dialog(),  # REVER A RODADA, opened from FIM DA RODADA and the past rounds
        rx.cond(
            UI.found,
            rx.match(
                UI.status,
                ("lobby", waiting_room()),
                ("expired", expired_room()),  # never started: 7 days without activity
                table_board(),
            ),
            _not_found(),
        ),
    )
