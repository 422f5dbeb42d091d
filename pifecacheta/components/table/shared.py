"""What several parts of the table page read: the viewer's ``TableUi``, the catalog, the
card selected in the browser, the common styles and a few small pieces (badge, NOVA MESA)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import reflex as rx

from pifecacheta.components.reflex_private import client_state_var
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState

UI = TableState.ui
T = ViewerState.t
# The card tapped in the hand, waiting for a tap on the discard pile: kept in the browser
# (React state shared by the hand, the pile and the status line), sent to the server only with
# the tap on the pile (TableState.pile_click). A tap on a card is instant, and a double-click's
# two clicks send nothing ahead of the discard.
SELECTED = client_state_var("pfc_selected", default="")
# The message_serial of the refusal the viewer dismissed by tapping a card (browser only): a
# tap is the viewer acting again, so the refusal goes at once, without a round trip.
DISMISSED = client_state_var("pfc_dismissed", default=-1)


def fill_in(text: Any, placeholder: str, value: Any) -> Any:
    """``text`` (a string Var) with every ``placeholder`` replaced by ``value``, client side.

    Split and joined, not ``replaceAll``: JavaScript's string replacement gives ``$&``, ``$'``,
    ``$``` and ``$1`` a meaning, and a player's name may hold them ("R$ $& fim")."""
    return text.split(placeholder).join(value)


def fill_all(text: Any, pairs: Sequence[tuple[str, Any]]) -> Any:
    """``text`` (a string Var) with each placeholder of ``pairs`` (``(placeholder, value)``)
    replaced by its value in ONE pass, client side: a value is never searched for the
    placeholders, so a name that holds "{other}" or "{card}" is shown as it is written.

    The first pair splits ``text``; each piece is filled with the other pairs before the pieces
    are joined with the first value (:func:`fill_in`'s split and join, nested)."""
    (placeholder, value), rest = pairs[0], pairs[1:]
    if not rest:
        return fill_in(text, placeholder, value)
    return text.split(placeholder).map(lambda piece: fill_all(piece.to(str), rest)).join(value)


def round_title(key: str, match_key: str, round_number: Any, match_number: Any) -> Any:
    """A dialog's title about one round (REVER A RODADA, VERIFICAR): the catalog text ``key``
    with ``{n}`` = ``round_number``, or ``match_key`` with ``{m}`` = ``match_number`` too when
    the round belongs to a match before the last REVANCHE (``match_number`` > 0); both ints
    Vars, filled client side (:func:`fill_all`)."""
    n = round_number.to_string()
    return rx.cond(
        match_number > 0,
        fill_all(T[match_key], [("{m}", match_number.to_string()), ("{n}", n)]),
        fill_in(T[key], "{n}", n),
    )


def fill(key: Any, name: Any) -> Any:
    """The catalog text of ``key`` (a key, or a string Var holding one) with ``{name}`` filled
    in (client side, :func:`fill_in`): a string Var."""
    return fill_in(T[key], "{name}", name)


# A player's name on one line, cut with "…" when it does not fit (a 24-letter name without
# spaces must not push a 390 px phone screen sideways); ``min_width: 0`` lets a flex row shrink it.
NAME_STYLE: dict[str, str] = {
    "white_space": "nowrap",
    "overflow": "hidden",
    "text_overflow": "ellipsis",
    "min_width": "0",
}
# Free text (chat lines, sentences holding a name): breaks anywhere rather than overflow.
WRAP_STYLE: dict[str, str] = {"overflow_wrap": "anywhere", "word_break": "break-word", "min_width": "0"}


def new_table_link() -> rx.Component:
    """NOVA MESA: the way back to the lobby to create a table of one's own (a closed or missing
    table, a spectator or a match without rematch at the end)."""
    return rx.link(T["btn.new_table"], href="/", color_scheme="amber")  # type: ignore[no-any-return]


def round_button(label: Any, on_click: Any, class_name: str, button_id: str | None = None) -> rx.Component:
    """A button about one finished round (REVER A RODADA, VERIFICAR): soft amber, its
    ``class_name`` everywhere and ``button_id`` where it is unique on the page."""
    props: dict[str, Any] = {} if button_id is None else {"id": button_id}
    return rx.button(  # type: ignore[no-any-return]
        label, on_click=on_click, variant="soft", color_scheme="amber", class_name=class_name, **props
    )


def badge(text: Any, colour: str, **props: Any) -> rx.Component:
    """A small solid badge (TU, VEZ, NA BOA, FORA, ...) in the Radix colour ``colour``."""
    return rx.badge(text, color_scheme=colour, variant="solid", size="1", **props)  # type: ignore[no-any-return]


def lives_word(lives: Any) -> Any:
    """The word after a number of lives: "vida" for 1, else "vidas" (pt and es), client side."""
    return rx.cond(lives == 1, T["table.life"], T["table.lives"])
