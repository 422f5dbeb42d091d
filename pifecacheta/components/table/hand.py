"""The viewer's hand: its cards (tap to select, double tap or drag to discard; by keyboard,
Enter / Space to select, Enter again to discard, the arrows to move) and the sort toggle."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import NumberVar, ObjectVar

from pifecacheta.components.cards import card_face, card_name
from pifecacheta.components.keys import focus_element, on_keys
from pifecacheta.components.reflex_private import DnDDiv, client_state_var
from pifecacheta.components.table.shared import DISMISSED, SELECTED, UI, T
from pifecacheta.components.table.shortcuts import shortcut_letters
from pifecacheta.state.table import TableState
from pifecacheta.state.view_model import CardUi
from pifecacheta.state.viewer import ViewerState

# the card just drawn: a green ring and glow (the "nova" tag is :func:`drawn_mark`)
DRAWN_GLOW = "0 0 0 3px #2ecc71, 0 0 14px 5px rgba(95,255,150,0.7)"

# The position in the hand of the card that holds the hand's one Tab stop (a roving tabindex:
# Tab enters the hand on the card last focused, the arrows move within it). Browser only.
HAND_FOCUS = client_state_var("pfc_hand_focus", default=0)


def slot_id(i: NumberVar[Any] | int) -> rx.Var[str]:
    """The DOM id of the card box at position ``i`` of the hand (``hand-pos-3``)."""
    return rx.Var.create("hand-pos-") + rx.Var.create(i).to_string()


def _card_keys(card: ObjectVar[CardUi], i: NumberVar[int], count: NumberVar[int]) -> object:
    """The keys of a hand card: Enter and Space select it (or unselect it), Enter on the
    selected card discards it (as a double tap); the arrows, Home and End move the focus."""
    selected = SELECTED.value == card.id
    toggle = [
        SELECTED.set_value(rx.cond(selected, "", card.id)),
        DISMISSED.set_value(TableState.message_serial),
    ]
    last = count - 1
    return on_keys(
        {
            "Enter": [
                (selected, TableState.card_double(card.id, UI.version)),  # type: ignore[operator]
                # the last card's box goes with it: the focus goes to the one before
                (selected & (i == last) & (i > 0), focus_element(slot_id(i - 1))),
                *toggle,
            ],
            " ": toggle,
            ("ArrowRight", "ArrowDown"): [focus_element(slot_id(rx.cond(i < last, i + 1, i)))],
            ("ArrowLeft", "ArrowUp"): [focus_element(slot_id(rx.cond(i > 0, i - 1, 0)))],
            "Home": [focus_element(slot_id(0))],
            "End": [focus_element(slot_id(last))],
        },
        shortcut_letters(),  # C / L / B (pt), R / P / C (es): COMPRAR, PEGAR DO LIXO, BATER
    )


def hand_card(card: ObjectVar[CardUi], i: NumberVar[int], count: NumberVar[int]) -> rx.Component:
    """The card at position ``i`` of a hand of ``count`` (a ``CardUi`` Var): a tap selects it
    (lifted), a double tap discards it; by keyboard, :func:`_card_keys`. A toggle button named
    by the card ("7 de copas"), pressed while selected.

    The handlers sit on a box that never moves; only the face inside it is lifted. If the
    element under the finger moved on the first tap, the second tap of a double tap (and the
    browser's dblclick) could land on the card below it and discard that one instead.
    """
    selected = SELECTED.value == card.id
    focused: NumberVar[Any] = HAND_FOCUS.value.to(int)
    face = card_face(
        card,
        size="md",
        id="card-" + card.id,  # type: ignore[operator]  # with data-card: the stable hooks of the tests
        style={
            "transform": rx.cond(selected, "translateY(-0.7em)", "none"),
            "outline": rx.cond(
                selected, "3px solid #ffd27f", rx.cond(card.taken, "2px solid #5fb3ff", "none")
            ),
            "transition": "transform 0.12s",
            "box_shadow": rx.cond(card.drawn, DRAWN_GLOW, "0 2px 4px rgba(0,0,0,0.35)"),
        },
    )
    return DnDDiv.create(  # type: ignore[no-any-return]
        face,
        drawn_mark(card),
        draggable=True,
        on_drag_start=TableState.drag_start(card.id),  # type: ignore[operator]
        # tap: select this card, or unselect it when it already is (browser only)
        on_click=[
            SELECTED.set_value(rx.cond(selected, "", card.id)),
            DISMISSED.set_value(TableState.message_serial),
        ],
        on_double_click=[
            SELECTED.set_value(""),
            TableState.card_double(card.id, UI.version),  # type: ignore[operator]
        ],
        on_key_down=_card_keys(card, i, count),
        on_focus=HAND_FOCUS.set_value(i),
        id=slot_id(i),
        role="button",
        aria_pressed=rx.cond(selected, "true", "false"),
        aria_label=card_name(card),  # "7 de copas, coringa" for a wild
        tab_index=rx.cond(i == rx.cond(focused < count, focused, count - 1), 0, -1),
        class_name="hand-card",
        style={"cursor": "pointer", "flex_shrink": "0", "border_radius": "0.4em", "position": "relative"},
    )


def drawn_mark(card: ObjectVar[CardUi]) -> rx.Component:
    """The mark on the card just drawn from the stock (``CardUi.drawn``, set only in the
    viewer's own hand until the discard): a small "nova" tag over the card's bottom edge (clear
    of the rank in the top corner), read
    after the card's name by screen readers, and a green glow around the card."""
    return rx.cond(  # type: ignore[no-any-return]
        card.drawn,
        rx.el.span(
            T["hand.drawn"],
            class_name="drawn-mark",
            style={
                "position": "absolute",
                "bottom": "-0.6em",
                "left": "50%",
                "transform": "translateX(-50%)",
                "background": "#1f9d55",
                "color": "white",
                "font_size": "0.6em",
                "font_weight": "700",
                "padding": "0 0.4em",
                "border_radius": "0.6em",
                "box_shadow": "0 0 0 2px #0b3d1e, 0 0 10px 3px rgba(95,255,150,0.75)",
                "pointer_events": "none",
                "white_space": "nowrap",
                "text_transform": "uppercase",
            },
        ),
    )


def _header() -> rx.Component:
    """The hand's title (Sua mão) and the toggle between sorting by suit and by rank."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(T["hand.title"], weight="bold", role="heading", aria_level=2),
        rx.spacer(),
        rx.button(
            rx.cond(ViewerState.by_rank, T["btn.sort_suit"], T["btn.sort_rank"]),
            on_click=ViewerState.toggle_sort,
            size="1",
            variant="soft",
            color_scheme="gray",
            id="sort-toggle",
        ),
        width="100%",
        align="center",
    )


def hand() -> rx.Component:
    """The viewer's hand (``#hand``), sorted as the viewer chose."""
    return rx.vstack(  # type: ignore[no-any-return]
        _header(),
        rx.flex(
            rx.cond(
                ViewerState.by_rank,
                rx.foreach(UI.hand_by_rank, lambda c, i: hand_card(c, i, UI.hand_by_rank.length())),
                rx.foreach(UI.hand_by_suit, lambda c, i: hand_card(c, i, UI.hand_by_suit.length())),
            ),
            wrap="wrap",
            justify="center",
            width="100%",
            id="hand",
            role="toolbar",  # one Tab stop, the arrows move between the cards
            aria_label=T["hand.title"],
            # rows further apart than the lift of a selected card (0.7em): a lifted card of the
            # second row does not cover the card above it
            style={"padding_top": "0.8em", "column_gap": "0.35em", "row_gap": "0.9em"},
        ),
        width="100%",
        spacing="1",
        style={
            "background": "rgba(0,0,0,0.22)",
            "border_radius": "0.8em",
            "padding": "0.5em 0.6em 0.8em",
            "font_size": rx.breakpoints(initial="16px", md="20px"),
        },
    )
