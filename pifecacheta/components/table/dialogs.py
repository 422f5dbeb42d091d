"""The buttons at the top right of the table, each asking first: DESISTIR, the pause menu
(CONTINUAR / SAIR DO JOGO), ENCERRAR POR AUSÊNCIA and SAIR DA MESA (seed 000 line 72)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.notices import notice_controls
from pifecacheta.components.table.move_sound import move_sound_switch
from pifecacheta.components.table.shared import UI, T, fill
from pifecacheta.components.table_rules import table_rules
from pifecacheta.state.table import TableState


def confirm(
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

    ``trigger`` opens it; ``on_confirm`` runs on the red ``#<dialog_id>-ok`` button,
    ``#<dialog_id>-cancel`` closes it. ``close_outer``: the confirm button also closes the
    dialog it sits in (the pause menu), so no dialog stays open when the match ends and the
    menu disappears.
    """
    action_button = rx.button(action_label, color_scheme="red", on_click=on_confirm, id=f"{dialog_id}-ok")
    action = rx.alert_dialog.action(rx.dialog.close(action_button) if close_outer else action_button)
    return rx.alert_dialog.root(  # type: ignore[no-any-return]
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


def _words(words: Any) -> rx.Component:
    """A top-line button's words, left out on a phone (below Reflex's ``sm``, 48em): a 390 px
    phone's top line has room for the table's title and four icons, not for DESISTIR and Pausa
    in words beside them. The button keeps the words as its name (``aria-label``)."""
    return rx.el.span(words, style={"display": rx.breakpoints(initial="none", sm="inline")})  # type: ignore[no-any-return]


def _phone_icon(name: str) -> rx.Component:
    """The icon that stands for a top-line button's words on a phone (see :func:`_words`)."""
    return rx.el.span(  # type: ignore[no-any-return]
        rx.icon(name, size=14),
        aria_hidden="true",
        style={"display": rx.breakpoints(initial="inline-flex", sm="none")},
    )


def _top_button(icon: str, words: Any, color: str, button_id: str) -> rx.Component:
    """A small button of the table's top line that opens a confirmation (DESISTIR, SAIR DA
    MESA): its words on a wide screen, the ``icon`` on a phone (:func:`_words`), named by the
    words either way (``aria-label``, and ``title`` for a pointer's hover)."""
    return rx.button(  # type: ignore[no-any-return]
        _phone_icon(icon),
        _words(words),
        size="1",
        color_scheme=color,
        variant="soft",
        aria_label=words,
        title=words,
        id=button_id,
    )


def pause_menu() -> rx.Component:
    """The pause menu: CONTINUAR, or SAIR DO JOGO after a confirmation (seed 000 line 72).

    Leaving the game mid-match counts as resigning; the player is then taken to the home page.
    """
    return rx.dialog.root(  # type: ignore[no-any-return]
        rx.dialog.trigger(
            rx.button(
                rx.icon("pause", size=14),
                _words(T["menu.pause"]),
                size="1",
                variant="soft",
                color_scheme="gray",
                aria_label=T["menu.pause"],
                title=T["menu.pause"],
                id="pause-button",
            )
        ),
        rx.dialog.content(
            rx.dialog.title(T["menu.pause"]),
            rx.dialog.description(T["pause.body"], size="2"),
            rx.box(table_rules(), margin_top="0.8em"),  # this table's game and lives, the rules page
            # Meu acesso (continue on another device) and the your-turn notices
            rx.box(notice_controls(), move_sound_switch(), margin_top="1em"),
            rx.link(T["access.open"], href="/acesso", id="pause-access", margin_top="0.8em", display="block"),
            rx.flex(
                confirm(
                    rx.button(T["btn.leave_game"], color_scheme="red", variant="soft"),
                    T["confirm.leave_game.title"],
                    T["confirm.leave_game.body"],
                    T["btn.leave_game"],
                    [TableState.resign(UI.version), rx.redirect("/")],  # type: ignore[operator]
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


def _resign() -> rx.Component:
    """DESISTIR, after a confirmation."""
    return confirm(
        _top_button("flag", T["btn.resign"], "red", "resign-button"),
        T["confirm.resign.title"],
        T["confirm.resign.body"],
        T["btn.resign"],
        TableState.resign(UI.version),  # type: ignore[operator]
        dialog_id="confirm-resign",
    )


def _claim_absence() -> rx.Component:
    """ENCERRAR POR AUSÊNCIA (the player whose turn it is has been away), after a confirmation."""
    return confirm(
        rx.button(T["btn.claim_absence"], size="1", color_scheme="red", variant="solid", id="claim-button"),
        T["confirm.claim.title"],
        fill("confirm.claim.body", UI.turn_name),
        T["btn.claim_absence"],
        TableState.claim_absence(UI.version),  # type: ignore[operator]
        dialog_id="confirm-claim",
    )


def _leave_table() -> rx.Component:
    """SAIR DA MESA for a player who is out (FORA) while the match goes on, after a confirmation."""
    return confirm(
        _top_button("log-out", T["btn.leave_table"], "gray", "leave-table-button"),
        T["confirm.leave_table.title"],
        T["confirm.leave_table.body"],
        T["btn.leave_table"],
        TableState.leave_table(UI.version),  # type: ignore[operator]
        dialog_id="confirm-leave-table",
    )


def extras() -> rx.Component:
    """DESISTIR, the pause menu, ENCERRAR POR AUSÊNCIA and SAIR DA MESA (seed 000 line 72),
    each shown only to whom it applies and asking for confirmation first."""
    playing = UI.is_player & ~UI.i_am_out & ~UI.match_decided  # a decided match: no resigning
    return rx.flex(  # type: ignore[no-any-return]
        rx.cond(playing, _resign()),
        rx.cond(playing, pause_menu()),
        rx.cond(UI.absence_claimable & UI.is_player, _claim_absence()),
        rx.cond(UI.i_am_out & ~UI.match_over, _leave_table()),
        gap="0.5em",
        justify="end",
        align="center",
        wrap="wrap",
    )
