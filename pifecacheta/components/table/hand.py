"""The viewer's hand: its cards (tap to select, double tap or drag to discard; by keyboard,
Enter / Space to select, Enter again to discard, the arrows to move), the two sorts, JOGOS
(the hand as the melds the game sees: ``components/table/hand_groups.py``) and the viewer's
own arrangement (drag a card onto another, or Alt+Left / Alt+Right: ``state/hand_order.py``)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ArrayVar, NumberVar, ObjectVar, Var
from reflex_base.vars.function import FunctionStringVar

from pifecacheta.components.cards import card_face, card_name
from pifecacheta.components.keys import focus_element, on_keys
from pifecacheta.components.reflex_private import DnDDiv, client_state_var
from pifecacheta.components.table.hand_groups import groups_button, hand_group
from pifecacheta.components.table.shared import DISMISSED, SELECTED, UI, T
from pifecacheta.components.table.shortcuts import dismiss_refusal, shortcut_letters
from pifecacheta.components.table.touch_ghost import drop_ghost, follow_finger, touch_ghost, touch_move_spec
from pifecacheta.state.hand_groups import HandGroupsState
from pifecacheta.state.hand_order import HandOrderState
from pifecacheta.state.table import TableState
from pifecacheta.state.ui_values import CardUi
from pifecacheta.state.viewer import ViewerState

# the card just drawn: a green ring and glow (the "nova" tag is :func:`drawn_mark`)
DRAWN_GLOW = "0 0 0 3px #2ecc71, 0 0 14px 5px rgba(95,255,150,0.7)"

# The position in the hand of the card that holds the hand's one Tab stop (a roving tabindex:
# Tab enters the hand on the card last focused, the arrows move within it). Browser only.
HAND_FOCUS = client_state_var("pfc_hand_focus", default=0)
# The id of the hand card being dragged (browser only): a drop on another card moves it there.
DRAGGED = client_state_var("pfc_dragged", default="")

# The hand in the viewer's arrangement: the arranged ids first, in their order, then the others
# (the card just drawn) in the chosen sort.
_ARRANGE: FunctionStringVar[Any] = FunctionStringVar.create(
    "((hand, order) => { const pos = new Map(order.map((id, i) => [id, i])); "
    "const at = (c, i) => pos.has(c.id) ? pos.get(c.id) : order.length + i; "
    "return hand.map((c, i) => [at(c, i), c]).sort((a, b) => a[0] - b[0]).map((p) => p[1]); })"
)
_IDS: FunctionStringVar[Any] = FunctionStringVar.create("((hand) => hand.map((c) => c.id))")
# The hand shown as its melds: the groups' cards one after the other.
_FLAT: FunctionStringVar[Any] = FunctionStringVar.create("((groups) => groups.flatMap((g) => g.cards))")


def order_key() -> rx.Var[str]:
    """The table and round an arrangement is for: "<code>:<round>" (``state/hand_order.py``)."""
    return UI.code + ":" + UI.round_number.to_string()  # type: ignore[operator, no-any-return]


def arranged() -> rx.Var[bool]:
    """True while the viewer's own arrangement of this round's hand applies (no sort pressed)."""
    return (HandOrderState.order_key == order_key()) & (HandOrderState.order.length() > 0)


def grouped() -> rx.Var[bool]:
    """True while the hand shows as its melds (JOGOS on, and the groups have come)."""
    return (HandOrderState.grouped != "") & (HandGroupsState.groups.length() > 0)


def shown_hand() -> ArrayVar[list[CardUi]]:
    """The viewer's cards in the order the page shows them: its melds (JOGOS), else its
    arrangement, else the sort."""
    base = rx.cond(ViewerState.by_rank, UI.hand_by_rank, UI.hand_by_suit)
    mine = _ARRANGE.call(base, HandOrderState.order)
    flat = _FLAT.call(HandGroupsState.groups)
    return rx.cond(grouped(), flat, rx.cond(arranged(), mine, base)).to(list[CardUi])  # type: ignore[no-any-return]


def shown_ids() -> rx.Var[list[str]]:
    """The ids of :func:`shown_hand`, left to right (sent with a move of a card)."""
    return _IDS.call(shown_hand()).to(list[str])


# Where a finger lifted off a hand card (browser only): "pile" over the lixo, a hand card's
# id over that card, else "" (the touch fallback of a drag: HTML5 drag events come from a
# mouse only).
_TOUCH_TARGET: FunctionStringVar[Any] = FunctionStringVar.create(
    "((ev) => { const t = ev.changedTouches && ev.changedTouches[0]; if (!t) return ''; "
    "const el = document.elementFromPoint(t.clientX, t.clientY); if (!el) return ''; "
    "if (el.closest('[data-testid=discard]')) return 'pile'; "
    "const c = el.closest('#hand [data-card]'); return c ? c.id.slice(5) : ''; })"
)


def _touch_spec(e: ObjectVar[Any]) -> tuple[rx.Var[str]]:
    return (_TOUCH_TARGET.call(e).to(str),)


class HandCardDiv(DnDDiv):
    """A hand card's box: a :class:`DnDDiv` with ``on_touch_end``, whose handler gets where
    the finger lifted (``_TOUCH_TARGET``: "pile", a hand card's id, or ""), ``on_touch_move``
    (where the finger is: ``touch_ghost.touch_move_spec``) and ``on_touch_cancel``."""

    on_touch_end: rx.EventHandler[_touch_spec]  # type: ignore[type-arg, valid-type]
    on_touch_move: rx.EventHandler[touch_move_spec]  # type: ignore[type-arg, valid-type]
    on_touch_cancel: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]


def _touch_drop(card: ObjectVar[CardUi]) -> Any:
    """The touch fallback of a drag (issue 11, defect 5): the selected (lifted) card, pressed
    and moved by a finger, is discarded when lifted over the lixo (as a double tap: the
    server refuses what it would refuse) or takes the place of the hand card it is lifted
    over. A tap, lifted where it started, does nothing more than a tap."""

    def handler(target: rx.Var[str]) -> list[Any]:
        other = (target != "") & (target != "pile") & (target != card.id)
        return [
            drop_ghost(),  # the copy under the finger goes (components/table/touch_ghost.py)
            SELECTED.set_value(rx.cond(target == "pile", "", SELECTED.value)),
            rx.cond(target == "pile", TableState.card_double(card.id, UI.version), rx.noop()),  # type: ignore[operator]
            rx.cond(other, HandOrderState.drop(card.id, target, shown_ids(), order_key()), rx.noop()),  # type: ignore[operator]
        ]

    return handler


def slot_id(i: NumberVar[Any] | int) -> rx.Var[str]:
    """The DOM id of the card box at position ``i`` of the hand (``hand-pos-3``)."""
    return rx.Var.create("hand-pos-") + rx.Var.create(i).to_string()


def _card_keys(card: ObjectVar[CardUi], i: NumberVar[int], count: NumberVar[int]) -> object:
    """The keys of a hand card: Enter and Space select it (or unselect it), Enter on the
    selected card discards it (as a double tap); the arrows, Home and End move the focus;
    Escape dismisses the refusal on screen and unselects the card."""
    selected = SELECTED.value == card.id
    toggle = [
        SELECTED.set_value(rx.cond(selected, "", card.id)),
        DISMISSED.set_value(TableState.message_serial),
    ]
    last = count - 1
    left, right = rx.cond(i > 0, i - 1, 0), rx.cond(i < last, i + 1, i)
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
            "Escape": [*dismiss_refusal(), SELECTED.set_value("")],  # and no card selected
        },
        shortcut_letters(),  # C / L / B (pt), R / P / C (es): COMPRAR, PEGAR DO LIXO, BATER
        # Alt+arrows move the card itself one place, and the focus goes with it
        alt={
            ("ArrowLeft", "ArrowUp"): [
                HandOrderState.nudge(card.id, -1, shown_ids(), order_key()),  # type: ignore[operator]
                focus_element(slot_id(left)),
            ],
            ("ArrowRight", "ArrowDown"): [
                HandOrderState.nudge(card.id, 1, shown_ids(), order_key()),  # type: ignore[operator]
                focus_element(slot_id(right)),
            ],
        },
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
    return HandCardDiv.create(  # type: ignore[no-any-return]
        face,
        drawn_mark(card),
        draggable=True,
        on_drag_start=[DRAGGED.set_value(card.id), TableState.drag_start(card.id)],  # type: ignore[operator]
        # a hand card dropped on this one takes its place (the viewer's arrangement)
        on_drag_over=rx.prevent_default,
        on_drop=[
            HandOrderState.drop(DRAGGED.value, card.id, shown_ids(), order_key()).prevent_default,  # type: ignore[operator]
            DRAGGED.set_value(""),
        ],
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
        on_touch_end=_touch_drop(card),
        # the dragged card's copy under the finger: a lifted card, or any in the discard phase
        on_touch_move=follow_finger(card, selected | UI.can_discard),
        on_touch_cancel=drop_ghost(),
        on_focus=HAND_FOCUS.set_value(i),
        id=slot_id(i),
        role="button",
        aria_pressed=rx.cond(selected, "true", "false"),
        aria_label=hand_card_name(card),  # "7 de copas, coringa, nova"
        tab_index=rx.cond(i == rx.cond(focused < count, focused, count - 1), 0, -1),
        # styled by class (assets/room.css, "a card of the hand"): the hand renders again at
        # each move, and a style prop costs an Emotion component per card; the lifted card
        # (aria-pressed), and every card in the discard phase, follows no scroll: a finger
        # moving it is a drag (_touch_drop)
        class_name="hand-card",
    )


def hand_card_name(card: ObjectVar[CardUi]) -> Var[str]:
    """The spoken name of a card of the viewer's hand: :func:`card_name` ("7 de copas,
    coringa"), then what its marks show: ", nova" for the card just drawn (``drawn_mark``) and,
    for the card taken from the lixo and its twin (the blue ring), ", não pode ser descartada
    nesta vez" (seed 000 line 54)."""
    drawn = rx.cond(card.drawn, ", " + T["hand.drawn"], "").to(str)
    taken = rx.cond(card.taken, ", " + T["hand.taken_note"], "").to(str)
    name: Var[str] = card_name(card) + drawn + taken
    return name


def drawn_mark(card: ObjectVar[CardUi]) -> rx.Component:
    """The mark on the card just drawn from the stock (``CardUi.drawn``, set only in the
    viewer's own hand until the discard): a small "nova" tag over the card's bottom edge (clear
    of the rank in the top corner; in JOGOS, on the strip of the card the next one leaves
    uncovered: ``assets/room.css``), and a green glow around the card; a screen reader hears
    "nova" in the card's name (:func:`hand_card_name`)."""
    return rx.cond(card.drawn, rx.el.span(T["hand.drawn"], class_name="drawn-mark"))  # type: ignore[no-any-return]


def _sort_button(label_key: str, rank: bool, button_id: str) -> rx.Component:
    """POR NAIPE or POR VALOR: pressed (solid, ``aria-pressed``) while the hand shows that
    order; a press sorts the hand so and drops the viewer's own arrangement and JOGOS."""
    on = (ViewerState.by_rank == rank) & ~arranged() & (HandOrderState.grouped == "")
    return rx.button(  # type: ignore[no-any-return]
        T[label_key],
        on_click=HandOrderState.sort_by(rank),  # type: ignore[operator]
        size="1",
        variant=rx.cond(on, "solid", "soft"),
        color_scheme=rx.cond(on, "amber", "gray"),
        aria_pressed=rx.cond(on, "true", "false"),
        id=button_id,
    )


def _header() -> rx.Component:
    """The hand's title (Sua mão) and the orders, "Ordenar: POR NAIPE | POR VALOR | JOGOS",
    the one in use pressed (no sort while the viewer's own arrangement shows). All are always
    there, so the button's word is never the order the hand is not in. On a phone the word
    "Ordenar" is left out (the group keeps it as its name) and the buttons may go under the
    title."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(
            T["hand.title"], weight="bold", role="heading", aria_level=2, style={"white_space": "nowrap"}
        ),
        rx.spacer(),
        # how to arrange the hand, on a wide screen (a phone's status line says how to play)
        rx.text(
            T["hand.arrange_hint"],
            size="1",
            id="arrange-hint",
            display=rx.breakpoints(initial="none", md="block"),
            style={"opacity": "0.8"},
        ),
        rx.hstack(
            rx.text(
                T["hand.sort"],
                size="1",
                style={"opacity": "0.85"},
                aria_hidden="true",
                display=rx.breakpoints(initial="none", sm="block"),
            ),
            _sort_button("btn.sort_suit", False, "sort-suit"),
            _sort_button("btn.sort_rank", True, "sort-rank"),
            groups_button(),
            spacing="1",
            align="center",
            role="group",
            aria_label=T["hand.sort"],
        ),
        width="100%",
        align="center",
        wrap="wrap",
        style={"row_gap": "0.3em"},
    )


def hand() -> rx.Component:
    """The viewer's hand (``#hand``), sorted, arranged or in its melds as the viewer chose."""
    cards = shown_hand()
    return rx.vstack(  # type: ignore[no-any-return]
        _header(),
        rx.flex(
            rx.cond(
                grouped(),
                rx.foreach(HandGroupsState.groups, lambda g: hand_group(g, hand_card, cards.length())),
                rx.foreach(cards, lambda c, i: hand_card(c, i, cards.length())),
            ),
            class_name=rx.cond(grouped(), "hand-grouped", ""),
            wrap="wrap",
            justify="center",
            width="100%",
            id="hand",
            role="toolbar",  # one Tab stop, the arrows move between the cards
            aria_label=T["hand.title"],
            # in the discard phase a finger on any card drags it (assets/room.css: no scroll)
            custom_attrs={"data-drag": rx.cond(UI.can_discard, "true", "false")},
            # rows further apart than the lift of a selected card (0.7em): a lifted card of the
            # second row does not cover the card above it
            style={"padding_top": "0.8em", "column_gap": "0.35em", "row_gap": "0.9em"},
        ),
        touch_ghost(cards),  # outside #hand: the dragged card's copy, under the finger
        width="100%",
        spacing="1",
        style={
            "background": "rgba(0,0,0,0.22)",
            "border_radius": "0.8em",
            "padding": "0.5em 0.6em 0.8em",
            # larger on a wide screen: ten cards in one row at 1366 px beside the history panel
            "font_size": rx.breakpoints(initial="16px", md="20px", lg="22px", xl="24px"),
        },
    )
