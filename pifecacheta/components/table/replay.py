"""REVER A RODADA: a finished round step by step as this viewer saw it (state/replay.py).

:func:`replay_button` opens :func:`replay_dialog` (``#replay-dialog``) on one round: the step's
words (announced to screen readers), the viewer's own hand, the lixo's top card, the stock, the
vira and the wild (Cacheta), every seat's card count with NA BOA, and at the last step the
winner's melds. First, back, next, last (``#replay-first`` ...) and a slider (``#replay-slider``,
named, its value "Passo 3 de 31") move through the steps.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.cards import card_face
from pifecacheta.components.table.shared import NAME_STYLE, T, badge, fill_in, round_button, round_title
from pifecacheta.state.replay import ReplayState, SeatStepUi
from pifecacheta.state.ui_values import MeldUi

STEP = ReplayState.step
VIRA = ReplayState.vira


def replay_button(round_number: Any, button_id: str | None = None, match_number: Any = 0) -> rx.Component:
    """REVER A RODADA for round ``round_number`` (an int Var) of match ``match_number`` (0: the
    current one); ``button_id`` where it is unique."""
    return round_button(
        T["btn.replay"],
        ReplayState.open_replay(round_number, match_number),  # type: ignore[operator]
        "replay-button",
        button_id,
    )


def _seat(seat: ObjectVar[SeatStepUi]) -> rx.Component:
    """A seat's name, its card count and NA BOA."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(seat.name, weight="bold", style={**NAME_STYLE, "max_width": "9em"}),
        rx.text(fill_in(T["replay.cards"], "{n}", seat.count.to_string()), size="2"),
        rx.cond(seat.announced, badge(T["replay.announced"], "amber")),
        spacing="2",
        align="center",
        class_name="replay-seat",
    )


def _meld(meld: ObjectVar[MeldUi]) -> rx.Component:
    return rx.hstack(  # type: ignore[no-any-return]
        rx.foreach(meld.cards, lambda c: card_face(c, size="sm")), spacing="1", class_name="meld"
    )


def _nav(label_key: str, where: str, symbol: str, disabled: Any) -> rx.Component:
    """One of the four step buttons (a symbol on screen, its words for screen readers)."""
    return rx.button(  # type: ignore[no-any-return]
        symbol,
        on_click=ReplayState.go(where),  # type: ignore[operator]
        aria_label=T[label_key],
        title=T[label_key],
        disabled=disabled,
        variant="soft",
        id=f"replay-{where}",
        size="3",
    )


def _controls() -> rx.Component:
    at_start = ReplayState.index == 0
    at_end = ReplayState.index >= ReplayState.last
    return rx.vstack(  # type: ignore[no-any-return]
        rx.hstack(
            _nav("replay.first", "first", "«", at_start),
            _nav("replay.back", "back", "◀", at_start),
            _nav("replay.next", "next", "▶", at_end),
            _nav("replay.last", "last", "»", at_end),
            spacing="2",
            justify="center",
            width="100%",
        ),
        rx.box(
            # a native range input, not rx.slider: Radix Themes' Slider gives its thumb (the
            # element with role slider) neither a name nor a value text of the caller's
            # debounced: the keys' steps are kept in the browser while the server's answers
            # come (a controlled input would snap back to the old step between two presses)
            rx.debounce_input(
                rx.el.input(
                    type="range",
                    min=0,
                    max=ReplayState.last,
                    step=1,
                    value=ReplayState.index,
                    on_change=ReplayState.seek,
                    aria_label=T["replay.slider"],
                    aria_valuetext=_position(),
                    role="slider",  # its implicit role, said for the selectors that look for it
                    id="replay-range",
                    style={
                        "width": "100%",
                        "accent_color": "var(--amber-9)",
                        "&:focus-visible": {"outline": "2px solid var(--focus-8)", "outline_offset": "2px"},
                    },
                ),
                debounce_timeout=60,
            ),
            id="replay-slider",
            width="100%",
        ),
        width="100%",
        spacing="2",
    )


