"""The card that follows the finger in a touch drag of the hand (the touch fallback of a drag,
``components/table/hand.py``: a finger moved from the lifted card swaps it or discards it).

While a finger moves the lifted (selected) card, or any card in the discard phase, a copy of
its face floats under the finger (``#touch-ghost``, fixed to the screen, ``assets/room.css``:
``.pfc-ghost``); it goes when the finger lifts or the touch is cancelled. All of it lives in
the browser (React state: :func:`~pifecacheta.components.reflex_private.client_state_var`),
nothing is sent to the server, and it shows only the viewer's own card. Hidden from screen
readers (decoration: the drop's result is what they hear)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ArrayVar, ObjectVar
from reflex_base.vars.function import FunctionStringVar

from pifecacheta.components.cards import card_face
from pifecacheta.components.reflex_private import client_state_var
from pifecacheta.state.ui_values import CardUi

# The id of the hand card a finger is dragging ("" when none) and where the finger is (CSS px
# from the viewport's top left corner). Browser only.
GHOST = client_state_var("pfc_ghost", default="")
GHOST_X = client_state_var("pfc_ghost_x", default=0)
GHOST_Y = client_state_var("pfc_ghost_y", default=0)

_TOUCH_X: FunctionStringVar[Any] = FunctionStringVar.create(
    "((ev) => { const t = ev.touches && ev.touches[0]; return t ? Math.round(t.clientX) : 0; })"
)
_TOUCH_Y: FunctionStringVar[Any] = FunctionStringVar.create(
    "((ev) => { const t = ev.touches && ev.touches[0]; return t ? Math.round(t.clientY) : 0; })"
)
_FIND: FunctionStringVar[Any] = FunctionStringVar.create(
    "((hand, id) => hand.find((c) => c.id === id) || {id: '', code: '', rank: '', suit: ''})"
)


def touch_move_spec(e: ObjectVar[Any]) -> tuple[rx.Var[int], rx.Var[int]]:
    """The event spec of ``on_touch_move``: where the finger is now (x, y in CSS px)."""
    return (_TOUCH_X.call(e).to(int), _TOUCH_Y.call(e).to(int))


def follow_finger(card: ObjectVar[CardUi], selected: rx.Var[bool]) -> Any:
    """The ``on_touch_move`` handler of a hand card: while ``card`` can be dragged
    (``selected``: it is lifted, or it is the discard phase), its copy goes where the finger
    is; a finger moving another card scrolls the page, and shows nothing."""

    def handler(x: rx.Var[int], y: rx.Var[int]) -> list[Any]:
        return [
            GHOST_X.set_value(x),
            GHOST_Y.set_value(y),
            GHOST.set_value(rx.cond(selected, card.id, "")),
        ]

    return handler


def drop_ghost() -> Any:
    """The event that takes the copy away (the finger lifted, the touch cancelled)."""
    return GHOST.set_value("")


def touch_ghost(hand: ArrayVar[list[CardUi]]) -> rx.Component:
    """The floating copy of the dragged card of ``hand`` (the cards as shown), under the finger."""
    card: Any = _FIND.call(hand, GHOST.value).to(CardUi)
    return rx.cond(  # type: ignore[no-any-return]
        GHOST.value != "",
        rx.box(
            card_face(card, size="md"),
            id="touch-ghost",
            class_name="pfc-ghost",
            aria_hidden="true",
            custom_attrs={"data-ghost": card.id},
            style={
                "left": GHOST_X.value.to_string() + "px",
                "top": GHOST_Y.value.to_string() + "px",
            },
        ),
    )
