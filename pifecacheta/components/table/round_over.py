"""FIM DA RODADA and the end of the match: who went out and how, the melds, the lives, the
winner or why the match ended, PRÓXIMA RODADA and REVANCHE (seed 000 lines 68-70)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.cards import card_face
from pifecacheta.components.focus import HAND_STOP, want_focus
from pifecacheta.components.reflex_private import client_state_var
from pifecacheta.components.table.shared import (
    NAME_STYLE,
    UI,
    T,
    badge,
    fill,
    fill_all,
    lives_word,
    new_table_link,
)
from pifecacheta.components.table.verify import deal_panel
from pifecacheta.state.table import TableState
from pifecacheta.state.ui_values import MeldUi, SeatUi

# The number of the last round whose summary this viewer closed (browser only): the summary
# card of the round just over (components/table/last_round.py) shows until it holds that round.
# Pressing PRÓXIMA RODADA sets it too: the one who pressed has just read FIM DA RODADA.
LAST_CLOSED = client_state_var("pfc_last_closed", default=0)
# The number of the last round whose FIM DA RODADA this page showed (browser only, 0 after a
# load): the summary card of a round comes only to a page that saw that round end, not to one
# opened or reloaded in the next round (the history's Rodadas tab says what happened).
LAST_SEEN = client_state_var("pfc_last_seen", default=0)

PANEL_STYLE: dict[str, str] = {
    "padding": "1em",
    "border_radius": "1em",
    "background": "rgba(10,40,20,0.92)",
    "border": "2px solid #ffd27f",
    "width": "100%",
    "max_width": "40em",
    "margin": "0.5em auto",
}


def _meld(meld: ObjectVar[MeldUi], i: Any) -> rx.Component:
    """The ``i``-th meld laid down by the winner (a ``MeldUi`` Var), in small cards: a group
    named "Jogo 2" / "Juego 2" for a screen reader."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.foreach(meld.cards, lambda c: card_face(c, size="sm")),
        spacing="1",
        class_name="meld",
        role="group",
        aria_label=T["round.meld"] + " " + (i + 1).to_string(),
    )


def _lives_row(seat: ObjectVar[SeatUi]) -> rx.Component:
    """Cacheta: a seat's lives after the round, what it lost, and FORA."""
    return rx.hstack(  # type: ignore[no-any-return]
        rx.text(seat.name, weight="bold", class_name="seat-name", style={**NAME_STYLE, "width": "7em"}),
        rx.text("♥ ", seat.lives, " ", lives_word(seat.lives)),
        rx.cond(
            seat.lives_lost > 0,  # type: ignore[operator]
            rx.text("(−", seat.lives_lost, ")", style={"color": "#ffb4b4"}),
        ),
        rx.cond(seat.out, badge(T["badge.out"], "red")),
        spacing="2",
        align="center",
        class_name="lives-row",
    )


def _rematch_vote(seat: ObjectVar[SeatUi]) -> rx.Component:
    """The name of a seat that agreed to a rematch (nothing for the others)."""
    return rx.cond(  # type: ignore[no-any-return]
        seat.rematch,
        badge(seat.name, "green", class_name="rematch-vote", style={**NAME_STYLE, "max_width": "12em"}),
    )


def _rematch_offer() -> rx.Component:
    """REVANCHE for the players, who already agreed, and NOVA MESA for a spectator."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.cond(
            UI.is_player,
            rx.button(
                T["btn.rematch"],
                on_click=TableState.vote_rematch,
                disabled=UI.rematch_voted,
                size="3",
                color_scheme="green",
                id="rematch-button",
            ),
        ),
        rx.cond(UI.rematch_voted, rx.text(T["rematch.waiting"], size="2")),
        rx.cond(
            UI.has_rematch_votes,
            rx.hstack(
                rx.text(T["rematch.votes"], ":", size="2"),
                rx.foreach(UI.seats, _rematch_vote),
                spacing="2",
                wrap="wrap",
                align="center",
                id="rematch-votes",
            ),
        ),
        # a spectator has no vote: it gets the way to a table of its own instead
        rx.cond(~UI.is_player, new_table_link()),
        spacing="2",
    )


def _no_rematch() -> rx.Component:
    """Why there is no rematch (resigned, absence, expired, a player left), and NOVA MESA."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.cond(
            UI.has_outcome,
            rx.text(
                T[UI.no_rematch_key],
                size="2",
                style={"opacity": "0.85"},
                id="no-rematch",
            ),
        ),
        new_table_link(),
        spacing="2",
        align="center",  # centred in the footer, as REVANCHE is
        text_align="center",
    )


