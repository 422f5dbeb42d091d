"""The optional sound of each move (``state/move_sounds.py``, off by default): a card taken
from the stock or the lixo (``/card-up.wav``) or laid on the lixo (``/card-down.wav``), by
anyone at the table, and the switch for it in the pause menu.

An ``<audio autoplay>`` element keyed on the newest history line and its move (as the moving
card of ``centre.flight``), so each new move mounts a new one that plays once; nothing is
mounted while the sounds are off. The move is the public history's, the same for every viewer:
a sound names no card."""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.table.centre import move_kind
from pifecacheta.components.table.shared import T
from pifecacheta.state.move_sounds import MoveSoundState
from pifecacheta.state.table import TableState

CARD_UP = "/card-up.wav"  # a draw or a take (assets/, made by scripts/make_move_sounds.py)
CARD_DOWN = "/card-down.wav"  # a discard


def move_sound() -> rx.Component:
    """The sound of the newest move while the viewer has the sounds on (else nothing)."""
    lines: Any = TableState.history.lines
    kind = move_kind()
    return rx.cond(  # type: ignore[no-any-return]
        MoveSoundState.sounds_on & (kind != ""),
        rx.el.audio(
            src=rx.cond(kind == "discard", CARD_DOWN, CARD_UP),
            auto_play=True,
            key=lines[0].n.to_string() + kind,
            id="move-sound",
            aria_hidden="true",
            custom_attrs={"data-move": kind},
            style={"display": "none"},
        ),
    )


def move_sound_switch() -> rx.Component:
    """SONS DOS LANCES / SONIDOS DE LAS JUGADAS: a switch inside its label, off by default."""
    return rx.el.label(  # type: ignore[no-any-return]
        rx.hstack(
            rx.switch(
                checked=MoveSoundState.sounds_on,
                on_change=MoveSoundState.set_sounds,
                id="move-sound-switch",
                color_scheme="amber",
            ),
            rx.text(T["notice.move_sounds"], size="2"),
            align="center",
            spacing="2",
        ),
    )
