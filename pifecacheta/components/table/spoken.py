"""What a screen reader says of the table (WCAG 1.3.1, 4.1.2), in the viewer's language.

The seats, the lixo and a wild are drawn with numbers, icons and badges ("9", a heart, "D");
these helpers give them a name in words, built in the browser from the catalog:

- :func:`seat_sentence`: "Carmen, 9 cartas, 7 vidas, dá as cartas, na vez" /
  "Carmen, 9 cartas, 7 vidas, reparte, de turno";
- :func:`pile_name`: "Lixo, 7 de copas, de Carmen" (the top card and who discarded it);
- a card's name, with "coringa" / "comodín" after a wild, is ``cards.card_name``.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ObjectVar, StringVar, Var

from pifecacheta.components.cards import card_name
from pifecacheta.components.table.shared import UI, T, fill, lives_word
from pifecacheta.state.ui_values import SeatUi


def _part(condition: Any, words: Any) -> StringVar[str]:
    """``", " + words`` when ``condition`` holds, else "" (client side)."""
    part: StringVar[str] = rx.cond(condition, ", " + words, "").to(str)
    return part


def seat_sentence(seat: ObjectVar[SeatUi]) -> Var[str]:
    """One seat in words: the name, the cards held, the lives (Cacheta), then what holds of it
    among you, deals, on turn, NA BOA, out, left, bot, winner. E.g. "Carmen, 9 cartas, 7 vidas,
    dá as cartas, na vez"."""
    cards = rx.cond(seat.cards == 1, T["table.card"], T["table.cards"]).to(str)
    lives = rx.cond(
        UI.mode == "cacheta", ", " + seat.lives.to_string() + " " + lives_word(seat.lives), ""
    ).to(str)
    sentence: Var[str] = (
        seat.name.to(str)
        + _part(seat.is_me, T["badge.you"].lower())
        + ", "
        + seat.cards.to_string()
        + " "
        + cards
        + lives
        + _part(seat.dealer, T["badge.dealer"].lower())
        + _part(seat.turn, T["badge.turn"].lower())
        + _part(seat.announced, T["badge.na_boa"])
        + _part(seat.out, T["badge.out"].lower())
        + _part(seat.left, T["badge.left"].lower())
        + _part(seat.is_bot, T["badge.bot"].lower())
        + _part(seat.winner, T["badge.winner"].lower())
    )
    return sentence


def pile_name() -> Var[str]:
    """The lixo in words: "Lixo, 7 de copas, de Carmen" (or "seu descarte"); "Lixo, vazio"
    when it is empty."""
    by = rx.cond(UI.discard_by_me, T["table.discard_by_me"], fill("table.discard_by", UI.discard_by))
    by_whom = rx.cond(UI.discard_by != "", ", " + by, "").to(str)
    top = rx.cond(
        UI.has_discard,
        ", " + card_name(UI.discard_top).to(str) + by_whom,
        ", " + T["table.discard_empty"],
    ).to(str)
    name: Var[str] = T["table.discard"] + top
    return name
