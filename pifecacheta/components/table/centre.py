"""The middle of the felt: the stock with its count, the discard pile, the vira and the wild,
and the card that travels for the newest move (:func:`flight`)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.cards import card_back, card_face, empty_slot
from pifecacheta.components.focus import DRAWN_CARD, card_in_hand, want_focus
from pifecacheta.components.keys import on_keys
from pifecacheta.components.reflex_private import DnDDiv, KeyDiv
from pifecacheta.components.table.last_round import last_round_card
from pifecacheta.components.table.shared import NAME_STYLE, SELECTED, UI, T, fill
from pifecacheta.components.table.shortcuts import dismiss_refusal, shortcut_letters
from pifecacheta.components.table.spoken import pile_name
from pifecacheta.state.table import TableState

HIST = TableState.history


def _newest() -> Any:
    """The history's newest line (a ``HistoryLineUi`` Var; undefined while it has none)."""
    lines: Any = HIST.lines
    return lines[0]


def _seats() -> Any:
    seats: Any = UI.seats
    return seats


def move_kind() -> rx.Var[str]:
    """The newest move of the round, from the history's newest line (public, the same for
    every viewer): "draw" (a card from the stock to a hand), "take" (the lixo's top to a hand),
    "discard" (a card from a hand to the lixo), or "" (anything else, or no line yet)."""
    line = _newest()
    kind = rx.match(
        line.key,
        ("hist.draw", "draw"),
        ("hist.take", "take"),
        ("hist.draw_discard", "hist.take_discard", "discard"),
        "",
    )
    playing = (UI.phase == "draw") | (UI.phase == "discard")
    lines: Any = HIST.lines
    return rx.cond((lines.length() > 0) & playing, kind, "")  # type: ignore[no-any-return]


def flight(source: str) -> rx.Component:
    """The card that travels for the newest move, over the stock (``source`` "stock": a draw,
    a back) or over the lixo ("pile": a take, the card taken; a discard, the card discarded).

    A ``.pfc-fly`` element keyed on the history line and the move, so that each new move
    mounts a new one and ``assets/table.css`` plays its animation anew (a few hundred ms,
    toward or from the seat's place, ``data-place``; none under "reduce motion"). Only public
    cards: a back for the stock, the pile's own cards. Hidden from screen readers (the
    history's live line says the move)."""
    line = _newest()
    kind = move_kind()
    here = (kind == "draw") if source == "stock" else ((kind == "take") | (kind == "discard"))
    face = (
        card_back(size="lg")
        if source == "stock"
        else rx.cond(kind == "take", card_face(line.card, size="lg"), card_face(line.discard, size="lg"))
    )
    return rx.cond(  # type: ignore[no-any-return]
        here & (line.seat >= 0),
        rx.el.div(  # a plain element: no component of its own to render at each change
            face,
            key=line.n.to_string() + kind,
            class_name="pfc-fly",
            aria_hidden="true",
            custom_attrs={
                "data-move": kind,
                "data-seat": line.seat.to_string(),
                "data-place": _seats()[line.seat.to(int)].place,
            },
        ),
    )


def _stock() -> rx.Component:
    """The stock, face down: a tap, Enter or Space draws (COMPRAR); for a spectator a picture
    with the count, out of the keyboard's way. Empty ("Monte · 0") it is an empty slot, as the
    empty lixo; COMPRAR still draws: the lixo becomes the stock (seed 000), and the card flies
    from that new stock. When a draw took the last card, the empty slot shows as the card's
    back leaves it (``pfc-land``), not under it as it sets off."""
    emptied = rx.cond(move_kind() == "draw", "stock-empty pfc-land", "stock-empty")
    return rx.vstack(  # type: ignore[no-any-return]
        KeyDiv.create(
            rx.cond(
                UI.has_stock,
                card_back(size="lg", class_name="stock-back"),
                empty_slot(T["table.discard_empty"], class_name=emptied),
            ),
            on_click=[TableState.draw(UI.version), want_focus(DRAWN_CARD)],  # type: ignore[operator]
            on_key_down=on_keys(
                {
                    ("Enter", " "): [TableState.draw(UI.version), want_focus(DRAWN_CARD)],  # type: ignore[operator]
                    "Escape": dismiss_refusal(),
                },
                shortcut_letters(),
            ),
            # a control for the players; for a spectator a picture with its count (a click only
            # says "not seated")
            tab_index=rx.cond(UI.is_player, 0, -1),
            role=rx.cond(UI.is_player, "button", "img"),
            aria_label=T["table.stock"] + " " + UI.stock_size.to_string(),
            custom_attrs={"data-testid": "stock"},
            # padded above and below as the lixo's box, so the two cards and their captions
            # line up (not at the sides: on a phone the stock, the lixo and three wilds share
            # one row); rounded, so that the focus ring follows the card's shape
            style={
                "cursor": rx.cond(UI.can_draw, "pointer", "default"),
                "padding": "0.3em 0",
                "border_radius": "0.6em",
            },
        ),
        rx.text(T["table.stock"], " · ", UI.stock_size, size="1"),
        flight("stock"),
        align="center",
        spacing="1",
        class_name="pfc-source",
    )


