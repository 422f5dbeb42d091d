"""House rules and Dicas: the lobby's folded section, and "Regras desta mesa" for everyone.

The lobby lists, under the game choice, a native ``<details>`` section "Regras da casa" (its
``<summary>`` opens it with Enter or Space and says to a screen reader whether it is open)
with one checkbox per house rule that fits the chosen game (``LobbyState.house_offered``;
seed 000 "Variações" and lines 33-38), each with one line saying what it changes, and the
Dicas checkbox; all start off. The table shows what was chosen to all, from ``TableUi.house``
and ``TableUi.hints_on``: in the waiting room (which is also what the invite link opens), the
pause menu and the table's top line.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.my_tables import FOCUS_RING
from pifecacheta.state.lobby import LobbyState
from pifecacheta.state.viewer import ViewerState

T = ViewerState.t
# The lobby's choices as untyped Vars (Reflex 0.10.1 types state fields as their Python type)
HOUSE: Any = LobbyState.house
APPLIES: Any = LobbyState.house_applies  # the ticked ones the chosen game offers: the count
SET_HOUSE: Any = LobbyState.set_house
CHECK_STYLE: dict[str, object] = {"flex_shrink": "0", "margin_top": "0.2em", **FOCUS_RING}


def _option(box_id: Any, label: Any, hint: Any, checked: Any, on_change: Any) -> rx.Component:
    """A checkbox with its name (a ``<label>`` tied to it) and its one-line effect, read by a
    screen reader as the checkbox's description."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.checkbox(
            id=box_id,
            checked=checked,
            on_change=on_change,
            color_scheme="amber",
            size="2",
            aria_describedby=box_id + "-hint",
            style=CHECK_STYLE,
        ),
        rx.vstack(
            rx.el.label(label, html_for=box_id, style={"font_weight": "bold", "cursor": "pointer"}),
            rx.text(hint, id=box_id + "-hint", size="2", style={"opacity": "0.85"}),
            spacing="0",
            align="start",
        ),
        align="start",
        spacing="2",
        class_name="house-option",
        width="100%",
    )


def _house_option(name: Any) -> rx.Component:
    """One house rule of the lobby's list (``name`` a field of ``Rules``)."""
    return _option(
        "house-" + name,
        T["house." + name],
        T["house." + name + ".hint"],
        HOUSE.contains(name),
        lambda on: SET_HOUSE(name, on),
    )


def lobby_house_rules() -> rx.Component:
    """The folded "Regras da casa" section and the Dicas checkbox, for the create card."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.el.details(
            rx.el.summary(
                T["lobby.house_title"],
                rx.cond(APPLIES.length() > 0, rx.text(" (", APPLIES.length(), ")", as_="span")),
                id="house-summary",
                style={"cursor": "pointer", "font_weight": "bold", "padding": "0.3em 0", **FOCUS_RING},
            ),
            rx.vstack(
                rx.text(T["lobby.house_intro"], size="2", style={"opacity": "0.85"}),
                rx.foreach(LobbyState.house_offered, _house_option),
                spacing="2",
                padding="0.4em 0 0.2em 0.2em",
                width="100%",
            ),
            id="house-rules",
            style={"width": "100%"},
        ),
        _option(
            "house-hints",
            T["lobby.hints_label"],
            T["lobby.hints_hint"],
            LobbyState.hints,
            LobbyState.set_hints,
        ),
        spacing="2",
        width="100%",
    )


def table_house_rules(ui: Any, *, compact: bool = False) -> rx.Component:
    """ "Regras desta mesa" from ``ui`` (a ``TableUi`` var): each house rule on, and Dicas.

    ``compact``: one line for the table's top line (names only, shown only when the table
    has a house rule or Dicas); else the names with their effect, or "sem regras da casa".
    """
    names = rx.foreach(
        ui.house,
        lambda name: rx.badge(
            T["house." + name], variant="soft", color_scheme="amber", class_name="house-name"
        ),
    )
    if compact:
        return rx.cond(  # type: ignore[no-any-return]
            (ui.house.length() > 0) | ui.hints_on,
            rx.flex(
                rx.text(T["table.house_title"], ":", weight="bold", as_="span"),
                names,
                rx.cond(ui.hints_on, rx.badge(T["table.hints_on"], variant="soft", color_scheme="green")),
                wrap="wrap",
                align="center",
                gap="0.3em 0.5em",
                id="house-line",
                style={"font_size": "0.85em", "opacity": "0.9", "width": "100%"},
            ),
        )
    return rx.vstack(  # type: ignore[no-any-return]
        rx.text(T["table.house_title"], weight="bold", size="2"),
        rx.cond(
            ui.house.length() > 0,
            rx.el.ul(
                rx.foreach(
                    ui.house,
                    lambda name: rx.el.li(
                        rx.text(T["house." + name], weight="bold", as_="span", class_name="house-name"),
                        ": ",
                        T["house." + name + ".hint"],
                    ),
                ),
                style={"margin": "0", "padding_left": "1.2em", "font_size": "0.9em"},
            ),
            rx.text(T["table.house_none"], size="2", style={"opacity": "0.85"}),
        ),
        rx.cond(ui.hints_on, rx.text(T["table.hints_on"], size="2", weight="bold", id="hints-on")),
        spacing="1",
        id="table-house-rules",
        width="100%",
    )
