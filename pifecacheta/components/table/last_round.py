"""The last round's result on the new round: a card above the felt for each viewer who has not
closed it yet.

Seed 000 line 68: any player's PRÓXIMA RODADA starts the next round for everyone, so the others'
FIM DA RODADA closes at once. A slower player still sees who went out and the lives lost: this
card (``#last-round``) shows the newest past round (``TableState.past_rounds``, the same data as
the history's Rodadas tab) until the viewer closes it (``#last-round-close``), moves in the new
round (``TableUi.played_this_round``), or the round after it starts. The one who pressed
PRÓXIMA RODADA does not get it (``LAST_CLOSED``), nor a page that did not show that round's
FIM DA RODADA (``LAST_SEEN``: opened or reloaded in the new round, where the card would push
the stock, the buttons and the hand below the fold; the history says it). Its appearance is
announced politely.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ArrayVar, ObjectVar

from pifecacheta.components.cards import card_face
from pifecacheta.components.common import close_button
from pifecacheta.components.table.round_over import LAST_CLOSED, LAST_SEEN, result_lines, went_out_text
from pifecacheta.components.table.shared import NAME_STYLE, UI, T, badge, fill_in
from pifecacheta.state.history_ui import RoundUi
from pifecacheta.state.table import TableState
from pifecacheta.state.ui_values import SeatUi

ROUNDS: ArrayVar[list[RoundUi]] = TableState.past_rounds  # type: ignore[assignment]
FOCUS_RING: dict[str, Any] = {"&:focus-visible": {"outline": "2px solid #ffd27f", "outline_offset": "2px"}}


def _lives_chip(seat: ObjectVar[SeatUi]) -> rx.Component:
    """Cacheta: one seat's lives after that round, with what it lost and FORA."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(seat.name, weight="bold", style={**NAME_STYLE, "max_width": "8em"}),
        rx.text("♥ ", seat.lives),
        rx.cond(
            seat.lives_lost > 0,  # type: ignore[operator]
            rx.text("(−", seat.lives_lost, ")", style={"color": "#ffb4b4"}),
        ),
        rx.cond(seat.out, badge(T["badge.out"], "red")),
        spacing="1",
        align="center",
        class_name="last-round-lives",
    )


def _card(r: Any) -> rx.Component:
    """The summary of past round ``r`` (a ``RoundUi`` Var)."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.hstack(
            rx.text(
                fill_in(T["last.title"], "{n}", r.round_number.to_string()),
                weight="bold",
                size="2",
                style={"opacity": "0.85"},
            ),
            rx.spacer(),
            close_button(
                T["last.close"],
                LAST_CLOSED.set_value(r.round_number),
                id="last-round-close",
                style=FOCUS_RING,
                title=T["last.close"],
            ),
            width="100%",
            align="center",
        ),
        rx.hstack(
            rx.text(went_out_text(r), weight="bold", id="last-round-went-out"),
            rx.cond(r.result_has_taken, card_face(r.result_taken, size="sm")),
            align="center",
            wrap="wrap",
        ),
        rx.cond(
            r.mode == "cacheta",
            rx.flex(rx.foreach(r.seats, _lives_chip), wrap="wrap", column_gap="1em", row_gap="0.2em"),
        ),
        rx.el.details(
            rx.el.summary(T["last.details"], style={"cursor": "pointer", **FOCUS_RING}),
            rx.box(result_lines(r), padding_top="0.4em"),
            style={"font_size": "0.9em", "width": "100%"},
        ),
        spacing="1",
        width="100%",
        id="last-round",
        role="region",
        aria_label=fill_in(T["last.title"], "{n}", r.round_number.to_string()),
        style={
            "background": "rgba(10,40,20,0.9)",
            "border": "1px solid #ffd27f",
            "border_radius": "0.7em",
            "padding": "0.4em 0.7em 0.5em",
            "max_width": "40em",
            "margin": "0 auto",
        },
    )


def last_round_card() -> rx.Component:
    """The card of the round just over, while the new round is in play and this viewer neither
    closed it nor moved yet; inside a polite live region so its arrival is read out."""
    newest = ROUNDS[0]
    shown = (
        (ROUNDS.length() > 0)
        & (newest.round_number == UI.round_number - 1)  # type: ignore[operator]
        & (LAST_SEEN.value == newest.round_number)
        & (LAST_CLOSED.value != newest.round_number)
        & ~UI.played_this_round
    )
    return rx.el.div(  # type: ignore[no-any-return]
        rx.cond(shown, _card(newest)),
        aria_live="polite",
        id="last-round-live",
        style={"width": "100%"},
    )
