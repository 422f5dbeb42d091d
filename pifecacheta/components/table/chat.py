"""The table chat: seated players write, spectators read (seed 000 line 74).

The lines are ``TableState.chat_lines`` (``state/table_view.py``), a var of their own that
Reflex sends only when a line was added, not ``TableState.ui`` (which every move sends again),
drawn by :func:`chat_lines_box`, a React ``memo`` component: the table's other changes (a move)
render the page around it again but none of its lines."""

from __future__ import annotations

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.table.messages import message_style
from pifecacheta.components.table.shared import UI, WRAP_STYLE, T
from pifecacheta.state.table import TableState
from pifecacheta.state.ui_values import ChatUi


def chat_line(line: ObjectVar[ChatUi]) -> rx.Component:
    """One chat line (a ``ChatUi`` Var): its time, the name and the text. The text is rendered
    as a text node, never as markup (seed 000 line 74)."""
    return rx.flex(  # type: ignore[no-any-return]
        # when it was said, in the browser's time zone (a match spans days): a <time> element
        rx.moment(
            line.at,
            format="DD/MM HH:mm",
            class_name="chat-time",
            style={"opacity": "0.65", "font_size": "0.75em", "white_space": "nowrap", "flex_shrink": "0"},
        ),
        rx.text(
            rx.text(line.name, ": ", as_="span", weight="bold"),
            line.text,
            size="2",
            class_name="chat-line",
            style=WRAP_STYLE,
        ),
        gap="0.4em",
        align="baseline",
    )


@rx.memo
def chat_lines_box(lines: rx.Var[list[ChatUi]]) -> rx.Component:
    """The chat's lines (``TableState.chat_lines``), oldest first. A React ``memo`` component
    (``rx.memo``): rendered again only when ``lines`` is another array, i.e. when the delta
    brought new lines (the page keeps an unchanged value's identity); every change of
    ``TableState`` (each move) would otherwise render each line and its ``rx.moment`` again."""
    return rx.box(rx.foreach(lines, chat_line), width="100%")  # type: ignore[no-any-return]


def _chat_form() -> rx.Component:
    """The input and ENVIAR for a seated player; a spectator reads that it may only read."""
    return rx.cond(  # type: ignore[no-any-return]
        UI.is_player,
        rx.form(
            rx.hstack(
                rx.input(
                    name="text",
                    id="chat-input",
                    placeholder=T["chat.placeholder"],
                    aria_label=T["chat.placeholder"],
                    max_length=200,
                    width="100%",
                    size="1",
                ),
                rx.button(T["btn.send"], type="submit", size="1", variant="soft"),
                width="100%",
            ),
            on_submit=TableState.send_chat,
            reset_on_submit=False,
            width="100%",
        ),
        rx.text(T["chat.spectator"], size="1", style={"opacity": "0.7"}),
    )


def _chat_refusal() -> rx.Component:
    """A refused chat line (too long, too fast, empty, a spectator): said inside the chat box."""
    return rx.cond(  # type: ignore[no-any-return]
        TableState.message_in_chat,
        rx.callout(
            T[TableState.message],
            color_scheme="red",
            role="alert",
            id="chat-message",
            key=TableState.message_serial,
            size="1",
            width="100%",
            on_click=TableState.clear_message(TableState.message_serial),  # type: ignore[operator]
            style=message_style(),
        ),
    )


def chat() -> rx.Component:
    """The table chat (``#chat``): the lines (``#chat-log``, showing the newest), the form,
    and the chat's own refusals."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.text(T["chat.title"], weight="bold", size="2", role="heading", aria_level=2),
        # The lines stand at the bottom of a reversed flex box (CSS only): it opens on the
        # newest line and follows each new one, and a reader who scrolled up to older lines
        # stays there (the browser's scroll anchoring). No script reads the box's layout on
        # the table's every change, as a scroll-following effect would.
        rx.box(
            chat_lines_box(lines=TableState.chat_lines),
            style={
                # a phone's narrow box shows the longest line (200 letters) whole, its time and
                # author included; a wide one shows it in 8em
                "max_height": rx.breakpoints(initial="11em", md="8em"),
                "overflow_y": "auto",
                "display": "flex",
                "flex_direction": "column-reverse",
                "&:focus-visible": {"outline": "2px solid #ffd27f", "outline_offset": "2px"},
            },
            width="100%",
            role="log",  # a new line is read out politely (WCAG 4.1.3)
            aria_label=T["chat.title"],
            tab_index=0,  # a keyboard scrolls it to older lines
            id="chat-log",
        ),
        _chat_form(),
        _chat_refusal(),
        width="100%",
        spacing="1",
        id="chat",
        style={"background": "rgba(0,0,0,0.22)", "border_radius": "0.8em", "padding": "0.5em 0.7em"},
    )
