"""The table's assertive live region (WCAG 4.1.3): what a screen-reader player must hear at
once, for them alone.

- "Sua vez." / "Tu turno." when the viewer's turn begins (the status line, a polite
  ``role=status``, then says what to do);
- "Você comprou 7 de copas." / "Robaste 7 de corazones." once the card drawn from the stock
  is in the hand (it is the viewer's own card: the ``drawn`` flag travels in that viewer's frames
  only, components/table/hand.py).

The public moves (a bot's discard, another player's NA BOA, BATER) are said politely by the move
history's own region (``history_live`` in components/table/history.py), in the same words as the
history; refusals by their callout, ``role=alert`` (components/table/messages.py).
"""

from __future__ import annotations

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.cards import card_name
from pifecacheta.components.common import SR_ONLY
from pifecacheta.components.table.shared import UI, T, fill_in
from pifecacheta.state.ui_values import CardUi


def _drawn(card: ObjectVar[CardUi]) -> rx.Component:
    """The sentence of the card just drawn, for that card only (nothing for the others)."""
    return rx.cond(card.drawn, rx.el.span(fill_in(T["a11y.drew"], "{card}", card_name(card))))  # type: ignore[no-any-return]


def announcer() -> rx.Component:
    """The assertive region (``#announcer``, visually hidden): the viewer's turn, then the card
    they drew; empty while it is not their turn."""
    return rx.el.div(  # type: ignore[no-any-return]
        rx.cond(
            UI.can_draw,
            T["a11y.your_turn"],
            rx.cond(UI.can_discard, rx.foreach(UI.hand_by_suit, _drawn), ""),
        ),
        aria_live="assertive",
        aria_atomic="true",
        id="announcer",
        style=SR_ONLY,
    )
