"""MINHAS MESAS / MIS MESAS: the lobby's list of this player's tables (state/my_tables.py).

Each row is one link to the table: the game, the seats, the status (SUA VEZ in amber first)
and the last move. The finished and expired tables older than 7 days are folded under MAIS
ANTIGAS. The list is a live region: a move elsewhere that changes it is announced politely.
"""

from __future__ import annotations

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.notices import notices_button
from pifecacheta.state.my_tables import MyTablesState, RowUi
from pifecacheta.state.viewer import ViewerState

CARD_STYLE: dict[str, str] = {
    "max_width": "34em",
    "width": "100%",
    "margin": "0 auto",
    "padding": "1.2em",
    "border_radius": "1em",
    "background": "rgba(0,0,0,0.3)",
}
FOCUS_RING: dict[str, object] = {
    "_focus_visible": {"outline": "3px solid #ffd27f", "outline_offset": "2px"},
}


def _row(row: ObjectVar[RowUi]) -> rx.Component:
    """One table: a link whose accessible name says all of it."""
    t = ViewerState.t
    return rx.link(  # type: ignore[no-any-return]
        rx.vstack(
            rx.hstack(
                rx.text(row.game, weight="bold"),
                rx.spacer(),
                rx.cond(
                    row.my_turn,
                    rx.badge(t["mine.your_turn"], color_scheme="amber", variant="solid", size="2"),
                    rx.cond(
                        row.absence,
                        rx.badge(t["mine.absence_badge"], color_scheme="orange", variant="solid", size="2"),
                    ),
                ),
                width="100%",
                align="center",
            ),
            rx.text(row.seats, size="2", style={"opacity": "0.9"}),
            rx.hstack(
                rx.text(row.status, size="2", weight=rx.cond(row.my_turn | row.absence, "bold", "regular")),
                rx.spacer(),
                rx.text(row.when, size="1", style={"opacity": "0.8", "white_space": "nowrap"}),
                width="100%",
                align="center",
                wrap="wrap",
            ),
            spacing="1",
            width="100%",
        ),
        href=row.href,
        aria_label=row.label,
        class_name="my-table",
        underline="none",
        width="100%",
        style={
            "display": "block",
            "box_sizing": "border-box",
            "color": "white",
            "padding": "0.6em 0.8em",
            "border_radius": "0.6em",
            "background": rx.cond(row.my_turn | row.absence, "rgba(255,210,127,0.16)", "rgba(0,0,0,0.22)"),
            "border": rx.cond(
                row.my_turn,
                "2px solid #ffd27f",
                rx.cond(row.absence, "2px solid #ffa057", "2px solid transparent"),
            ),
            **FOCUS_RING,
        },
    )


def my_tables() -> rx.Component:
    """The MINHAS MESAS card: its title with AVISOS DA VEZ, recent rows, the empty-state
    line, MAIS ANTIGAS and its rows."""
    t = ViewerState.t
    mine = MyTablesState.mine
    recent, old = mine.recent, mine.old
    return rx.vstack(  # type: ignore[no-any-return]
        rx.hstack(
            rx.heading(t["mine.title"], size="5", as_="h2", id="my-tables-title"),
            rx.spacer(),
            # Avisos da vez: the lobby promises that the page tells whose turn it is
            notices_button("lobby-notices-button", with_text=True),
            width="100%",
            align="center",
            wrap="wrap",
        ),
        rx.cond(
            (recent.length() == 0) & (old.length() == 0),
            rx.text(t["mine.none"], size="2", style={"opacity": "0.85"}, id="my-tables-none"),
        ),
        rx.vstack(
            rx.foreach(recent, _row),
            width="100%",
            spacing="2",
            id="my-tables",
            role="region",
            aria_labelledby="my-tables-title",
            aria_live="polite",
        ),
        rx.cond(
            old.length() > 0,
            rx.vstack(
                rx.button(
                    rx.cond(MyTablesState.show_old, "▾ ", "▸ ")
                    + t["mine.older"]
                    + " ("
                    + old.length().to_string()
                    + ")",
                    on_click=MyTablesState.toggle_old,
                    variant="ghost",
                    color_scheme="gray",
                    aria_expanded=rx.cond(MyTablesState.show_old, "true", "false"),
                    aria_controls="my-tables-old",
                    id="my-tables-older",
                    style={"color": "white", **FOCUS_RING},
                ),
                rx.cond(
                    MyTablesState.show_old,
                    rx.vstack(rx.foreach(old, _row), width="100%", spacing="2", id="my-tables-old"),
                ),
                width="100%",
                spacing="2",
            ),
        ),
        spacing="3",
        style=CARD_STYLE,
    )
