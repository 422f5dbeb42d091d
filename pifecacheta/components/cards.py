"""Playing cards drawn with plain styled elements: index corner, big suit pip, deck designs.

Three designs per viewer (seed 000 line 75: each player picks the deck design they see):
``classic`` red/black, ``four`` four colours (clubs green, diamonds blue), ``large`` a big,
bold, high-contrast index. Cards carry ``data-card="7H"`` and an ``aria-label`` spoken in the
viewer's language ("7 de copas" / "7 de corazones").
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import Var

from pifecacheta.components.reflex_private import DnDDiv
from pifecacheta.state.viewer import ViewerState

# Reflex 0.10.1 exports its components (rx.box, rx.match, ...) untyped: hence the narrow
# ignores on the returns of components.

RED = "#c8102e"
BLACK = "#111111"
GREEN = "#0b7a35"
BLUE = "#1558b0"


def suit_colour(suit: Var[str]) -> Var[str]:
    """The ink of a suit in this viewer's deck design."""
    four = ViewerState.deck_design == "four"
    return rx.match(  # type: ignore[no-any-return]
        suit,
        ("H", RED),
        ("D", rx.cond(four, BLUE, RED)),
        ("C", rx.cond(four, GREEN, BLACK)),
        BLACK,
    )


def card_label(card: Any) -> Var[str]:
    """Screen-reader name in the viewer's language: rank + "de" + suit."""
    t = ViewerState.t
    return t["rank." + card.rank] + " " + t["card.of"] + " " + t["suit." + card.suit]


def card_name(card: Any) -> Var[str]:
    """The spoken name of ``card`` (a ``CardUi`` Var) on the table: :func:`card_label`, and for
    a wild "7 de copas, coringa" (pt) / "7 de corazones, comodín" (es)."""
    wild = rx.cond(card.wild, ", " + ViewerState.t["table.wild"].lower(), "").to(str)
    name: Var[str] = card_label(card).to(str) + wild
    return name


def card_face(card: Any, *, size: str = "md", **props: Any) -> rx.Component:
    """A face-up card. ``size``: "sm" (piles of others, melds), "md" (hand), "lg" (discard)."""
    width = {"sm": "2.6em", "md": "3.6em", "lg": "4.2em"}[size]
    height = {"sm": "3.7em", "md": "5.1em", "lg": "5.9em"}[size]
    large = ViewerState.deck_design == "large"
    colour = suit_colour(card.suit)
    index = rx.box(
        rx.text(card.rank, as_="span", style={"display": "block", "line_height": "1"}),
        rx.text(card.symbol, as_="span", style={"display": "block", "line_height": "1"}),
        style={
            "position": "absolute",
            "top": "0.18em",
            "left": "0.22em",
            "font_weight": rx.cond(large, "900", "700"),
            "font_size": rx.cond(large, "1.35em", "0.95em"),
            "text_align": "center",
            "letter_spacing": "-0.04em",
        },
    )
    pip = rx.text(
        card.symbol,
        as_="span",
        style={
            "position": "absolute",
            "bottom": "0.05em",
            "right": "0.18em",
            "font_size": rx.cond(large, "1.3em", "1.9em"),
            "line_height": "1",
        },
    )
    wild_mark = rx.cond(
        card.wild,
        rx.text(
            "★",
            as_="span",
            style={
                "position": "absolute",
                "top": "0.12em",
                "right": "0.2em",
                "font_size": "0.75em",
                "color": "#b8860b",
            },
        ),
    )
    extra_style = props.pop("style", {})
    return DnDDiv.create(  # type: ignore[no-any-return]
        index,
        wild_mark,
        pip,
        custom_attrs={"data-card": card.code, "aria-label": card_name(card), "role": "img"},
        style={
            "position": "relative",
            "width": width,
            "height": height,
            "flex_shrink": "0",
            "background": "linear-gradient(160deg, #ffffff 0%, #f4f1ea 100%)",
            "border_radius": "0.4em",
            "border": rx.cond(card.wild, "2px solid #d4a017", "1px solid #9a9a9a"),
            "box_shadow": "0 2px 4px rgba(0,0,0,0.35)",
            "color": colour,
            "font_family": "Georgia, 'Times New Roman', serif",
            "user_select": "none",
            **extra_style,
        },
        **props,
    )


def card_back(*, size: str = "md", **props: Any) -> rx.Component:
    """A face-down card (the stock)."""
    width = {"sm": "2.6em", "md": "3.6em", "lg": "4.2em"}[size]
    height = {"sm": "3.7em", "md": "5.1em", "lg": "5.9em"}[size]
    return rx.box(  # type: ignore[no-any-return]
        style={
            "width": width,
            "height": height,
            "border_radius": "0.4em",
            "border": "3px solid #fdfdfd",
            "background": "repeating-linear-gradient(45deg, #8b1a1a 0 6px, #a52a2a 6px 12px)",
            "box_shadow": "0 2px 4px rgba(0,0,0,0.4)",
        },
        **props,
    )


def empty_slot(label: Any, *, size: str = "lg", **props: Any) -> rx.Component:
    """An empty place on the felt (an empty discard pile, an empty stock)."""
    width = {"sm": "2.6em", "md": "3.6em", "lg": "4.2em"}[size]
    height = {"sm": "3.7em", "md": "5.1em", "lg": "5.9em"}[size]
    return rx.center(  # type: ignore[no-any-return]
        rx.text(label, size="1", style={"color": "rgba(255,255,255,0.7)"}),
        style={
            "width": width,
            "height": height,
            "border_radius": "0.4em",
            "border": "2px dashed rgba(255,255,255,0.55)",
        },
        **props,
    )
