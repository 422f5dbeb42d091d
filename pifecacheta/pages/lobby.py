"""``/``: create a table (seed 000 lines 46-48), MINHAS MESAS (line 72), a link to the rules."""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.common import close_button, page_shell
from pifecacheta.components.focus import page_title
from pifecacheta.components.house_rules import lobby_house_rules
from pifecacheta.components.lobby_name import name_input, name_limit
from pifecacheta.components.my_tables import FOCUS_RING, my_tables
from pifecacheta.components.notices import lobby_signal
from pifecacheta.components.table.shared import fill_in
from pifecacheta.state.access import AccessState
from pifecacheta.state.lobby import LobbyState
from pifecacheta.state.my_tables import MyTablesState
from pifecacheta.state.viewer import ViewerState

# Reflex 0.10.1 exports its components (rx.box, rx.text, ...) untyped and types @rx.event
# handlers as EventNamespace: hence the narrow ignores on component returns and handler calls.


def _mode_choice(value: str, label_key: str, hint_key: str) -> rx.Component:
    """One game of the choice: a Radix radio card (a real radio: Space picks it, the arrows
    move to the next game and pick it), its name and a hint under it."""
    t = ViewerState.t
    return rx.radio_cards.item(  # type: ignore[no-any-return]
        rx.vstack(
            rx.text(t[label_key], weight="bold", size="4"),
            rx.text(t[hint_key], size="2", style={"opacity": "0.85"}),
            spacing="1",
            align="start",
        ),
        value=value,
        id=f"mode-{value}",
        style={
            "cursor": "pointer",
            "justify_content": "start",
            "text_align": "left",
            "background": rx.cond(LobbyState.mode == value, "rgba(255,210,127,0.18)", "rgba(0,0,0,0.2)"),
        },
    )


def rules_link() -> rx.Component:
    """REGRAS DO JOGO: a link to ``/regras`` (the rules page)."""
    return rx.link(  # type: ignore[no-any-return]
        ViewerState.t["rules.link"],
        href="/regras",
        id="rules-link",
        color_scheme="amber",
        style={"font_weight": "bold", **FOCUS_RING},
    )


def lobby_page() -> rx.Component:
    """The home page: name, game choice, CRIAR MESA; MINHAS MESAS (first on a phone when it
    lists any). From 62em (``assets/room.css``) a card room's lobby in two columns: CRIAR MESA
    at the left under a fan of cards, MINHAS MESAS and how a table goes at the right.

    MINHAS MESAS comes before CRIAR MESA in the page's order (the Tab order, a screen
    reader's reading order) when it lists any table, as a phone shows it: a returning player
    reaches their tables first; a newcomer reaches the name first (WCAG 1.3.2, 2.4.3)."""
    mine = MyTablesState.mine
    has_rows = (mine.recent.length() > 0) | (mine.old.length() > 0)
    return page_shell(
        entered_line(),
        lobby_signal(mine.act),  # "● Sua vez (2)" in the tab's title (state/notices.py)
        rx.flex(
            rx.cond(has_rows, _side(order="0")),
            _create_card(),
            rx.cond(~has_rows, _side(order="2", empty=True)),
            wrap="wrap",
            gap="1em",
            align="start",
            id="lobby",
            class_name="pfc-lobby",
            style={"margin": "1.5em auto"},
        ),
    )


def _side(order: str, *, empty: bool = False) -> rx.Component:
    """MINHAS MESAS and how a table goes (``.lobby-side``), at flex ``order`` on a phone;
    ``empty``: MINHAS MESAS lists no table yet, so on a wide screen it does not stretch to the
    create card's height and the two panels sit in the middle of the column
    (``assets/room.css``)."""
    return rx.box(  # type: ignore[no-any-return]
        my_tables(),
        lobby_steps(),
        class_name="lobby-side lobby-side-empty" if empty else "lobby-side",
        style={"order": order, "flex": "1 1 20em", "min_width": "0"},
    )


def entered_line() -> rx.Component:
    """After a personal link made this browser a player: "Você entrou como Ana" / "Entraste
    como Ana", with a close button, in a polite live region that is empty when it mounts (its
    ``on_mount`` brings the words, so that a screen reader says them)."""
    t = ViewerState.t
    return rx.box(  # type: ignore[no-any-return]
        rx.cond(
            AccessState.entered_as != "",
            rx.hstack(
                rx.text(
                    fill_in(t["access.entered"], "{name}", AccessState.entered_as),
                    size="2",
                    id="entered-text",
                ),
                rx.spacer(),
                close_button(
                    t["btn.continue"], AccessState.close_entered, id="entered-close", style={"color": "white"}
                ),
                align="center",
                width="100%",
                style={
                    "max_width": "40em",
                    "margin": "0.8em auto 0",
                    "padding": "0.5em 0.8em",
                    "border_radius": "0.6em",
                    "border": "1px solid #ffd27f",
                    "background": "rgba(0,0,0,0.35)",
                    "color": "white",
                },
            ),
        ),
        role="status",
        aria_live="polite",
        id="entered-as",
        on_mount=AccessState.say_entered,
    )


