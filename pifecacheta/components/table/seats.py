"""The seats around the table: name, card count, lives and the badges of each player, and on
a wide screen the other players' hands as fanned card backs (no faces: only the count is
public). Where each seat sits (``SeatUi.place``) is laid out by ``assets/table.css``."""

from __future__ import annotations

import reflex as rx
from reflex_base.vars import NumberVar, ObjectVar

from pifecacheta.components.common import SR_ONLY
from pifecacheta.components.table.shared import NAME_STYLE, UI, T, badge, lives_word
from pifecacheta.components.table.spoken import seat_sentence, went_out
from pifecacheta.state.ui_values import SeatUi


def _name_line(seat: ObjectVar[SeatUi]) -> rx.Component:
    """The player's name, and the dealer's D (on a phone a chip on the seat's corner,
    ``assets/table.css``, so that the name has the seat's whole width)."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(
            seat.name,
            weight="bold",
            size="2",
            class_name="seat-name",
            style={**NAME_STYLE, "max_width": "9em"},
        ),
        rx.cond(
            seat.dealer,
            rx.tooltip(
                badge("D", "gray", aria_label=T["badge.dealer"], class_name="dealer-chip"),
                content=T["badge.dealer"],
            ),
        ),
        spacing="1",
        align="center",
    )


def _counts(seat: ObjectVar[SeatUi]) -> rx.Component:
    """How many cards the seat holds (for the seat that went out: "bateu", its cards are down
    in melds on FIM DA RODADA) and, in Cacheta, its lives (on FIM DA RODADA with what the
    round cost: "−1")."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.cond(
            went_out(seat),
            rx.text(T["seat.went_out"], size="2", weight="bold", class_name="seat-went-out"),
            rx.hstack(
                rx.icon("layers", size=14),
                rx.text(seat.cards, size="2"),
                spacing="1",
                align="center",
                aria_label=seat.cards.to_string() + " " + T["table.cards"],
                class_name="seat-cards",
            ),
        ),
        rx.cond(
            UI.mode == "cacheta",
            rx.hstack(
                rx.icon("heart", size=14, color="#ff8a8a"),
                rx.text(seat.lives, size="2"),
                # FIM DA RODADA: what the round cost, on the felt beside the seat's lives
                rx.cond(
                    (UI.round_over | UI.match_over) & (seat.lives_lost > 0),  # type: ignore[operator]
                    rx.text(
                        "−", seat.lives_lost, size="1", class_name="seat-lost", style={"color": "#ffb4b4"}
                    ),
                ),
                spacing="1",
                align="center",
                aria_label=seat.lives.to_string() + " " + lives_word(seat.lives),
                class_name="seat-lives",
            ),
        ),
        spacing="3",
    )


def _badges(seat: ObjectVar[SeatUi]) -> rx.Component:
    """The winner's trophy (of the round, or of the match once over), TU, VEZ, NA BOA, FORA, SAIU and ROBÔ."""
    return rx.flex(  # type: ignore[no-any-return]
        rx.cond(
            seat.winner,
            rx.badge(
                rx.icon("trophy", size=12),
                color_scheme="amber",
                variant="solid",
                size="1",
                class_name="winner-badge",
                role="img",
                aria_label=T["badge.winner"],
            ),
        ),
        rx.cond(seat.is_me, badge(T["badge.you"], "amber")),
        rx.cond(seat.turn, badge(T["badge.turn"], "yellow")),
        rx.cond(seat.announced, badge(T["badge.na_boa"], "orange")),
        rx.cond(seat.out, badge(T["badge.out"], "red")),
        rx.cond(seat.left, badge(T["badge.left"], "gray")),
        rx.cond(seat.is_bot, badge(T["badge.bot"], "gray")),
        gap="0.25em",
        wrap="wrap",
    )


# the most backs a fan draws (a Pife or Cacheta hand holds 9 or 10 cards)
FAN_MAX = 11


def fan(seat: ObjectVar[SeatUi]) -> rx.Component:
    """Another seat's hand as a fan of small card backs, one per card it holds (up to
    ``FAN_MAX``), spread around the fan's centre; hidden from screen readers (the count is
    said by :func:`_counts`) and, by ``assets/table.css``, on a narrow screen.

    Plain ``div`` elements, turned by ``assets/table.css`` from their place among their
    siblings (``:nth-child`` and ``:nth-last-child``: 4 degrees per card from the middle):
    no component and no style of their own to compute again at each change of the table."""
    count: NumberVar[int] = seat.cards.to(int)
    shown = rx.cond(count > FAN_MAX, FAN_MAX, count)
    return rx.cond(  # type: ignore[no-any-return]
        ~seat.is_me & (count > 0) & ~went_out(seat),
        rx.el.div(
            rx.foreach(rx.Var.range(shown), lambda _: rx.el.div(class_name="fan-back")),
            class_name="fan",
            aria_hidden="true",
        ),
    )


def _unspoken(component: rx.Component) -> rx.Component:
    """``component`` hidden from screen readers (the seat's sentence says it)."""
    component.custom_attrs["aria-hidden"] = "true"
    return component


def seat_panel(seat: ObjectVar[SeatUi]) -> rx.Component:
    """Name, card count, lives, NA BOA, dealer marker, FORA of one seat (a ``SeatUi`` Var),
    and the fan of its hand's backs (:func:`fan`)."""
    # a screen reader hears the seat as one sentence (spoken.py), not its numbers and badges
    return rx.box(  # type: ignore[no-any-return]
        rx.el.span(seat_sentence(seat), style=SR_ONLY, class_name="seat-spoken"),
        *(_unspoken(part(seat)) for part in (_name_line, _counts, _badges)),
        fan(seat),
        class_name="seat",
        role="group",
        aria_label=seat.name,
        custom_attrs={"data-seat": seat.seat.to_string(), "data-place": seat.place},
        style={
            "padding": "0.35em 0.6em",
            "border_radius": "0.6em",
            "min_width": "7.5em",
            "max_width": "100%",
            # a dark gold under the white text of the seat whose turn it is (7:1 or more)
            "background": rx.cond(seat.turn, "rgba(90,70,0,0.65)", "rgba(0,0,0,0.28)"),
            "border": rx.cond(seat.turn, "2px solid #ffd700", "2px solid transparent"),
            "opacity": rx.cond(seat.out | seat.left, "0.85", "1"),  # dimmed, text still 4.5:1
        },
    )


def seats() -> rx.Component:
    """Every seat of the table (``#seats``): a wrapping row on a narrow screen; on a wide one
    each seat takes its place around the felt (``assets/table.css``)."""
    return rx.flex(  # type: ignore[no-any-return]
        rx.foreach(UI.seats, seat_panel), gap="0.5em", wrap="wrap", justify="center", id="seats"
    )
