"""JOGOS / JUEGOS: the viewer's hand shown as the melds the game sees (``state/hand_groups.py``),
each group a box named for screen readers ("trinca de 7", "sequência de copas, 4 a 6"), the
loose cards last ("cartas soltas"). The cards inside are the hand's own (tap, double tap,
drag, keyboard: ``components/table/hand.py``), numbered across the groups, so the arrows go
from one group into the next."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.table.shared import T, fill_in
from pifecacheta.state.hand_groups import GroupUi
from pifecacheta.state.hand_order import HandOrderState


def group_label(group: ObjectVar[GroupUi]) -> rx.Var[str]:
    """The name of ``group`` in the viewer's language: "trinca de 7" / "trío de 7",
    "sequência de copas, 4 a 6" / "escalera de corazones, 4 a 6", "cartas soltas"."""
    run = fill_in(T["hand.group_run"], "{suit}", T["suit." + group.suit])  # type: ignore[operator]
    run = fill_in(fill_in(run, "{low}", T["rank." + group.low]), "{high}", T["rank." + group.high])  # type: ignore[operator]
    return rx.match(  # type: ignore[no-any-return]
        group.kind,
        ("set", fill_in(T["hand.group_set"], "{rank}", T["rank." + group.rank])),  # type: ignore[operator]
        ("run", run),
        T["hand.group_loose"],
    ).to(str)


def hand_group(group: ObjectVar[GroupUi], card: Callable[..., rx.Component], count: Any) -> rx.Component:
    """One group of the hand: its name over its cards, each drawn by ``card(c, i, count)``
    (``hand_card``) with ``i`` its place in the whole hand as shown."""
    label = group_label(group)
    return rx.box(  # type: ignore[no-any-return]
        rx.el.span(label, class_name="hand-group-label", aria_hidden="true"),
        rx.box(
            rx.foreach(group.cards, lambda c, j: card(c, group.start + j, count)),
            class_name="hand-group-cards",
        ),
        role="group",
        aria_label=label,
        class_name="hand-group",
        custom_attrs={"data-kind": group.kind},
    )


def groups_button() -> rx.Component:
    """JOGOS / JUEGOS beside POR NAIPE and POR VALOR: pressed (solid, ``aria-pressed``) while
    the hand shows as its melds; pressed again, the hand goes back to how it was."""
    on = HandOrderState.grouped != ""
    return rx.button(  # type: ignore[no-any-return]
        T["btn.sort_groups"],
        on_click=HandOrderState.toggle_groups,
        size="1",
        variant=rx.cond(on, "solid", "soft"),
        color_scheme=rx.cond(on, "amber", "gray"),
        aria_pressed=rx.cond(on, "true", "false"),
        id="sort-groups",
    )