def _pile() -> rx.Component:
    """The discard pile with its top card: a tap (Enter, Space) takes it, or discards the
    selected card; a card of the hand dropped on it is discarded. For a spectator a picture
    of the top card, as the stock."""
    tap = [
        TableState.pile_click(UI.version, UI.phase, SELECTED.value),  # type: ignore[operator]
        SELECTED.set_value(""),
        # a take: the focus to the card taken, in the hand (a discard keeps it on the pile)
        want_focus(rx.cond(UI.can_draw, card_in_hand(UI.discard_top.id), "")),
    ]
    return rx.vstack(  # type: ignore[no-any-return]
        DnDDiv.create(
            rx.cond(
                UI.has_discard,
                # a new top card is a new element: it appears as the discarded card lands
                card_face(
                    UI.discard_top,
                    size="lg",
                    key=UI.discard_count.to_string(),
                    class_name=rx.cond(move_kind() == "discard", "pfc-land", ""),
                ),
                empty_slot(T["table.discard_empty"]),
            ),
            # the card goes with the event, THEN the selection is cleared (the chain runs in order)
            on_click=tap,
            on_key_down=on_keys({("Enter", " "): tap, "Escape": dismiss_refusal()}, shortcut_letters()),
            tab_index=rx.cond(UI.is_player, 0, -1),
            on_drag_over=rx.prevent_default,
            on_drop=[
                TableState.drop_on_pile(UI.version).prevent_default,  # type: ignore[operator]
                SELECTED.set_value(""),
            ],
            role=rx.cond(UI.is_player, "button", "img"),  # as the stock's
            aria_label=pile_name(),  # "Lixo, 7 de copas, de Carmen"
            custom_attrs={"data-testid": "discard"},
            style={
                "cursor": rx.cond(UI.is_player, "pointer", "default"),
                "padding": "0.3em",
                "border_radius": "0.6em",
                "outline": rx.cond((SELECTED.value != "") & UI.can_discard, "3px dashed #ffd27f", "none"),
            },
        ),
        rx.text(T["table.discard"], " · ", UI.discard_count, size="1"),
        discarded_by(),
        flight("pile"),
        align="center",
        spacing="1",
        class_name="pfc-source",
    )


def discarded_by() -> rx.Component:
    """Under the pile: who discarded its top card ("de Carmen", or "seu descarte" for the
    viewer's own), public like the pile itself (``PlayerView.discarded_by``)."""
    return rx.cond(  # type: ignore[no-any-return]
        UI.has_discard & (UI.discard_by != ""),
        rx.text(
            rx.cond(UI.discard_by_me, T["table.discard_by_me"], fill("table.discard_by", UI.discard_by)),
            size="1",
            id="discard-by",
            style={**NAME_STYLE, "max_width": "9em", "opacity": "0.9"},
        ),
    )


def _labelled_card(card: Any, label_key: str, test_id: str) -> rx.Component:
    """A small card face with its caption under it (the vira, the wild)."""
    return rx.vstack(  # type: ignore[no-any-return]
        card_face(card, size="sm"),
        rx.text(T[label_key], size="1"),
        align="center",
        spacing="1",
        custom_attrs={"data-testid": test_id},
    )


def _vira() -> rx.Component:
    """Cacheta: the vira and the wild it makes, both wilds with the house rule "coringa da
    mesma cor" (nothing in Pife)."""
    return rx.cond(  # type: ignore[no-any-return]
        UI.has_vira,
        rx.hstack(
            _labelled_card(UI.vira, "table.vira", "vira"),
            _labelled_card(UI.wild, "table.wild", "wild"),
            rx.cond(UI.has_wild_other, _labelled_card(UI.wild_other, "table.wild", "wild-other")),
            spacing="2",
            align_self="center",  # the small cards halfway down the stock's and the lixo's
        ),
    )


def centre() -> rx.Component:
    """Stock with its count, the discard pile with its top card, the vira and the wild; above
    them, the last round's summary card while this viewer keeps it (``last_round.py``)."""
    return rx.vstack(  # type: ignore[no-any-return]
        last_round_card(),
        rx.hstack(
            _stock(),
            _pile(),
            _vira(),
            spacing="5",
            justify="center",
            # the stock's and the lixo's cards top-aligned: the line under the lixo (who
            # discarded its top card) hangs below without lifting its card above the stock
            align="start",
            wrap="wrap",
            padding="0.8em 0",
            class_name="centre-row",  # larger on a wide screen: assets/table.css
            style={"font_size": rx.breakpoints(initial="16px", md="19px")},
        ),
        width="100%",
        spacing="1",
        align="center",
    )
