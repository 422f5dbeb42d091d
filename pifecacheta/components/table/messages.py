"""Refusals on the table page: the floating callout (the chat box shows the chat's own,
``TableState.message_in_chat``).

A refusal (``TableState.message``, a catalog key) stays until the viewer dismisses it (a tap
on it, its × button, Escape on it or on the hand, the stock or the lixo) or acts again (a tap
on a card; any accepted action clears it on the server): no timer takes it away before it is
read (WCAG 2.2.1).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.common import toast_style
from pifecacheta.components.keys import on_keys
from pifecacheta.components.reflex_private import KeyDiv
from pifecacheta.components.table.shared import DISMISSED, T
from pifecacheta.state.table import TableState


def message_style(**extra: Any) -> dict[str, Any]:
    """Style of a refusal callout: ``extra`` (no fade: a refusal stays until dismissed)."""
    return dict(extra)


def _close() -> rx.Component:
    """The × that dismisses the refusal, named for a screen reader ("Fechar o aviso")."""
    return rx.icon_button(  # type: ignore[no-any-return]
        rx.icon("x", size=14),
        on_click=TableState.clear_message(TableState.message_serial),  # type: ignore[operator]
        size="1",
        variant="ghost",
        color_scheme="red",
        aria_label=T["msg.close"],
        id="message-close",
        style={"position": "absolute", "top": "0.35em", "right": "0.35em"},
    )


def message_callout() -> rx.Component:
    """The viewer's last refusal (``TableState.message``, translated), except the chat's own
    (shown in the chat box). Used by the waiting room (a refused SENTAR À MESA: bad name, no seat
    left) and by the table; only one of them is on the page, so ``#message`` stays unique.

    It floats over the top of the page (fixed, like a toast) instead of taking room above the
    hand, so a refusal appearing or dismissed by a tap never moves the hand under the
    second tap of a double tap."""
    clear = TableState.clear_message(TableState.message_serial)  # type: ignore[operator]
    return rx.cond(  # type: ignore[no-any-return]
        (TableState.message != "")
        & ~TableState.message_in_chat
        & (DISMISSED.value != TableState.message_serial),
        KeyDiv.create(
            rx.callout(
                T[TableState.message],
                color_scheme="red",
                role="alert",
                id="message",
                key=TableState.message_serial,  # a new refusal: a new element
                on_click=clear,
                style={"cursor": "pointer", "background_color": "var(--red-3)", "padding_right": "2.2em"},
            ),
            _close(),
            on_key_down=on_keys({"Escape": [clear]}),
            id="message-box",  # assets/table.css floats it over the status line on the table
            style=toast_style(
                top="3.8em",
                width="min(92vw, 34em)",
                z_index="60",
                border="1px solid var(--red-7)",
                border_radius="var(--radius-4)",
            ),
        ),
    )
