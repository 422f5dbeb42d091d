"""The move history at the table: every public event of the round in words, with its time, and
the results of the match's past rounds (seed 000 line 68: who went out, the melds, the lives).

Desktop (from Radix's ``md`` breakpoint, 1024 px): a side panel beside the table
(``#history-side``). Phone and tablet: the history button (``#history-button``) in the table's
top line opens the same panel in a dialog (``#history-dialog``), so the hand keeps the whole width. The lines
come from ``TableState.history`` (``state/history_ui.py``), the past rounds from
``TableState.past_rounds``; each line is a catalog key filled in on the client with the names
and the public cards. Screen readers hear the cards' names ("7 de paus"), and the newest line
by another player is said once, politely (``#history-live``), whether the panel is open or not.
"""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ArrayVar, ObjectVar, Var
from reflex_base.vars.function import FunctionStringVar

from pifecacheta.components.cards import card_label
from pifecacheta.components.common import SR_ONLY, polite_region
from pifecacheta.components.table.older_rounds import older_control, older_items
from pifecacheta.components.table.replay import replay_button
from pifecacheta.components.table.round_over import result_summary
from pifecacheta.components.table.shared import UI, T, fill_all, fill_in
from pifecacheta.components.table.verify import verify_button
from pifecacheta.state.history_ui import HistoryLineUi, RoundUi
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState

HIST = TableState.history
ROUNDS: ArrayVar[list[RoundUi]] = TableState.past_rounds  # type: ignore[assignment]

FOCUS_RING: dict[str, Any] = {"&:focus-visible": {"outline": "2px solid #ffd27f", "outline_offset": "2px"}}
LIST_STYLE: dict[str, Any] = {  # the moves' and the rounds' lists: scrolled by keyboard too
    "list_style": "none",
    "margin": "0",
    "padding": "0 0.3em 0 0",
    "overflow_y": "auto",
    # the containing block of its lines' visually hidden words (SR_ONLY, absolute):
    # else those of the lines scrolled out of the list lengthen the page below it
    "position": "relative",
    "max_height": "var(--hist-height, 60vh)",
    **FOCUS_RING,
}

# An ISO 8601 time as the viewer's clock shows it: "14:05" today, "28/11 14:05" another day.
_CLOCK: FunctionStringVar[Any] = FunctionStringVar.create(
    "((iso, lang) => { if (!iso) return ''; const d = new Date(iso); const loc = lang === 'es' ? 'es' : "
    "'pt-BR'; const hm = {hour: '2-digit', minute: '2-digit'}; return d.toDateString() === new Date()"
    ".toDateString() ? d.toLocaleTimeString(loc, hm) : d.toLocaleString(loc, {day: '2-digit', "
    "month: '2-digit', ...hm}); })"
)


def clock(iso: Any) -> Var[str]:
    """``iso`` (a string Var, ISO 8601 UTC) in the viewer's time zone and language."""
    return _CLOCK.call(iso, ViewerState.language).to(str)


def _card_text(card: Any, spoken: bool) -> Any:
    """A card inside a sentence: "7♣" on screen, "7 de paus" for a screen reader."""
    return card_label(card) if spoken else card.rank + card.symbol


def line_text(line: Any, *, spoken: bool = False) -> Any:
    """The sentence of one history line (a string Var), filled in on the client."""
    return fill_all(
        T[line.key],
        (
            ("{name}", line.name),
            ("{other}", line.other),
            ("{card}", rx.cond(line.has_card, _card_text(line.card, spoken), "")),
            ("{discard}", rx.cond(line.has_discard, _card_text(line.discard, spoken), "")),
        ),
    )


def _line(line: ObjectVar[HistoryLineUi]) -> rx.Component:
    """One ``li``: the time, the sentence on screen, and the same sentence in words for screen
    readers. Styled by class (``assets/room.css``, "history lines"), not by style props: every
    line renders again at each move, and a style prop costs an Emotion component per element."""
    return rx.el.li(  # type: ignore[no-any-return]
        rx.el.time(clock(line.at), date_time=line.at, class_name="hist-time"),
        rx.el.span(line_text(line), aria_hidden="true"),
        rx.el.span(line_text(line, spoken=True), class_name="pfc-sr-only"),
        class_name="hist-line",
        custom_attrs={"data-key": line.key},
    )


def _moves() -> rx.Component:
    """The current round's lines, newest first (a focusable list, so a keyboard can scroll it)."""
    return rx.cond(  # type: ignore[no-any-return]
        HIST.lines.length() > 0,
        rx.el.ol(
            rx.foreach(HIST.lines, _line),
            aria_label=T["hist.moves_label"],
            tab_index=0,
            class_name="hist-lines",
            style={**LIST_STYLE, "font_size": "0.9em"},
        ),
        rx.text(T["hist.empty"], size="2", style={"opacity": "0.8"}),
    )


