"""The waiting room (invite link, the table's rules, the four seats, SENTAR À MESA, get up,
the creator's remove / + ROBÔ / COMPLETAR COM ROBÔS / COMEÇAR) and the expired room.

Nobody sits without pressing SENTAR À MESA; before the start a seated player may get up
(LEVANTAR) and the creator may remove any other seat (seed 000 lines 46, 50, 70)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_base.vars import ObjectVar

from pifecacheta.components.focus import HAND_STOP, page_title, want_focus
from pifecacheta.components.lobby_name import name_input, name_limit
from pifecacheta.components.my_tables import FOCUS_RING
from pifecacheta.components.table.messages import message_callout
from pifecacheta.components.table.shared import NAME_STYLE, UI, T, badge, fill, new_table_link
from pifecacheta.components.table.verify import deal_panel
from pifecacheta.components.table_rules import table_rules
from pifecacheta.state.table import TableState
from pifecacheta.state.ui_values import SeatUi

# The waiting room and the expired room: a dark card in the middle of the felt.
ROOM_STYLE: dict[str, str] = {
    "max_width": "36em",
    "margin": "1em auto",
    "padding": "1.1em",
    "border_radius": "1em",
    "background": "rgba(0,0,0,0.3)",
}


def _seat_button(seat: ObjectVar[SeatUi]) -> rx.Component:
    """LEVANTAR on my own seat (not the creator's), TIRAR on another seat for the creator;
    only in the waiting room."""
    lobby = UI.status == "lobby"
    mine = seat.is_me & ~seat.creator
    theirs = UI.is_creator & ~seat.is_me & ~seat.empty
    return rx.cond(  # type: ignore[no-any-return]
        lobby & (mine | theirs),
        rx.button(
            rx.cond(mine, T["btn.stand_up"], T["btn.remove_seat"]),
            on_click=rx.cond(mine, TableState.leave_seat, TableState.remove_seat(seat.seat)),  # type: ignore[operator]
            aria_label=rx.cond(mine, T["btn.stand_up"], fill("seat.remove_label", seat.name)),
            size="1",
            variant="soft",
            color_scheme=rx.cond(mine, "gray", "red"),
            class_name="seat-button",
            style={"flex_shrink": "0", **FOCUS_RING},
        ),
    )


# Where each seat sits around the waiting room's felt on a wide screen (``assets/room.css``):
# from the viewer at the bottom in the order of play, the next seat at the viewer's right, as
# at the table (state/ui_values.py: seat_place); a visitor sees seat 1 at the bottom.
_ROOM_PLACES = rx.Var.create(["bottom", "right", "top", "left"])


def room_place(seat: ObjectVar[SeatUi]) -> rx.Var[str]:
    """The place of ``seat`` around the waiting room's felt: "bottom", "left", "top" or "right"."""
    base = rx.cond(UI.my_seat >= 0, UI.my_seat, 0)  # type: ignore[operator]
    place: rx.Var[str] = _ROOM_PLACES[(seat.seat - base + 4) % 4].to(str)
    return place


def lobby_seat(seat: ObjectVar[SeatUi]) -> rx.Component:
    """One seat of the waiting room: its number, then LIVRE or the name with its badges, and
    LEVANTAR / TIRAR (:func:`_seat_button`). A row on a phone; on a wide screen a chair around
    the felt (``data-place``, ``assets/room.css``)."""
    return rx.hstack(  # type: ignore[no-any-return]
        # the seat number's column keeps its width beside a long name: the names line up
        rx.text(seat.seat + 1, weight="bold", style={"width": "1.4em", "flex_shrink": "0", "opacity": "0.7"}),  # type: ignore[operator]
        rx.cond(
            seat.empty,
            rx.text(T["seat.free"], style={"opacity": "0.6", "font_style": "italic"}),
            rx.hstack(
                rx.text(seat.name, weight="bold", class_name="seat-name", style=NAME_STYLE),
                rx.cond(seat.is_me, badge(T["badge.you"], "amber")),
                rx.cond(seat.is_bot, badge(T["badge.bot"], "gray")),
                rx.cond(seat.creator, badge(T["badge.creator"], "green")),
                spacing="2",
                align="center",
                style={"min_width": "0"},
            ),
        ),
        rx.spacer(),
        _seat_button(seat),
        align="center",
        padding="0.4em 0.6em",
        style={"background": "rgba(0,0,0,0.2)", "border_radius": "0.5em", "min_width": "0"},
        width="100%",
        class_name="lobby-seat",
        custom_attrs={"data-place": room_place(seat), "data-empty": rx.cond(seat.empty, "true", "false")},
    )


def _title() -> rx.Component:
    """MESA · the mode, with the starting lives in Cacheta."""
    return rx.heading(  # type: ignore[no-any-return]
        T["lobby.title"]
        + " · "
        + rx.cond(
            UI.mode == "pife",
            T["mode.pife"],
            T["mode.cacheta"] + " · " + UI.lives_start.to_string() + " " + T["table.lives"],
        ),
        size="5",
        **page_title(),
    )


def _invite() -> list[rx.Component]:
    """The invite link, its copy button and the hint under it."""
    return [
        rx.el.label(T["invite.label"], html_for="invite-url", style={"font_weight": "bold"}),
        rx.hstack(
            rx.input(value=TableState.invite_url, read_only=True, id="invite-url", width="100%", size="2"),
            rx.button(
                T["btn.copy"],
                on_click=[rx.set_clipboard(TableState.invite_url), rx.toast(T["invite.copied"])],
                color_scheme="amber",
            ),
            width="100%",
        ),
        rx.hstack(
            # WhatsApp, where most Brazilian tables are arranged; and the system share sheet
            rx.button(  # a link that looks like a button (Radix asChild): one control, not two
                rx.link(
                    rx.icon("message-circle", size=16),
                    T["btn.whatsapp"],
                    href=TableState.whatsapp_url,
                    is_external=True,
                    aria_label=T["invite.whatsapp_label"],
                    id="share-whatsapp",
                ),
                as_child=True,
                color_scheme="green",
            ),
            rx.button(
                rx.icon("share-2", size=16),
                T["btn.share"],
                on_click=TableState.share,
                variant="soft",
                color_scheme="amber",
                aria_label=T["invite.share_label"],
                id="share-link",
            ),
            wrap="wrap",
        ),
        rx.text(T["invite.hint"], size="2", style={"opacity": "0.85"}),
    ]


def _sit_form() -> rx.Component:
    """The name field and SENTAR À MESA, for a visitor while a seat is free."""
    need_name = (UI.my_seat < 0) & (UI.seated < 4) & (UI.status == "lobby")  # type: ignore[operator]
    return rx.cond(  # type: ignore[no-any-return]
        need_name,
        rx.vstack(
            rx.el.label(T["name.label"], html_for="join-name", style={"font_weight": "bold"}),
            rx.hstack(
                name_input(  # Enter in the box: SENTAR À MESA
                    "join-name",
                    TableState.join_name,
                    TableState.set_join_name,
                    on_enter=TableState.sit,
                    width="100%",
                ),
                rx.button(T["btn.sit"], on_click=TableState.sit, color_scheme="green"),
                width="100%",
            ),
            name_limit("join-name", TableState.join_name, T),  # "Até 24 letras · 7/24"
            width="100%",
        ),
    )


def _creator_controls() -> rx.Component:
    """COMEÇAR and COMPLETAR COM ROBÔS for the creator; for the others, who they wait for."""
    return rx.cond(  # type: ignore[no-any-return]
        UI.is_creator,
        rx.vstack(
            rx.cond(UI.seated < 2, rx.text(T["lobby.need_two"], size="2")),  # type: ignore[operator]
            rx.hstack(
                rx.button(
                    T["btn.start"],
                    on_click=[TableState.start, want_focus(HAND_STOP)],
                    disabled=~UI.can_start,
                    size="3",
                    color_scheme="amber",
                    id="start-button",
                ),
                # not offered once the four seats are taken (nothing left to fill)
                rx.cond(
                    UI.seated < 4,  # type: ignore[operator]
                    rx.fragment(
                        _bot_button(
                            T["btn.add_one_bot"],
                            TableState.add_one_bot,
                            "add-one-bot",
                            T["btn.add_one_bot_label"],
                        ),
                        _bot_button(T["btn.add_bots"], TableState.add_bots, "add-bots"),
                    ),
                ),
                wrap="wrap",
            ),
            width="100%",
        ),
        rx.text(
            rx.cond(UI.my_seat >= 0, T["lobby.wait_creator"], T["lobby.you_watch"]),  # type: ignore[operator]
            size="2",
        ),
    )


def waiting_room() -> rx.Component:
    """The title, the table's rules, SENTAR À MESA (for a visitor), the creator's controls and
    the four seats, the invite link with its copy and share buttons, the deal's codes.

    A column on a phone, in that order; from 62em (``assets/room.css``) a card room: the four
    seats around a felt like the table's with COMEÇAR in its middle, SENTAR À MESA and the
    invite tools beside it. Each part is a box of its own class (``room-*``), a grid area."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.vstack(_title(), table_rules(), spacing="3", width="100%", class_name="room-head"),
        # an invited guest first reads how to sit down, then the host's tools to invite others
        rx.vstack(
            _sit_form(),
            message_callout(),  # a refused sit (bad name, no seat left) says why here too
            spacing="3",
            width="100%",
            class_name="room-sit",
        ),
        # the creator's controls early in the page's order (the Tab order): COMEÇAR, + ROBÔ and
        # COMPLETAR COM ROBÔS before the seats and the invite tools; on a wide screen the grid
        # areas of assets/room.css still place them in the felt's middle
        rx.box(
            rx.text(T["lobby.seats"], weight="bold", role="heading", aria_level=2, class_name="room-label"),
            rx.box(_creator_controls(), class_name="room-centre"),
            rx.box(class_name="room-felt", aria_hidden="true"),
            rx.vstack(rx.foreach(UI.seats, lobby_seat), width="100%", spacing="2", class_name="room-seats"),
            class_name="room-table",
        ),
        rx.vstack(*_invite(), spacing="3", width="100%", class_name="room-invite"),
        rx.box(deal_panel(), class_name="room-deal"),  # the commitment of round 1, this seat's part
        spacing="3",
        id="room",
        class_name="pfc-room",
        style=ROOM_STYLE,
    )


def expired_room() -> rx.Component:
    """A table that expired in the waiting room (7 days without any activity, seed 000 line 72):
    who was seated, why it is closed, and NOVA MESA. Shown instead of "not found"."""
    return rx.vstack(  # type: ignore[no-any-return]
        rx.heading(
            T["lobby.title"] + " · " + rx.cond(UI.mode == "pife", T["mode.pife"], T["mode.cacheta"]),
            size="5",
            **page_title(),
        ),
        rx.callout(T["table.expired"], color_scheme="gray", icon="clock", id="table-expired", width="100%"),
        rx.vstack(
            rx.foreach(UI.seats, lambda seat: rx.cond(seat.empty, rx.fragment(), lobby_seat(seat))),
            width="100%",
            spacing="2",
        ),
        new_table_link(),
        spacing="3",
        style=ROOM_STYLE,
    )


def _bot_button(label: Any, on_click: Any, button_id: str, aria_label: Any = None) -> rx.Component:
    """+ ROBÔ or COMPLETAR COM ROBÔS: the creator's grey button, enabled while a bot may sit."""
    named = {"aria_label": aria_label} if aria_label is not None else {}
    return rx.button(  # type: ignore[no-any-return]
        label,
        on_click=[on_click, want_focus("#start-button")],  # COMEÇAR: the next thing to press
        disabled=~UI.can_add_bots,
        size="3",
        variant="soft",
        color_scheme="gray",
        id=button_id,
        **named,
    )
