"""``/mesa/<code>``: the waiting room, the table, FIM DA RODADA and the end of the match."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from pifecacheta.components.cards import DnDDiv, card_back, card_face, empty_slot
from pifecacheta.components.common import page_shell, toast_style
from pifecacheta.state.session import Session
from pifecacheta.state.table import TableState

UI = TableState.ui
T = Session.t
# The card tapped in the hand, waiting for a tap on the discard pile: kept in the browser
# (React state shared by the hand, the pile and the status line), sent to the server only with
# the tap on the pile (TableState.pile_click). A tap on a card is instant, and a double-click's
# two clicks send nothing ahead of the discard.
SELECTED = ClientStateVar.create("pfc_selected", default="")
# The message_serial of the refusal the viewer dismissed by tapping a card (browser only): a
# tap is the viewer acting again, so the refusal goes at once, without a round trip.
DISMISSED = ClientStateVar.create("pfc_dismissed", default=-1)


def _fill(key: str, name: Any) -> Any:
    """A catalog text with ``{name}`` filled in (client side)."""
    return T[key].replace("{name}", name)


# A player's name on one line, cut with "…" when it does not fit (a 24-letter name without
# spaces must not push a 390 px phone screen sideways); ``min_width: 0`` lets a flex row shrink it.
NAME_STYLE: dict[str, str] = {
    "white_space": "nowrap",
    "overflow": "hidden",
    "text_overflow": "ellipsis",
    "min_width": "0",
}
# Free text (chat lines, sentences holding a name): breaks anywhere rather than overflow.
WRAP_STYLE: dict[str, str] = {"overflow_wrap": "anywhere", "word_break": "break-word", "min_width": "0"}


# The waiting room and the expired room: a dark card in the middle of the felt.
ROOM_STYLE: dict[str, str] = {
    "max_width": "36em",
    "margin": "1em auto",
    "padding": "1.1em",
    "border_radius": "1em",
    "background": "rgba(0,0,0,0.3)",
}


# A refusal (a toast over the top of the page) is shown until the viewer acts again, for at most
# MESSAGE_SHOWN, or MESSAGE_LINGER once the table changed (its table_version moves on); then
# this CSS animation hides it, so it never keeps covering the seats and the top buttons (no
# server timer: the browser runs it; each refusal is a new element, so its timer starts afresh).
MESSAGE_SHOWN = "8s"
MESSAGE_LINGER = "3s"
_HIDE_KEYFRAMES = (
    "@keyframes pfc-hide {to {opacity: 0; visibility: hidden; height: 0; padding: 0; margin: 0; "
    "overflow: hidden; border: 0}}"
)


def _new_table_link() -> rx.Component:
    """NOVA MESA: the way back to the lobby to create a table of one's own (a closed or missing
    table, a spectator or a match without rematch at the end)."""
    return rx.link(T["btn.new_table"], href="/", color_scheme="amber")


def _message_style(**extra: Any) -> dict[str, Any]:
    """Style of a refusal callout: fades out after MESSAGE_SHOWN, or MESSAGE_LINGER after the
    table changed."""
    fresh = TableState.message_version == TableState.table_version
    delay = rx.cond(fresh, MESSAGE_SHOWN, MESSAGE_LINGER)
    return {**extra, "animation": "pfc-hide 0.3s ease " + delay + " forwards"}


def _badge(text: Any, colour: str, **props: Any) -> rx.Component:
    return rx.badge(text, color_scheme=colour, variant="solid", size="1", **props)


# ---- the waiting room -----------------------------------------------------------------------
def _lobby_seat(seat: Any) -> rx.Component:
    return rx.hstack(
        rx.text(seat.seat + 1, weight="bold", style={"width": "1.4em", "opacity": "0.7"}),
        rx.cond(
            seat.empty,
            rx.text(T["seat.free"], style={"opacity": "0.6", "font_style": "italic"}),
            rx.hstack(
                rx.text(seat.name, weight="bold", class_name="seat-name", style=NAME_STYLE),
                rx.cond(seat.is_me, _badge(T["badge.you"], "amber")),
                rx.cond(seat.is_bot, _badge(T["badge.bot"], "gray")),
                rx.cond(seat.creator, _badge(T["badge.creator"], "green")),
                spacing="2",
                align="center",
                style={"min_width": "0"},
            ),
        ),
        align="center",
        padding="0.4em 0.6em",
        style={"background": "rgba(0,0,0,0.2)", "border_radius": "0.5em", "min_width": "0"},
        width="100%",
        class_name="lobby-seat",
    )


def waiting_room() -> rx.Component:
    """Invite link with a copy button, the four seats, sit / start / add robots."""
    need_name = (UI.my_seat < 0) & (UI.seated < 4) & (UI.status == "lobby")
    return rx.vstack(
        rx.heading(
            T["lobby.title"]
            + " · "
            + rx.cond(
                UI.mode == "pife",
                T["mode.pife"],
                T["mode.cacheta"] + " · " + UI.lives_start.to_string() + " " + T["table.lives"],
            ),
            size="5",
        ),
        rx.text(T["invite.label"], weight="bold"),
        rx.hstack(
            rx.input(value=TableState.invite_url, read_only=True, id="invite-url", width="100%", size="2"),
            rx.button(
                T["btn.copy"],
                on_click=[rx.set_clipboard(TableState.invite_url), rx.toast(T["invite.copied"])],
                color_scheme="amber",
            ),
            width="100%",
        ),
        rx.text(T["invite.hint"], size="2", style={"opacity": "0.85"}),
        rx.text(T["lobby.seats"], weight="bold"),
        rx.vstack(rx.foreach(UI.seats, _lobby_seat), width="100%", spacing="2"),
        rx.cond(
            need_name,
            rx.vstack(
                rx.text(T["name.label"], as_="label", html_for="join-name", weight="bold"),
                rx.hstack(
                    rx.input(
                        id="join-name",
                        value=TableState.join_name,
                        on_change=TableState.set_join_name,
                        max_length=24,
                        width="100%",
                    ),
                    rx.button(T["btn.sit"], on_click=TableState.sit, color_scheme="green"),
                    width="100%",
                ),
                width="100%",
            ),
        ),
        _message_callout(),  # a refused sit (bad name, no seat left) says why here too
        rx.cond(
            UI.is_creator,
            rx.vstack(
                rx.cond(UI.seated < 2, rx.text(T["lobby.need_two"], size="2")),
                rx.hstack(
                    rx.button(
                        T["btn.start"],
                        on_click=TableState.start,
                        disabled=~UI.can_start,
                        size="3",
                        color_scheme="amber",
                    ),
                    # not offered once the four seats are taken (nothing left to fill)
                    rx.cond(
                        UI.seated < 4,
                        rx.button(
                            T["btn.add_bots"],
                            on_click=TableState.add_bots,
                            disabled=~UI.can_add_bots,
                            size="3",
                            variant="soft",
                            color_scheme="gray",
                            id="add-bots",
                        ),
                    ),
                    wrap="wrap",
                ),
                width="100%",
            ),
            rx.text(rx.cond(UI.my_seat >= 0, T["lobby.wait_creator"], T["lobby.you_watch"]), size="2"),
        ),
        spacing="3",
        style=ROOM_STYLE,
    )


def expired_room() -> rx.Component:
    """A table that expired in the waiting room (7 days without any activity, seed 000 line 72):
    who was seated, why it is closed, and NOVA MESA. Shown instead of "not found"."""
    return rx.vstack(
        rx.heading(
            T["lobby.title"] + " · " + rx.cond(UI.mode == "pife", T["mode.pife"], T["mode.cacheta"]),
            size="5",
        ),
        rx.callout(T["table.expired"], color_scheme="gray", icon="clock", id="table-expired", width="100%"),
        rx.vstack(
            rx.foreach(UI.seats, lambda seat: rx.cond(seat.empty, rx.fragment(), _lobby_seat(seat))),
            width="100%",
            spacing="2",
        ),
        _new_table_link(),
        spacing="3",
        style=ROOM_STYLE,
    )


# ---- the table --------------------------------------------------------------------------------
def _seat_panel(seat: Any) -> rx.Component:
    """Name, card count, lives, NA BOA, dealer marker, FORA of one seat."""
    return rx.box(
        rx.hstack(
            rx.text(
                seat.name,
                weight="bold",
                size="2",
                class_name="seat-name",
                style={**NAME_STYLE, "max_width": "9em"},
            ),
            rx.cond(
                seat.dealer,
                rx.tooltip(_badge("D", "gray", aria_label=T["badge.dealer"]), content=T["badge.dealer"]),
            ),
            spacing="1",
            align="center",
        ),
        rx.hstack(
            rx.hstack(
                rx.icon("layers", size=14),
                rx.text(seat.cards, size="2"),
                spacing="1",
                align="center",
                aria_label=seat.cards.to_string() + " " + T["table.cards"],
                class_name="seat-cards",
            ),
            rx.cond(
                UI.mode == "cacheta",
                rx.hstack(
                    rx.icon("heart", size=14, color="#ff8a8a"),
                    rx.text(seat.lives, size="2"),
                    spacing="1",
                    align="center",
                    aria_label=seat.lives.to_string() + " " + _lives_word(seat.lives),
                    class_name="seat-lives",
                ),
            ),
            spacing="3",
        ),
        rx.flex(
            rx.cond(
                seat.winner,
                rx.badge(
                    rx.icon("trophy", size=12),
                    color_scheme="amber",
                    variant="solid",
                    size="1",
                    class_name="winner-badge",
                ),
            ),
            rx.cond(seat.is_me, _badge(T["badge.you"], "amber")),
            rx.cond(seat.turn, _badge(T["badge.turn"], "yellow")),
            rx.cond(seat.announced, _badge(T["badge.na_boa"], "orange")),
            rx.cond(seat.out, _badge(T["badge.out"], "red")),
            rx.cond(seat.left, _badge(T["badge.left"], "gray")),
            rx.cond(seat.is_bot, _badge(T["badge.bot"], "gray")),
            gap="0.25em",
            wrap="wrap",
        ),
        class_name="seat",
        custom_attrs={"data-seat": seat.seat.to_string()},
        style={
            "padding": "0.35em 0.6em",
            "border_radius": "0.6em",
            "min_width": "7.5em",
            "max_width": "100%",
            "background": rx.cond(seat.turn, "rgba(255,215,0,0.28)", "rgba(0,0,0,0.28)"),
            "border": rx.cond(seat.turn, "2px solid #ffd700", "2px solid transparent"),
            "opacity": rx.cond(seat.out | seat.left, "0.6", "1"),
        },
    )


def _centre() -> rx.Component:
    """Stock with its count, the discard pile with its top card, the vira and the wild."""
    stock = rx.vstack(
        rx.box(
            card_back(size="lg"),
            on_click=TableState.draw(UI.version),
            role="button",
            aria_label=T["table.stock"] + " " + UI.stock_size.to_string(),
            custom_attrs={"data-testid": "stock"},
            style={"cursor": rx.cond(UI.can_draw, "pointer", "default")},
        ),
        rx.text(T["table.stock"], " · ", UI.stock_size, size="1"),
        align="center",
        spacing="1",
    )
    pile = rx.vstack(
        DnDDiv.create(
            rx.cond(
                UI.has_discard, card_face(UI.discard_top, size="lg"), empty_slot(T["table.discard_empty"])
            ),
            # the card goes with the event, THEN the selection is cleared (the chain runs in order)
            on_click=[TableState.pile_click(UI.version, UI.phase, SELECTED.value), SELECTED.set_value("")],
            on_drag_over=rx.prevent_default,
            on_drop=[TableState.drop_on_pile(UI.version).prevent_default, SELECTED.set_value("")],
            role="button",
            aria_label=T["table.discard"],
            custom_attrs={"data-testid": "discard"},
            style={
                "cursor": "pointer",
                "padding": "0.3em",
                "border_radius": "0.6em",
                "outline": rx.cond((SELECTED.value != "") & UI.can_discard, "3px dashed #ffd27f", "none"),
            },
        ),
        rx.text(T["table.discard"], " · ", UI.discard_count, size="1"),
        align="center",
        spacing="1",
    )
    vira = rx.cond(
        UI.has_vira,
        rx.hstack(
            rx.vstack(
                card_face(UI.vira, size="sm"),
                rx.text(T["table.vira"], size="1"),
                align="center",
                spacing="1",
                custom_attrs={"data-testid": "vira"},
            ),
            rx.vstack(
                card_face(UI.wild, size="sm"),
                rx.text(T["table.wild"], size="1"),
                align="center",
                spacing="1",
                custom_attrs={"data-testid": "wild"},
            ),
            spacing="2",
        ),
    )
    return rx.hstack(
        stock,
        pile,
        vira,
        spacing="5",
        justify="center",
        align="end",
        wrap="wrap",
        padding="0.8em 0",
        style={"font_size": rx.breakpoints(initial="16px", md="19px")},
    )


def _hand_card(card: Any) -> rx.Component:
    """One card of the hand: a tap selects it (lifted), a double tap discards it.

    The handlers sit on a box that never moves; only the face inside it is lifted. If the
    element under the finger moved on the first tap, the second tap of a double tap (and the
    browser's dblclick) could land on the card below it and discard that one instead.
    """
    selected = SELECTED.value == card.id
    face = card_face(
        card,
        size="md",
        id="card-" + card.id,  # with data-card: the stable hooks of the tests
        style={
            "transform": rx.cond(selected, "translateY(-0.7em)", "none"),
            "outline": rx.cond(
                selected, "3px solid #ffd27f", rx.cond(card.taken, "2px solid #5fb3ff", "none")
            ),
            "transition": "transform 0.12s",
        },
    )
    return DnDDiv.create(
        face,
        draggable=True,
        on_drag_start=TableState.drag_start(card.id),
        # tap: select this card, or unselect it when it already is (browser only)
        on_click=[
            SELECTED.set_value(rx.cond(selected, "", card.id)),
            DISMISSED.set_value(TableState.message_serial),
        ],
        on_double_click=[SELECTED.set_value(""), TableState.card_double(card.id, UI.version)],
        tab_index=0,
        class_name="hand-card",
        style={"cursor": "pointer", "flex_shrink": "0", "border_radius": "0.4em"},
    )


def _status_line() -> rx.Component:
    text = rx.cond(
        ~UI.is_player,
        T["turn.spectator"],
        rx.cond(
            UI.i_am_out,
            T["turn.out"],
            rx.cond(
                UI.can_draw,
                T["turn.draw"],
                rx.cond(
                    UI.can_discard,
                    rx.cond(SELECTED.value != "", T["turn.selected"], T["turn.discard"]),
                    _fill("turn.other", UI.turn_name),
                ),
            ),
        ),
    )
    cell = {"grid_area": "1 / 1", "text_align": "center", "min_height": "1.5em"}
    # Selecting a card swaps the discard hint for a shorter one; the hand below must not move
    # up meanwhile (on a phone the second tap of a double tap would land on the card under
    # it). An invisible copy of the longer hint shares the grid cell, so the line keeps its
    # height for the whole discard phase.
    sizer = rx.text(
        rx.cond(UI.can_discard, T["turn.discard"], ""),
        size="3",
        weight="medium",
        aria_hidden="true",
        style={**cell, "visibility": "hidden"},
    )
    line = rx.text(text, size="3", weight="medium", id="status-line", role="status", style=cell)
    return rx.box(sizer, line, style={"display": "grid", "width": "100%"})


def _actions() -> rx.Component:
    return rx.flex(
        rx.button(
            T["btn.draw"],
            on_click=TableState.draw(UI.version),
            disabled=~UI.can_draw,
            color_scheme="amber",
            size="3",
        ),
        rx.button(
            T["btn.take"],
            on_click=TableState.take(UI.version),
            disabled=~UI.can_draw | ~UI.has_discard,
            color_scheme="amber",
            size="3",
        ),
        rx.button(
            T["btn.go_out"],
            on_click=TableState.go_out(UI.version),
            disabled=~UI.can_go_out,  # enabled only when the hand can go out now
            color_scheme="green",
            size="3",
        ),
        rx.cond(
            UI.can_announce,
            rx.button(
                T["btn.announce"], on_click=TableState.announce(UI.version), color_scheme="orange", size="3"
            ),
        ),
        gap="0.5em",
        wrap="wrap",
        justify="center",
    )


def _hand() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.text(T["hand.title"], weight="bold"),
            rx.spacer(),
            rx.button(
                rx.cond(Session.by_rank, T["btn.sort_suit"], T["btn.sort_rank"]),
                on_click=Session.toggle_sort,
                size="1",
                variant="soft",
                color_scheme="gray",
                id="sort-toggle",
            ),
            width="100%",
            align="center",
        ),
        rx.flex(
            rx.cond(
                Session.by_rank,
                rx.foreach(UI.hand_by_rank, _hand_card),
                rx.foreach(UI.hand_by_suit, _hand_card),
            ),
            wrap="wrap",
            justify="center",
            width="100%",
            id="hand",
            # rows further apart than the lift of a selected card (0.7em): a lifted card of the
            # second row does not cover the card above it
            style={"padding_top": "0.8em", "column_gap": "0.35em", "row_gap": "0.9em"},
        ),
        width="100%",
        spacing="1",
        style={
            "background": "rgba(0,0,0,0.22)",
            "border_radius": "0.8em",
            "padding": "0.5em 0.6em 0.8em",
            "font_size": rx.breakpoints(initial="16px", md="20px"),
        },
    )


def _confirm(
    trigger: rx.Component,
    title: Any,
    body: Any,
    action_label: Any,
    on_confirm: Any,
    *,
    dialog_id: str,
    close_outer: bool = False,
) -> rx.Component:
    """An ``rx.alert_dialog`` asking before an irreversible act (DESISTIR, SAIR DO JOGO, ...).

    ``close_outer``: the confirm button also closes the dialog it sits in (the pause menu), so
    no dialog stays open when the match ends and the menu disappears.
    """
    action_button = rx.button(action_label, color_scheme="red", on_click=on_confirm, id=f"{dialog_id}-ok")
    action = rx.alert_dialog.action(rx.dialog.close(action_button) if close_outer else action_button)
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(trigger),
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(body),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(T["btn.cancel"], variant="soft", color_scheme="gray", id=f"{dialog_id}-cancel")
                ),
                action,
                gap="0.75em",
                justify="end",
                margin_top="1em",
            ),
            max_width="26em",
            id=dialog_id,
        ),
    )


def _pause_menu() -> rx.Component:
    """The pause menu: CONTINUAR, or SAIR DO JOGO after a confirmation (seed 000 line 72).

    Leaving the game mid-match counts as resigning; the player is then taken to the home page.
    """
    return rx.dialog.root(
        rx.dialog.trigger(
            rx.button(
                rx.icon("pause", size=14),
                T["menu.pause"],
                size="1",
                variant="soft",
                color_scheme="gray",
                id="pause-button",
            )
        ),
        rx.dialog.content(
            rx.dialog.title(T["menu.pause"]),
            rx.dialog.description(T["pause.body"], size="2"),
            rx.flex(
                _confirm(
                    rx.button(T["btn.leave_game"], color_scheme="red", variant="soft"),
                    T["confirm.leave_game.title"],
                    T["confirm.leave_game.body"],
                    T["btn.leave_game"],
                    [TableState.resign(UI.version), rx.redirect("/")],
                    dialog_id="confirm-leave-game",
                    close_outer=True,
                ),
                rx.dialog.close(rx.button(T["btn.continue"], color_scheme="amber")),
                gap="0.75em",
                justify="end",
                wrap="wrap",
                margin_top="1em",
            ),
            max_width="26em",
            id="pause-menu",
        ),
    )


def _extras() -> rx.Component:
    """DESISTIR, the pause menu, ENCERRAR POR AUSÊNCIA and SAIR DA MESA (seed 000 line 72),
    each asking for confirmation first."""
    playing = UI.is_player & ~UI.i_am_out & ~UI.match_over
    return rx.flex(
        rx.cond(
            playing,
            _confirm(
                rx.button(T["btn.resign"], size="1", color_scheme="red", variant="soft", id="resign-button"),
                T["confirm.resign.title"],
                T["confirm.resign.body"],
                T["btn.resign"],
                TableState.resign(UI.version),
                dialog_id="confirm-resign",
            ),
        ),
        rx.cond(playing, _pause_menu()),
        rx.cond(
            UI.absence_claimable & UI.is_player,
            _confirm(
                rx.button(
                    T["btn.claim_absence"], size="1", color_scheme="red", variant="solid", id="claim-button"
                ),
                T["confirm.claim.title"],
                _fill("confirm.claim.body", UI.turn_name),
                T["btn.claim_absence"],
                TableState.claim_absence(UI.version),
                dialog_id="confirm-claim",
            ),
        ),
        rx.cond(
            UI.i_am_out & ~UI.match_over,
            _confirm(
                rx.button(T["btn.leave_table"], size="1", color_scheme="gray", variant="soft"),
                T["confirm.leave_table.title"],
                T["confirm.leave_table.body"],
                T["btn.leave_table"],
                TableState.leave_table(UI.version),
                dialog_id="confirm-leave-table",
            ),
        ),
        gap="0.5em",
        justify="end",
        align="center",
        wrap="wrap",
    )


_CHAT_ERRORS = ("err.chat_too_long", "err.chat_rate_limited", "err.chat_empty", "err.spectator_cannot_chat")


def _is_chat_error(message: Any) -> Any:
    """True (client side) when the current refusal is about the chat: shown inside the chat box."""
    test = message == _CHAT_ERRORS[0]
    for key in _CHAT_ERRORS[1:]:
        test = test | (message == key)
    return test


def _chat_line(line: Any) -> rx.Component:
    """One chat line; the text is a Var rendered as a text node, never as markup (seed 000 line 74)."""
    return rx.text(
        rx.text(line.name, ": ", as_="span", weight="bold"),
        line.text,
        size="2",
        class_name="chat-line",
        style=WRAP_STYLE,
    )


def _chat() -> rx.Component:
    """Issue 4 slot: table chat; spectators read only (seed 000 line 74)."""
    return rx.vstack(
        rx.text(T["chat.title"], weight="bold", size="2"),
        rx.box(
            rx.foreach(UI.chat, _chat_line), style={"max_height": "8em", "overflow_y": "auto"}, width="100%"
        ),
        rx.cond(
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
        ),
        rx.cond(
            _is_chat_error(TableState.message),
            rx.callout(
                T[TableState.message],
                color_scheme="red",
                role="alert",
                id="chat-message",
                key=TableState.message_serial,
                size="1",
                width="100%",
                on_click=TableState.clear_message(TableState.message_serial),
                style=_message_style(),
            ),
        ),
        width="100%",
        spacing="1",
        id="chat",
        style={"background": "rgba(0,0,0,0.22)", "border_radius": "0.8em", "padding": "0.5em 0.7em"},
    )


def _meld(meld: Any) -> rx.Component:
    return rx.hstack(
        rx.foreach(meld.cards, lambda c: card_face(c, size="sm")), spacing="1", class_name="meld"
    )


def _lives_word(lives: Any) -> Any:
    """The word after a number of lives: "vida" for 1, else "vidas" (pt and es), client side."""
    return rx.cond(lives == 1, T["table.life"], T["table.lives"])


def _lives_row(seat: Any) -> rx.Component:
    return rx.hstack(
        rx.text(seat.name, weight="bold", class_name="seat-name", style={**NAME_STYLE, "width": "7em"}),
        rx.text("♥ ", seat.lives, " ", _lives_word(seat.lives)),
        rx.cond(seat.lives_lost > 0, rx.text("(−", seat.lives_lost, ")", style={"color": "#ffb4b4"})),
        rx.cond(seat.out, _badge(T["badge.out"], "red")),
        spacing="2",
        align="center",
        class_name="lives-row",
    )


def _rematch_vote(seat: Any) -> rx.Component:
    return rx.cond(
        seat.rematch,
        _badge(seat.name, "green", class_name="rematch-vote", style={**NAME_STYLE, "max_width": "12em"}),
    )


def _has_rematch_votes() -> Any:
    """True (client side) when at least one seat already agreed to a rematch."""
    return UI.seats.to_string().contains('"rematch":true')


def _rematch() -> rx.Component:
    """REVANCHE at the end of a match (seed 000 line 70): who already agreed, or why there is none."""
    return rx.cond(
        UI.rematch_offered,
        rx.vstack(
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
                _has_rematch_votes(),
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
            rx.cond(~UI.is_player, _new_table_link()),
            spacing="2",
        ),
        rx.vstack(
            rx.cond(
                UI.has_outcome,
                rx.text(
                    rx.match(
                        UI.outcome_kind,
                        ("resigned", T["rematch.none.resigned"]),
                        ("absence", T["rematch.none.absence"]),
                        ("expired", T["rematch.none.expired"]),
                        T["rematch.none.left"],
                    ),
                    size="2",
                    style={"opacity": "0.85"},
                    id="no-rematch",
                ),
            ),
            _new_table_link(),
            spacing="2",
        ),
    )


def round_over_panel() -> rx.Component:
    """FIM DA RODADA: who went out and their melds; Cacheta: lives and FORA (seed 000 line 68)."""
    banner = rx.cond(
        UI.result_out_of_turn,
        rx.callout(
            rx.cond(
                UI.mode == "pife",
                _fill("banner.louca", UI.result_winner),
                _fill("banner.jump", UI.result_winner),
            ),
            color_scheme="amber",
            id="banner",
            width="100%",
        ),
    )
    return rx.vstack(
        rx.heading(
            rx.cond(UI.match_over & ~UI.round_over, T["match.title"], T["round.title"]),
            size="6",
            id="round-title",
        ),
        banner,
        rx.cond(
            UI.has_result,
            rx.vstack(
                rx.text(
                    rx.cond(
                        UI.result_with_ten,
                        _fill("round.with_ten", UI.result_winner),
                        _fill("round.went_out", UI.result_winner),
                    ),
                    size="4",
                    weight="bold",
                    id="went-out",
                ),
                rx.cond(
                    UI.result_has_taken,
                    rx.hstack(
                        rx.text(
                            rx.cond(
                                UI.result_discarder != "",
                                _fill("round.took_card_from", UI.result_winner).replace(
                                    "{from}", UI.result_discarder
                                ),
                                _fill("round.took_card", UI.result_winner),
                            ),
                            size="2",
                        ),
                        card_face(UI.result_taken, size="sm"),
                        align="center",
                        id="taken-card",
                    ),
                ),
                rx.text(T["round.melds"], size="2"),
                rx.flex(rx.foreach(UI.result_melds, _meld), wrap="wrap", gap="0.6em", id="melds"),
                rx.cond(
                    UI.result_has_discard,
                    rx.hstack(
                        rx.text(T["round.discarded"], size="2"),
                        card_face(UI.result_discard, size="sm"),
                        align="center",
                    ),
                ),
                spacing="2",
                width="100%",
            ),
        ),
        rx.cond(
            UI.mode == "cacheta",
            rx.vstack(
                rx.text(T["round.lives"], weight="bold"),
                rx.foreach(UI.seats, _lives_row),
                spacing="1",
                id="lives",
            ),
        ),
        rx.cond(
            UI.has_outcome & (UI.outcome_winner != ""),
            rx.text(
                _fill("match.winner", UI.outcome_winner),
                size="5",
                weight="bold",
                id="winner",
                style={"color": "#ffd27f"},
            ),
        ),
        rx.cond(
            UI.has_outcome & (UI.outcome_winner == "") & UI.match_over,
            rx.text(
                rx.cond(UI.outcome_kind == "expired", T["match.expired"], T["match.no_winner"]),
                size="4",
                id="no-winner",
            ),
        ),
        rx.cond(
            UI.has_outcome & (UI.outcome_kind == "resigned"),
            rx.text(_fill("match.resigned", UI.outcome_loser), size="3", id="end-reason"),
        ),
        rx.cond(
            UI.has_outcome & (UI.outcome_kind == "absence"),
            rx.text(_fill("match.absence", UI.outcome_loser), size="3", id="end-reason"),
        ),
        rx.cond(
            UI.can_next_round,
            rx.button(
                T["btn.next_round"],
                on_click=TableState.next_round(UI.version),
                size="4",
                color_scheme="amber",
            ),
        ),
        rx.cond(UI.match_over, _rematch()),
        spacing="3",
        id="round-over",
        style={
            "padding": "1em",
            "border_radius": "1em",
            "background": "rgba(10,40,20,0.92)",
            "border": "2px solid #ffd27f",
            "width": "100%",
            "max_width": "40em",
            "margin": "0.5em auto",
        },
    )


def _message_callout() -> rx.Component:
    """The viewer's last refusal (``TableState.message``, translated), except the chat's own
    (shown in the chat box). Used by the waiting room (a refused SENTAR À MESA: bad name, no seat
    left) and by the table; only one of them is on the page, so ``#message`` stays unique.

    It floats over the top of the page (fixed, like a toast) instead of taking room above the
    hand: a refusal appearing, fading or dismissed by a tap moved the hand by its height, and
    the second tap of a double tap then discarded the card of the next row."""
    return rx.cond(
        (TableState.message != "")
        & ~_is_chat_error(TableState.message)
        & (DISMISSED.value != TableState.message_serial),
        rx.callout(
            T[TableState.message],
            color_scheme="red",
            role="alert",
            id="message",
            key=TableState.message_serial,  # a new refusal: a new element, its fade timer anew
            on_click=TableState.clear_message(TableState.message_serial),
            style=_message_style(
                **toast_style(top="3.8em", width="min(92vw, 34em)", z_index="60"),
                cursor="pointer",
                background_color="var(--red-3)",
                border="1px solid var(--red-7)",
            ),
        ),
    )


def table_board() -> rx.Component:
    """The table while a match is on (and its end screens)."""
    return rx.vstack(
        rx.hstack(
            rx.text(
                rx.cond(UI.mode == "pife", T["mode.pife"], T["mode.cacheta"]),
                " · ",
                T["table.round"],
                " ",
                UI.round_number,
                size="2",
                style={"opacity": "0.85"},
            ),
            rx.spacer(),
            _extras(),
            width="100%",
            align="center",
        ),
        rx.flex(rx.foreach(UI.seats, _seat_panel), gap="0.5em", wrap="wrap", justify="center", id="seats"),
        rx.cond(UI.round_over | UI.match_over, round_over_panel(), _centre()),
        _message_callout(),
        rx.cond(~UI.round_over & ~UI.match_over, _status_line()),
        rx.cond(
            UI.absence_claimable & UI.is_player,
            rx.callout(
                _fill("absence.hint", UI.turn_name), color_scheme="orange", size="1", id="absence-hint"
            ),
        ),
        rx.cond(UI.is_player & ~UI.i_am_out & ~UI.round_over & ~UI.match_over, _actions()),
        rx.cond(UI.is_player & (UI.hand_count > 0), _hand()),
        _chat(),
        width="100%",
        spacing="3",
        align="center",
    )


def table_page() -> rx.Component:
    """``/mesa/<code>``."""
    return page_shell(
        rx.el.style(_HIDE_KEYFRAMES),
        rx.cond(
            UI.found,
            rx.match(
                UI.status,
                ("lobby", waiting_room()),
                ("expired", expired_room()),  # never started: 7 days without activity
                table_board(),
            ),
            rx.cond(
                TableState.me == "",
                rx.center(rx.spinner(size="3"), padding="3em"),
                rx.vstack(
                    rx.text(T["table.not_found"], size="4"),
                    _new_table_link(),
                    align="center",
                    padding="3em",
                ),
            ),
        ),
    )
