"""What the viewer can do now: the status line and the buttons COMPRAR, PEGAR, BATER, NA BOA."""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.focus import DRAWN_CARD, HAND_STOP, ROUND_TITLE, card_in_hand, want_focus
from pifecacheta.components.table.shared import SELECTED, UI, T, fill
from pifecacheta.components.table.shortcuts import key_of, shortcut_list
from pifecacheta.state.table import TableState


def _by_pointer(key: str) -> rx.Component:
    """The catalog text ``key`` in a touch screen's words ("toque") and ``key + "_mouse"`` in a
    mouse's ("clique"): ``assets/table.css`` shows one by the device's pointer (``.pfc-touch``,
    ``.pfc-mouse``); the hidden one is ``display: none``, so a screen reader hears one."""
    return rx.fragment(  # type: ignore[no-any-return]
        rx.el.span(T[key], class_name="pfc-touch"),
        rx.el.span(T[key + "_mouse"], class_name="pfc-mouse"),
    )


def _discard_hint() -> rx.Component:
    """How to discard, and "Ou toque em BATER" only while BATER is enabled (``can_go_out``)."""
    return rx.cond(UI.can_go_out, _by_pointer("turn.discard_or_go_out"), _by_pointer("turn.discard"))  # type: ignore[no-any-return]


def status_line() -> rx.Component:
    """Whose turn it is and what to do (``#status-line``): spectator, out, draw, discard, wait;
    the hints to draw and to discard in a touch screen's or a mouse's words."""
    text = rx.cond(
        ~UI.is_player,
        T["turn.spectator"],
        rx.cond(
            UI.i_am_out,
            T["turn.out"],
            rx.cond(
                UI.can_draw,
                # the lixo named only when PEGAR DO LIXO is enabled: not while it is empty (a
                # round's first turn) nor under "Lixo só para bater" without a go-out
                rx.cond(UI.can_take, _by_pointer("turn.draw"), _by_pointer("turn.draw_stock")),
                rx.cond(
                    UI.can_discard,
                    rx.cond(SELECTED.value != "", _by_pointer("turn.selected"), _discard_hint()),
                    fill("turn.other", UI.turn_name),
                ),
            ),
        ),
    )
    cell = {"grid_area": "1 / 1", "text_align": "center", "min_height": "1.5em"}
    # Selecting a card swaps the discard hint for a shorter one; the hand below must not move
    # up meanwhile (on a phone the second tap of a double tap would land on the card under
    # it). An invisible copy of the longer hint shares the grid cell, so the line keeps its
    # height for the whole discard phase.
    sizer = rx.text(
        rx.cond(UI.can_discard, _discard_hint(), rx.fragment()),
        size="3",
        weight="medium",
        aria_hidden="true",
        style={**cell, "visibility": "hidden"},
    )
    line = rx.text(text, size="3", weight="medium", id="status-line", role="status", style=cell)
    return rx.box(sizer, line, style={"display": "grid", "width": "100%"})  # type: ignore[no-any-return]


def actions() -> rx.Component:
    """COMPRAR, PEGAR DO LIXO, BATER, and NA BOA when the hand is one card away."""
    return rx.flex(  # type: ignore[no-any-return]
        rx.button(
            T["btn.draw"],
            on_click=[TableState.draw(UI.version), want_focus(DRAWN_CARD)],  # type: ignore[operator]
            disabled=~UI.can_draw,
            aria_keyshortcuts=key_of("draw"),
            color_scheme="amber",
            size="3",
        ),
        rx.button(
            T["btn.take"],
            on_click=[TableState.take(UI.version), want_focus(card_in_hand(UI.discard_top.id))],  # type: ignore[operator]
            disabled=~UI.can_take,
            aria_keyshortcuts=key_of("take"),
            color_scheme="amber",
            size="3",
        ),
        rx.button(
            T["btn.go_out"],
            on_click=[TableState.go_out(UI.version), want_focus(ROUND_TITLE)],  # type: ignore[operator]
            disabled=~UI.can_go_out,  # enabled only when the hand can go out now
            aria_keyshortcuts=key_of("go_out"),
            color_scheme="green",
            size="3",
        ),
        rx.cond(
            UI.can_announce,
            rx.button(
                T["btn.announce"],
                on_click=[TableState.announce(UI.version), want_focus(HAND_STOP)],  # type: ignore[operator]
                color_scheme="orange",
                size="3",
            ),
        ),
        shortcut_list(),  # the letters of COMPRAR, PEGAR DO LIXO, BATER (shortcuts.py), on a line of its own
        gap="0.5em",
        wrap="wrap",
        justify="center",
    )
