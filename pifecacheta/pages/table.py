"""``/mesa/<code>``: the waiting room, the table, FIM DA RODADA and the end of the match.

The page only assembles the parts in ``pifecacheta/components/table/``; which part shows
follows the viewer's ``TableUi`` (``TableState.ui``).
"""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.access import access_watch
from pifecacheta.components.common import page_shell
from pifecacheta.components.focus import page_title
from pifecacheta.components.house_rules import table_house_rules
from pifecacheta.components.notices import notices_button, turn_signal
from pifecacheta.components.table.actions import actions, status_line
from pifecacheta.components.table.announcer import announcer
from pifecacheta.components.table.centre import centre
from pifecacheta.components.table.chat import chat
from pifecacheta.components.table.dialogs import extras
from pifecacheta.components.table.hand import hand
from pifecacheta.components.table.hints import hints_panel
from pifecacheta.components.table.history import history_button, history_live, history_side
from pifecacheta.components.table.messages import message_callout
from pifecacheta.components.table.move_sound import move_sound, move_sound_switch
from pifecacheta.components.table.replay import replay_dialog
from pifecacheta.components.table.round_over import round_over_panel
from pifecacheta.components.table.seats import seats
from pifecacheta.components.table.shared import UI, T, fill, new_table_link
from pifecacheta.components.table.verify import verify_dialog
from pifecacheta.components.table.waiting_room import expired_room, waiting_room
from pifecacheta.state.table import TableState

__all__ = ["expired_room", "round_over_panel", "table_board", "table_page", "waiting_room"]


def _top_line() -> rx.Component:
    """The table's rules (the game, and a Cacheta's starting lives), the round number, and the
    buttons at the right (Avisos da vez, the history, DESISTIR, pause, ...): one line on a
    390 px phone too, where the buttons are icons (``assets/table.css``, ``.pfc-top-line``)."""
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
            role="heading",  # the table page's title (WCAG 1.3.1); FIM DA RODADA is an h2 under it
            aria_level=1,
            class_name="pfc-top-title",
            **page_title(),
        ),
        rx.spacer(class_name="pfc-top-spacer"),
        # Avisos da vez: the your-turn sound and notification, where a player looks
        rx.cond(UI.is_player, notices_button("table-notices-button", move_sound_switch())),
        history_button(),
        extras(),
        width="100%",
        align="center",
        class_name="pfc-top-line",  # one line on a phone too (assets/table.css)
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
        announcer(),  # your turn, the card you drew (assertive)
        move_sound(),  # a draw's, a take's, a discard's sound, when the viewer turned them on
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
    """The table (``#board``): the top line, the seats, the centre or FIM DA RODADA, the status
    line (where a refusal floats), the buttons, the hand and the chat.

    A column on a narrow screen; from Radix's ``md`` (62em) a card table laid out by
    ``assets/table.css``: the other seats around an oval felt (left, top, right), the stock,
    the lixo, the vira and the wild in its middle, the viewer's seat, the buttons and the hand
    below it. Each part is a box of its own class (``pfc-*``), the grid's areas."""
    playing = ~UI.round_over & ~UI.match_over
    return rx.box(  # type: ignore[no-any-return]
        rx.box(
            _top_line(),
            table_house_rules(UI, compact=True),  # Regras desta mesa, when it has any, and Dicas
            class_name="pfc-top",
        ),
        rx.box(class_name="pfc-felt", aria_hidden="true"),
        seats(),
        rx.box(rx.cond(UI.round_over | UI.match_over, round_over_panel(), centre()), class_name="pfc-middle"),
        # the refusal floats over the status line it stands for (not over the seats)
        rx.box(message_callout(), rx.cond(playing, status_line()), class_name="pfc-status"),
        rx.box(
            rx.cond(playing, hints_panel()),  # Dicas, a house rule's reminder
            _absence_hint(),
            class_name="pfc-hint",
        ),
        rx.box(rx.cond(UI.is_player & ~UI.i_am_out & playing, actions()), class_name="pfc-actions"),
        rx.box(rx.cond(UI.is_player & (UI.hand_count > 0), hand()), class_name="pfc-hand"),  # type: ignore[operator]
        rx.box(chat(), class_name="pfc-chat"),
        id="board",
        class_name="pfc-board",
        # FIM DA RODADA / DA PARTIDA: on a wide screen the board is exactly one screen tall and
        # the panel scrolls inside the felt (assets/table.css)
        custom_attrs={"data-over": rx.cond(UI.round_over | UI.match_over, "true", "false")},
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
        turn_signal(),  # the tab title, favicon, chime and notification on the viewer's turn
        access_watch(),  # a seat lost to a key replaced elsewhere: say so (/acesso)
        # what the page-head script UNANSWERED_MOVE_HOOK (state/browser_scripts.py) reads to
        # tell whether a move it sent was answered
        rx.el.span(
            id="pc-answered", hidden=True, data_version=UI.version, data_serial=TableState.message_serial
        ),
        replay_dialog(),  # REVER A RODADA, opened from FIM DA RODADA and the past rounds
        verify_dialog(),  # VERIFICAR, the same
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