def _past_round(r: ObjectVar[RoundUi]) -> rx.Component:
    """One past round: its number and time, then FIM DA RODADA's own lines (who went out, the
    card taken, the melds, the discard, the lives)."""
    return rx.el.li(  # type: ignore[no-any-return]
        rx.vstack(
            rx.hstack(
                rx.heading(
                    rx.cond(  # a match before the last REVANCHE: "Partida 1 · Rodada 3"
                        r.earlier_match,
                        fill_all(
                            T["hist.match_round_label"],
                            [("{m}", r.match_number.to_string()), ("{n}", r.round_number.to_string())],
                        ),
                        fill_in(T["hist.round_label"], "{n}", r.round_number.to_string()),
                    ),
                    size="3",
                    as_="h3",
                ),
                rx.el.time(clock(r.at), date_time=r.at, style={"opacity": "0.7", "font_size": "0.8em"}),
                align="baseline",
                spacing="2",
            ),
            result_summary(r),
            rx.cond(  # VERIFICAR and REVER A RODADA: the record holds every hand, for the players
                UI.is_player,
                rx.hstack(
                    verify_button(r.round_number, match_number=r.record_match),
                    replay_button(r.round_number, match_number=r.record_match),
                    spacing="2",
                    wrap="wrap",
                ),
            ),
            spacing="2",
            width="100%",
        ),
        class_name="hist-round",
        style={"padding": "0.5em 0", "border_bottom": "1px solid rgba(255,255,255,0.15)"},
    )


def _rounds(prefix: str) -> rx.Component:
    """Every round of the table's matches that ended with a go-out, newest first: the ones
    every tab has, the older ones this viewer asked for, then RODADAS ANTERIORES
    (``older_rounds.py``) while the table has more."""
    return rx.cond(  # type: ignore[no-any-return]
        ROUNDS.length() > 0,
        rx.fragment(
            rx.el.ol(
                rx.foreach(ROUNDS, _past_round),
                older_items(_past_round),
                aria_label=T["hist.rounds_label"],
                tab_index=0,
                class_name="hist-rounds",
                style=LIST_STYLE,
            ),
            older_control(prefix),
        ),
        rx.text(T["hist.no_rounds"], size="2", style={"opacity": "0.8"}),
    )


def history_tabs(prefix: str) -> rx.Component:
    """LANCES and RODADAS in tabs (Radix: arrow keys between the tabs, only the open one mounted).

    ``prefix`` keeps the ids of the side panel and the dialog apart."""
    return rx.tabs.root(  # type: ignore[no-any-return]
        rx.tabs.list(
            rx.tabs.trigger(T["hist.tab_moves"], value="moves", id=f"{prefix}-tab-moves", style=FOCUS_RING),
            rx.tabs.trigger(
                T["hist.tab_rounds"], value="rounds", id=f"{prefix}-tab-rounds", style=FOCUS_RING
            ),
            size="1",
        ),
        rx.tabs.content(_moves(), value="moves", padding_top="0.5em"),
        rx.tabs.content(_rounds(prefix), value="rounds", padding_top="0.5em"),
        default_value="moves",
        width="100%",
    )


def history_live() -> rx.Component:
    """The newest line by someone else, in words, in a polite live region: one sentence at a
    time, replaced by the next, so a burst of bot moves is not read out line by line."""
    return polite_region(
        rx.cond(HIST.has_latest, line_text(HIST.latest, spoken=True), ""), id="history-live", atomic=True
    )


def history_side() -> rx.Component:
    """The side panel beside the table on a wide screen (hidden below Radix's ``md``)."""
    return rx.box(  # type: ignore[no-any-return]
        rx.heading(T["hist.title"], size="3", as_="h2", margin_bottom="0.4em"),
        history_tabs("side"),
        id="history-side",
        role="complementary",
        aria_label=T["hist.title"],
        display=rx.breakpoints(initial="none", md="block"),
        style={
            "background": "rgba(0,0,0,0.22)",
            "border_radius": "0.8em",
            "padding": "0.6em 0.8em",
            "position": "sticky",
            "top": "0.5em",
            # the panel ends with the board (assets/table.css: 100vh - 6em from the page's top),
            # so the page does not scroll: what is above the lines (the page's top, the panel's
            # heading and tabs, about 8.7rem) and below them (its foot and the page's, about
            # 3rem) in rem, since an em here is the smaller one of the lines' box, where the
            # height is used (a 9em margin left the panel's foot under the screen's edge)
            "--hist-height": "calc(100vh - 12rem)",
        },
    )


def history_button() -> rx.Component:
    """The history button (an icon named "Histórico") in the table's top line on a narrow
    screen: opens the panel in a dialog."""
    return rx.box(  # type: ignore[no-any-return]
        rx.dialog.root(
            rx.dialog.trigger(
                # an icon (named for screen readers and on hover): the top line of a 390 px
                # phone has no room for one more word beside DESISTIR and the pause menu
                rx.icon_button(
                    rx.icon("scroll-text", size=16),
                    size="1",
                    variant="soft",
                    color_scheme="amber",
                    aria_label=T["hist.title"],
                    title=T["hist.title"],
                    id="history-button",
                )
            ),
            rx.dialog.content(
                rx.flex(
                    rx.dialog.title(T["hist.title"], margin="0"),
                    rx.dialog.close(
                        rx.icon_button(
                            rx.icon("x", size=16),
                            variant="ghost",
                            color_scheme="gray",
                            aria_label=T["hist.close"],
                            id="history-close",
                        )
                    ),
                    justify="between",
                    align="center",
                    margin_bottom="0.5em",
                ),
                rx.dialog.description(T["hist.moves_label"], style=SR_ONLY),
                history_tabs("dialog"),
                id="history-dialog",
                max_width="32em",
                style={"--hist-height": "calc(100dvh - 12em)"},
            ),
        ),
        display=rx.breakpoints(initial="block", md="none"),
    )