# The fan of cards over CRIAR MESA on a wide screen (decoration): a Cacheta hand's melds.
_FAN: tuple[tuple[str, str], ...] = (("7", "♣"), ("7", "♦"), ("7", "♥"), ("Q", "♠"), ("K", "♠"), ("A", "♠"))


def _fan() -> rx.Component:
    """A fan of six cards at the head of CRIAR MESA, hidden from screen readers (decoration)."""
    return rx.box(  # type: ignore[no-any-return]
        *(
            rx.el.span(rank, rx.el.br(), suit, class_name="lobby-card", data_red=str(suit in "♦♥").lower())
            for rank, suit in _FAN
        ),
        class_name="lobby-fan",
        aria_hidden="true",
    )


def lobby_steps() -> rx.Component:
    """How a table goes, in three steps (create, invite, play at one's own pace): the right
    column's foot on a wide screen, under MINHAS MESAS on a phone (``assets/room.css``)."""
    t = ViewerState.t
    return rx.box(  # type: ignore[no-any-return]
        rx.heading(t["lobby.steps_title"], size="4", as_="h2", id="lobby-steps-title"),
        rx.el.ol(
            *(rx.el.li(t[f"lobby.step{n}"]) for n in (1, 2, 3)),
            class_name="lobby-steps-list",
        ),
        id="lobby-steps",
        class_name="lobby-steps",
        role="region",
        aria_labelledby="lobby-steps-title",
    )


def _create_card() -> rx.Component:
    """The create-a-table card: tagline, rules link, name, game choice, house rules and Dicas,
    CRIAR MESA."""
    t = ViewerState.t
    return rx.box(  # type: ignore[no-any-return]
        rx.vstack(
            _fan(),
            rx.hstack(
                rx.text(t["app.tagline"], size="3", style={"opacity": "0.9"}),
                rules_link(),
                wrap="wrap",
                justify="between",
                width="100%",
                align="baseline",
            ),
            rx.heading(t["lobby.create_title"], size="6", **page_title()),
            rx.el.label(t["name.label"], html_for="name-input", style={"font_weight": "bold"}),
            name_input(
                "name-input",
                LobbyState.name_input,
                LobbyState.set_name_input,
                on_enter=LobbyState.create,  # Enter in the box: CRIAR MESA
                placeholder=t["name.placeholder"],
                size="3",
                width="100%",
            ),
            name_limit("name-input", LobbyState.name_input, t),  # "Até 24 letras · 7/24"
            rx.text(t["lobby.mode"], weight="bold", id="mode-label"),
            rx.radio_cards.root(
                _mode_choice("pife", "mode.pife", "mode.pife_hint"),
                _mode_choice("cacheta7", "mode.cacheta7", "mode.cacheta_hint"),
                _mode_choice("cacheta10", "mode.cacheta10", "mode.cacheta_hint"),
                value=LobbyState.mode,
                on_value_change=LobbyState.set_mode,
                aria_labelledby="mode-label",
                color_scheme="amber",
                columns=rx.breakpoints(initial="1", xs="3"),
                gap="0.6em",
                width="100%",
            ),
            lobby_house_rules(),  # Regras da casa (folded) and Dicas, all off
            rx.cond(
                LobbyState.message != "",
                rx.callout(t[LobbyState.message], color_scheme="red", role="alert", width="100%"),
            ),
            rx.button(
                t["btn.create"],
                on_click=LobbyState.create,
                size="4",
                color_scheme="amber",
                width="100%",
            ),
            # Meu acesso: continue on another device with the personal link
            rx.link(t["access.open"], href="/acesso", id="lobby-access", align_self="center"),
            spacing="3",
            style={
                "max_width": "34em",
                "margin": "0 auto",
                "padding": "1.2em",
                "border_radius": "1em",
                "background": "rgba(0,0,0,0.3)",
            },
        ),
        class_name="lobby-create",
        style={"order": "1", "flex": "1 1 20em", "min_width": "0"},
    )