def _position() -> Any:
    """The step on screen and the number of steps, "Passo 3 de 31" (a string Var)."""
    return fill_in(
        fill_in(T["replay.step"], "{i}", (ReplayState.index + 1).to_string()),  # type: ignore[attr-defined]
        "{n}",
        (ReplayState.last + 1).to_string(),
    )


def _labelled(card: Any, label_key: str, box_id: str) -> rx.Component:
    """A small card face after its caption (the vira, the wild)."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(T[label_key], size="2"),
        card_face(card, size="sm"),
        align="center",
        spacing="1",
        id=box_id,
    )


def _vira() -> rx.Component:
    """Cacheta: the round's vira and the wild it makes (two wilds with "coringa da mesma cor"),
    public from the deal (nothing in Pife)."""
    return rx.cond(  # type: ignore[no-any-return]
        VIRA.has_vira,
        rx.hstack(
            _labelled(VIRA.vira, "table.vira", "replay-vira"),
            _labelled(VIRA.wild, "table.wild", "replay-wild"),
            rx.cond(VIRA.has_wild_other, _labelled(VIRA.wild_other, "table.wild", "replay-wild-other")),
            align="center",
            spacing="3",
            wrap="wrap",
        ),
    )


def _step() -> rx.Component:
    """What the viewer saw at the step on screen."""
    words = rx.cond(STEP.name != "", fill_in(T[STEP.text_key], "{name}", STEP.name), T[STEP.text_key])
    position = _position()
    return rx.vstack(  # type: ignore[no-any-return]
        rx.text(position, size="1", id="replay-position"),
        rx.hstack(
            rx.text(words, weight="bold", id="replay-words"),
            rx.cond(STEP.has_card, card_face(STEP.card, size="sm")),
            align="center",
            spacing="2",
            role="status",
            aria_live="polite",
        ),
        rx.text(T["replay.hand"], size="2"),
        rx.cond(
            STEP.has_hand,
            rx.flex(
                rx.foreach(STEP.hand, lambda c: card_face(c, size="sm")),
                wrap="wrap",
                gap="1",
                id="replay-hand",
            ),
            rx.text(T["replay.no_hand"], size="2"),
        ),
        rx.hstack(
            rx.text(T["replay.lixo"], size="2"),
            rx.cond(STEP.has_lixo, card_face(STEP.lixo, size="sm"), rx.text(T["replay.empty"], size="2")),
            rx.text(fill_in(T["replay.stock"], "{n}", STEP.stock.to_string()), size="2", id="replay-stock"),
            align="center",
            spacing="3",
            wrap="wrap",
            id="replay-lixo",
        ),
        _vira(),
        rx.vstack(rx.foreach(STEP.seats, _seat), spacing="1", id="replay-seats"),
        rx.cond(
            STEP.winner != "",
            rx.vstack(
                rx.text(fill_in(T["replay.melds"], "{name}", STEP.winner), weight="bold"),
                rx.flex(rx.foreach(STEP.melds, _meld), wrap="wrap", gap="2"),
                id="replay-melds",
                spacing="1",
            ),
        ),
        spacing="2",
        width="100%",
    )


def replay_dialog() -> rx.Component:
    """The replay of ``ReplayState.replay_round`` (rendered once per page)."""
    return rx.dialog.root(  # type: ignore[no-any-return]
        rx.dialog.content(
            rx.dialog.title(
                round_title(
                    "replay.title", "replay.match_title", ReplayState.replay_round, ReplayState.replay_match
                )
            ),
            rx.cond(
                ReplayState.replay_error != "",
                rx.callout(T[ReplayState.replay_error], color_scheme="red", id="replay-error"),
                rx.cond(
                    ReplayState.steps.length() > 0,  # type: ignore[attr-defined]
                    rx.vstack(_controls(), _step(), spacing="3", width="100%"),
                    rx.text(T["verify.loading"]),
                ),
            ),
            rx.dialog.close(
                rx.button(T["verify.close"], variant="soft", id="replay-close", margin_top="1em")
            ),
            id="replay-dialog",
            style={"background": "var(--color-panel-solid)"},  # no table showing through
            max_width="40em",
        ),
        open=ReplayState.replay_open,
        on_open_change=ReplayState.set_replay_open,
    )
