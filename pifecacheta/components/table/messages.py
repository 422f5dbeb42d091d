"""Refusals on the table page: the floating callout and its fade-out (the chat box shows the
chat's own, ``TableState.message_in_chat``).

A refusal (``TableState.message``, a catalog key) is shown until the viewer acts again, for
at most :data:`MESSAGE_SHOWN`, or :data:`MESSAGE_LINGER` once the table changed (its
``table_version`` moves on); then a CSS animation hides it, so it never keeps covering the
seats and the top buttons (no server timer: the browser runs it; each refusal is a new
element, so its timer starts afresh).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.common import toast_style
from pifecacheta.components.table.shared import DISMISSED, T
from pifecacheta.state.table import TableState

MESSAGE_SHOWN = "8s"
MESSAGE_LINGER = "3s"
# The animation that hides a refusal (the page puts it in a <style> element).
HIDE_KEYFRAMES = (
    "@keyframes pfc-hide {to {opacity: 0; visibility: hidden; height: 0; padding: 0; margin: 0; "
    "overflow: hidden; border: 0}}"
)


def message_style(**extra: Any) -> dict[str, Any]:
    """Style of a refusal callout: ``extra`` plus the fade-out after MESSAGE_SHOWN, or
    MESSAGE_LINGER after the table changed."""
    fresh = TableState.message_version == TableState.table_version
    delay = rx.cond(fresh, MESSAGE_SHOWN, MESSAGE_LINGER)
    return {**extra, "animation": "pfc-hide 0.3s ease " + delay + " forwards"}


def message_callout() -> rx.Component:
    """The viewer's last refusal (``TableState.message``, translated), except the chat's own
    (shown in the chat box). Used by the waiting room (a refused SENTAR À MESA: bad name, no seat
    left) and by the table; only one of them is on the page, so ``#message`` stays unique.

    It floats over the top of the page (fixed, like a toast) instead of taking room above the
    hand, so a refusal appearing, fading or dismissed by a tap never moves the hand under the
    second tap of a double tap."""
    return rx.cond(  # type: ignore[no-any-return]
        (TableState.message != "")
        & ~TableState.message_in_chat
        & (DISMISSED.value != TableState.message_serial),
        rx.callout(
            T[TableState.message],
            color_scheme="red",
            role="alert",
            id="message",
            key=TableState.message_serial,  # a new refusal: a new element, its fade timer anew
            on_click=TableState.clear_message(TableState.message_serial),  # type: ignore[operator]
            style=message_style(
                **toast_style(top="3.8em", width="min(92vw, 34em)", z_index="60"),
                cursor="pointer",
                background_color="var(--red-3)",
                border="1px solid var(--red-7)",
            ),
        ),
    )
