"""The keyboard shortcuts of the turn: COMPRAR, PEGAR DO LIXO and BATER by one letter each
(issue 16), in the page's language: C, L, B in pt (COMPRAR, LIXO, BATER); R, P, C in es (ROBAR,
POZO, CERRAR). The letters are catalog texts (``key.draw``, ``key.take``, ``key.go_out``).

They work while the focus is in the hand, on the stock or on the lixo (the controls of the
turn), not on the whole page: a letter typed elsewhere (the chat, a screen reader's or a speech
tool's own keys) does nothing (WCAG 2.1.4). The buttons say their letter in
``aria-keyshortcuts``, and :func:`shortcut_list` lists them on the page.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import Var

from pifecacheta.components.focus import DRAWN_CARD, ROUND_TITLE, card_in_hand, want_focus
from pifecacheta.components.table.shared import DISMISSED, UI, T
from pifecacheta.state.table import TableState


def _only(condition: Any, *events: Any) -> list[tuple[Any, Any]]:
    return [(condition, event) for event in events]


def dismiss_refusal() -> list[Any]:
    """Escape's events on the controls of the turn (the hand, the stock, the lixo): the refusal
    on screen goes, in the browser alone, as a tap on a card makes it go
    (components/table/messages.py). It covers the status line and the turn's buttons."""
    return [DISMISSED.set_value(TableState.message_serial)]


def shortcut_letters() -> list[tuple[Var[str], list[Any]]]:
    """The ``letters`` of :func:`~pifecacheta.components.keys.on_keys` for the controls of the
    turn: each letter runs its button's events, only while that button is enabled, and moves
    the focus as the button does (components/focus.py). One exception: BATER's letter in the
    player's own discard turn while BATER is disabled still asks the service, whose refusal
    ("Ainda não dá para bater com essas cartas.") is shown and read out: a keyboard player
    learns why nothing happened, as a click on a card that is not theirs says so."""
    can_take = UI.can_draw & UI.has_discard
    return [
        (
            T["key.draw"],
            _only(UI.can_draw, TableState.draw(UI.version), want_focus(DRAWN_CARD)),  # type: ignore[operator]
        ),
        (
            T["key.take"],
            _only(
                can_take,
                TableState.take(UI.version),  # type: ignore[operator]
                want_focus(card_in_hand(UI.discard_top.id)),
            ),
        ),
        (
            T["key.go_out"],
            [
                *_only(UI.can_go_out, TableState.go_out(UI.version), want_focus(ROUND_TITLE)),  # type: ignore[operator]
                *_only(UI.can_discard & ~UI.can_go_out, TableState.go_out(UI.version)),  # type: ignore[operator]
            ],
        ),
    ]


def key_of(action: str) -> Var[str]:
    """The ``aria-keyshortcuts`` value of the button of ``action`` ("draw", "take", "go_out"):
    its letter, upper case ("C")."""
    letter: Var[str] = T[f"key.{action}"].to(str).upper()
    return letter


def shortcut_list() -> rx.Component:
    """The shortcuts, listed on the page ("Teclas na mão: C compra · L pega do lixo · B bate")."""
    return rx.text(  # type: ignore[no-any-return]
        T["keys.list"], size="1", id="shortcuts", width="100%", text_align="center"
    )
