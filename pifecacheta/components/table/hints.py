"""Dicas at the table, and the reminder of a house rule at the moment it matters.

Under the status line, for a seated player: the question before a discard that breaks one of
their melds (DESCARTAR MESMO ASSIM / MANTER, ``state/discard_guard.py``), "espera: 5♥, 8♥"
when they are one card away, and the seeds' tip of the moment (``state/hints.py``); every
hint comes from the viewer's own ``TableUi.hints``. The panel is a polite live region, so a
new hint is read out. To every player in their draw turn at a table playing "Lixo só para
bater": the pile's card may be taken only to go out (seed 000 line 38).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.cards import card_label, suit_colour
from pifecacheta.components.my_tables import FOCUS_RING
from pifecacheta.components.table.shared import UI, T, fill_in
from pifecacheta.state.table import TableState

HINT_STYLE: dict[str, object] = {
    "background": "rgba(0,0,0,0.28)",
    "border_radius": "0.6em",
    "padding": "0.45em 0.8em",
    "width": "100%",
    "max_width": "40em",
}


def _wait_card(card: Any) -> rx.Component:
    """One face waited for: rank and suit symbol on a light chip, named for a screen reader."""
    return rx.text(  # type: ignore[no-any-return]
        card.rank,
        card.symbol,
        as_="span",
        class_name="hint-wait-card",
        custom_attrs={"data-card": card.code, "aria-label": card_label(card), "role": "img"},
        style={
            "background": "#fdfbf5",
            "color": suit_colour(card.suit),
            "border_radius": "0.3em",
            "padding": "0 0.35em",
            "font_weight": "bold",
        },
    )


def _wait() -> rx.Component:
    """ "espera: 5♥, 8♥", or "any card drawn goes out" when the 9 are all in melds."""
    hints = UI.hints
    return rx.cond(  # type: ignore[no-any-return]
        hints.wait_any,
        rx.text(T["hints.wait_any"], size="2", id="hint-wait"),
        rx.cond(
            hints.wait.length() > 0,
            rx.flex(
                rx.text(T["hints.wait"], weight="bold", size="2", as_="span"),
                rx.flex(
                    rx.foreach(hints.wait, _wait_card),
                    role="group",
                    aria_label=T["hints.wait_label"],
                    wrap="wrap",
                    gap="0.35em",
                ),
                id="hint-wait",
                align="center",
                wrap="wrap",
                gap="0.5em",
            ),
        ),
    )


def _answer(key: str, on_click: Any, button_id: str, **look: Any) -> rx.Component:
    """One answer to the question before a discard: the catalog text of ``key`` on a button
    (its accessible name) with the focus ring; ``look``: its Radix colour and variant."""
    return rx.button(  # type: ignore[no-any-return]
        T[key], on_click=on_click, size="2", id=button_id, style=FOCUS_RING, **look
    )


def _confirm() -> rx.Component:
    """The question before discarding a card of a meld, with its two answers."""
    held = TableState.hint_confirm_card
    shown = (
        (TableState.hint_confirm != "") & UI.can_discard & UI.hints.melded.contains(TableState.hint_confirm)
    )
    return rx.cond(  # type: ignore[no-any-return]
        shown,
        rx.callout.root(
            rx.callout.text(fill_in(T["hints.confirm"], "{card}", card_label(held))),
            rx.hstack(
                _answer(
                    "btn.discard_anyway",
                    TableState.confirm_discard(UI.version),  # type: ignore[operator]
                    "hint-discard-anyway",
                    color_scheme="red",
                ),
                _answer(
                    "btn.keep_card",
                    TableState.cancel_discard,
                    "hint-keep",
                    variant="soft",
                    color_scheme="gray",
                ),
                wrap="wrap",
            ),
            color_scheme="orange",
            role="alert",
            id="hint-confirm",
            width="100%",
            style={"max_width": "40em"},
        ),
    )


def hints_panel() -> rx.Component:
    """The rule reminder for everyone, then the viewer's own Dicas (a seated player at a table
    with Dicas on, while the round is in play)."""
    hints = UI.hints
    mine = UI.hints_on & UI.is_player & ~UI.i_am_out
    # nothing at all (not even the gap of an empty line) at a table with neither
    return rx.cond(  # type: ignore[no-any-return]
        UI.hints_on | UI.house.contains("discard_only_to_go_out"),
        _panel(mine, hints),
    )


def _panel(mine: Any, hints: Any) -> rx.Component:
    """The live region: the rule reminder, then this player's Dicas."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.cond(
            UI.can_draw & UI.house.contains("discard_only_to_go_out"),
            rx.text(T["rules.note.discard_only"], size="2", id="rule-note", style={"opacity": "0.9"}),
        ),
        rx.cond(
            mine,
            rx.vstack(
                _confirm(),
                rx.cond(
                    hints.wait_any | (hints.wait.length() > 0) | (hints.tip != ""),
                    rx.vstack(
                        _wait(),
                        rx.cond(
                            hints.tip != "",
                            rx.text(
                                rx.text(T["hints.title"], ": ", weight="bold", as_="span"),
                                T[hints.tip],
                                size="2",
                                id="hint-tip",
                            ),
                        ),
                        spacing="1",
                        style=HINT_STYLE,
                    ),
                ),
                spacing="2",
                align="center",
                width="100%",
            ),
        ),
        aria_live="polite",
        id="hints",
        spacing="2",
        align="center",
        width="100%",
    )