def _rematch() -> rx.Component:
    """REVANCHE at the end of a match (seed 000 line 70): who already agreed, or why there is none."""
    return rx.cond(UI.rematch_offered, _rematch_offer(), _no_rematch())  # type: ignore[no-any-return]


def _title() -> rx.Component:
    """FIM DA RODADA, or FIM DA PARTIDA when the match ended outside a round."""
    return rx.heading(  # type: ignore[no-any-return]
        T[UI.round_title_key],
        size="6",
        as_="h2",  # under the table's own title (h1, pages/table.py)
        id="round-title",
        tab_index=-1,  # the focus goes here after BATER and when the round ends (components/focus.py)
    )


def _ids(main: bool, name: str) -> dict[str, str]:
    """``{"id": name}`` for FIM DA RODADA itself; a past round in the history gets a class
    instead (ids stay unique on the page)."""
    return {"id": name} if main else {"class_name": f"past-{name}"}


def jump_key(src: Any) -> Any:
    """The catalog key of an out-of-turn go-out told in one sentence (a string Var): Pife's
    louca, a Cacheta queue jump, or a queue jump with all 10 cards in melds (seed 000 lines
    21, 60, 64)."""
    return rx.cond(
        src.mode == "pife",
        "round.louca_from",
        rx.cond(src.result_with_ten, "round.jump_from_ten", "round.jump_from"),
    )


def went_out_text(src: Any) -> Any:
    """Who went out, in one sentence (a string Var; ``src``: ``UI`` or a ``RoundUi`` Var): "Ana
    bateu", "Ana bateu com 10", or out of turn "Carla furou a fila e bateu com o descarte de
    Bruno:" (the card follows it)."""
    told = src.result_out_of_turn & (src.result_discarder != "")
    return rx.cond(
        told,
        fill_all(T[jump_key(src)], (("{name}", src.result_winner), ("{from}", src.result_discarder))),
        rx.cond(
            src.result_out_of_turn,
            fill(src.result_banner_key, src.result_winner),
            fill(src.result_headline_key, src.result_winner),
        ),
    )


def _went_out(src: Any = UI, main: bool = True) -> rx.Component:
    """The go-out told once: "Ana bateu"; out of turn (LOUCA in Pife, FUROU A FILA in Cacheta)
    the same line says whose discard it was, with that card, in an amber box that opens with
    a short pop where everyone looks (``assets/table.css``, ``.pfc-jump``)."""
    size = "4" if main else "3"
    line = rx.text(went_out_text(src), size=size, weight="bold", **_ids(main, "went-out"))
    taken = rx.cond(
        src.result_has_taken,
        rx.box(card_face(src.result_taken, size="sm"), **_ids(main, "taken-card")),
    )
    return rx.cond(  # type: ignore[no-any-return]
        src.result_out_of_turn,
        rx.box(
            rx.hstack(line, taken, align="center", spacing="3", wrap="wrap"),
            class_name="pfc-jump" if main else "past-banner",
            width="100%",
            **({"id": "banner"} if main else {}),
        ),
        line,
    )


def _result_details(src: Any, main: bool) -> list[rx.Component]:
    """Under the headline: the melds and the last discard."""
    return [
        rx.text(T["round.melds"], size="2", role="heading", aria_level=3),
        rx.flex(rx.foreach(src.result_melds, _meld), wrap="wrap", gap="0.6em", **_ids(main, "melds")),
        rx.cond(
            src.result_has_discard,
            rx.hstack(
                rx.text(T["round.discarded"], size="2"),
                card_face(src.result_discard, size="sm"),
                align="center",
            ),
        ),
    ]


def _result(src: Any = UI, main: bool = True) -> rx.Component:
    """Who went out (with ten cards or not, out of turn with whose card), the melds and the
    last discard."""
    return rx.cond(  # type: ignore[no-any-return]
        src.has_result,
        rx.vstack(_went_out(src, main), *_result_details(src, main), spacing="2", width="100%"),
    )


def result_lines(src: Any) -> rx.Component:
    """A past round's go-out lines under its headline (``src``: a ``RoundUi`` Var): the melds
    and the discard, without the headline and the lives."""
    return rx.vstack(*_result_details(src, main=False), spacing="2", width="100%")  # type: ignore[no-any-return]


def _lives(src: Any = UI, main: bool = True) -> rx.Component:
    """Cacheta: every seat's lives after the round."""
    return rx.cond(  # type: ignore[no-any-return]
        src.mode == "cacheta",
        rx.vstack(
            rx.text(T["round.lives"], weight="bold", role="heading", aria_level=3),
            rx.foreach(src.seats, _lives_row),
            spacing="1",
            **_ids(main, "lives"),
        ),
    )


def result_summary(src: Any) -> rx.Component:
    """A past round's result as FIM DA RODADA showed it (``src``: a ``RoundUi`` Var, with the
    result field names of ``TableUi``): who went out (and whose card), the melds, the discard
    and the lives, without the ids of the live panel."""
    return rx.vstack(  # type: ignore[no-any-return]
        _result(src, main=False),
        _lives(src, main=False),
        spacing="2",
        width="100%",
    )


def _outcome() -> list[rx.Component]:
    """The end of the match: its winner, or no winner; who resigned or was away. While FIM DA
    RODADA still shows a go-out that decided the match (Pife's first go-out, seed 000 line 48;
    Cacheta's last rival out of lives), it says the match is decided and that PRÓXIMA RODADA
    shows its end (seed 000 line 68); the winner's line belongs to FIM DA PARTIDA."""
    return [
        rx.cond(
            UI.round_over & UI.has_outcome,
            rx.text(T["round.match_decided"], size="3", id="match-decided", style={"color": "#ffd27f"}),
        ),
        rx.cond(
            UI.match_over & UI.has_outcome & (UI.outcome_winner != ""),
            rx.text(
                fill("match.winner", UI.outcome_winner),
                size="5",
                weight="bold",
                id="winner",
                style={"color": "#ffd27f"},
            ),
        ),
        rx.cond(UI.no_winner_key != "", rx.text(T[UI.no_winner_key], size="4", id="no-winner")),
        rx.cond(
            UI.end_reason_key != "",
            rx.text(fill(UI.end_reason_key, UI.outcome_loser), size="3", id="end-reason"),
        ),
    ]


def _next_round() -> rx.Component:
    """PRÓXIMA RODADA, for the players while the match goes on."""
    return rx.cond(  # type: ignore[no-any-return]
        UI.can_next_round,
        rx.button(
            T["btn.next_round"],
            on_click=[
                LAST_CLOSED.set_value(UI.round_number),
                TableState.next_round(UI.version),  # type: ignore[operator]
                want_focus(HAND_STOP),
            ],
            size="4",
            color_scheme="amber",
            id="next-round-button",
        ),
    )


# The buttons at the foot of the panel stay on screen while the panel does (a phone shows
# FIM DA RODADA taller than its screen: PRÓXIMA RODADA and REVANCHE stick to the bottom edge).
FOOTER_STYLE: dict[str, str] = {
    "position": "sticky",
    "bottom": "0",
    "z_index": "2",
    "width": "100%",
    "padding": "0.6em 0 0.2em",
    "background": "#0a2814",
    "box_shadow": "0 -0.6em 0.8em -0.4em rgba(0,0,0,0.5)",
}


def _footer() -> rx.Component:
    """PRÓXIMA RODADA, or at the end of the match REVANCHE, in a bar that sticks to the
    bottom of the screen while the panel is taller than it (``#round-over-actions``). A
    spectator, who has no such button, is told what comes next: a player presses it (seed 000
    line 68)."""
    return rx.cond(  # type: ignore[no-any-return]
        UI.can_next_round | UI.match_over,
        rx.vstack(
            _next_round(),
            rx.cond(UI.match_over, _rematch()),
            spacing="2",
            align="center",
            id="round-over-actions",
            style=FOOTER_STYLE,
        ),
        rx.cond(
            UI.round_over & ~UI.is_player,
            rx.text(T["round.spectator_next"], size="2", id="spectator-next", style={"opacity": "0.85"}),
        ),
    )


def round_over_panel() -> rx.Component:
    """FIM DA RODADA: who went out and their melds; Cacheta: lives and FORA (seed 000 line 68);
    at the end of the match its winner and REVANCHE (``#round-over``)."""
    return rx.vstack(  # type: ignore[no-any-return]
        _title(),
        _result(),
        _lives(),
        *_outcome(),
        deal_panel(),  # the revealed seed, VERIFICAR, the next deal's commitment
        _footer(),
        spacing="3",
        id="round-over",
        style=PANEL_STYLE,
        on_mount=LAST_SEEN.set_value(UI.round_number),
    )
