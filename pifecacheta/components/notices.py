"""The your-turn signal of the table page and the player's notice choices (sound, notification)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta import i18n
from pifecacheta.components.common import mounted_on_change
from pifecacheta.state.notices import REASONS, NoticeState
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState

# Reflex 0.10.1 exports its components untyped: hence the narrow ignores on component returns.


def turn_reason() -> rx.Var[str]:
    """The viewer's reason to act now, computed in the browser from its own ``TableUi``:
    "turn", "next" (PRÓXIMA RODADA), "absence" (ENCERRAR POR AUSÊNCIA) or "" (none)."""
    ui = TableState.ui
    return rx.cond(  # type: ignore[no-any-return]
        ui.my_turn,
        "turn",
        rx.cond(ui.can_next_round, "next", rx.cond(ui.absence_claimable & ui.is_player, "absence", "")),
    )


def seat_names() -> rx.Var[str]:
    """The seats' names of the viewer's ``TableUi``, joined by ", " in the browser (the empty
    seats of a waiting room give empty names, dropped by ``state/notices.table_names``)."""
    return TableState.ui.seats.map(lambda s: s.name).join(", ")  # type: ignore[no-any-return]


def table_mode() -> rx.Var[str]:
    """The table's game for the tab's title: "pife" or "cacheta"; "missing" when the page has
    no such table (the title says so); "" until the viewer is known (the page is loading)."""
    ui = TableState.ui
    return rx.cond(ui.found, ui.mode, rx.cond(TableState.me == "", "", "missing"))  # type: ignore[no-any-return]


def _signal_box(reason: str, lang: str) -> rx.Component:
    # a new game or new names (the table loaded, a seat taken): a new title
    names = seat_names()
    mode = table_mode()
    return mounted_on_change(
        NoticeState.signal(reason, mode, names),  # type: ignore[operator]
        f"turn-signal-{reason or 'none'}-{lang}",
        mode,
        names,
    )


def lobby_signal(count: rx.Var[int]) -> rx.Component:
    """The home tab's title and icon for ``count`` tables where the player may act (MINHAS
    MESAS' SUA VEZ and AUSÊNCIA rows): sent again when the count or the language changes
    (:meth:`NoticeState.lobby_signal`)."""
    return mounted_on_change(
        NoticeState.lobby_signal(count),  # type: ignore[operator]
        "lobby-signal",
        count.to_string(),
        ViewerState.language,
    )


def turn_signal() -> rx.Component:
    """One invisible box per reason to act (:func:`turn_reason`) and language: when either
    changes, its box mounts and its ``on_mount`` asks :meth:`NoticeState.signal` for the title, the
    icon, the chime and the notification of the new reason."""
    cases = [(f"{r}|{lang}", _signal_box(r, lang)) for r in (*REASONS, "") for lang in i18n.LANGUAGES]
    return rx.match(  # type: ignore[no-any-return]
        turn_reason() + "|" + ViewerState.language,  # type: ignore[operator]
        *cases,
        rx.fragment(),
    )


def notice_controls(*, heading: bool = True) -> rx.Component:
    """SOM and NOTIFICAR: two switches with their labels (off by default); a refused or missing
    Notification API is said below them. ``heading``: "Avisos da sua vez" above them (not in
    a dialog whose title says it)."""
    t = ViewerState.t
    return rx.vstack(  # type: ignore[no-any-return]
        rx.text(t["notice.heading"], weight="bold", size="3") if heading else rx.fragment(),
        _switch(NoticeState.sound_on, NoticeState.set_sound, "sound-switch", t["notice.sound"]),
        _switch(NoticeState.notify_on, NoticeState.set_notify, "notify-switch", t["notice.notify"]),
        rx.box(
            rx.cond(
                NoticeState.permission == "denied",
                rx.text(t["notice.notify_denied"], size="2", color="#ffd27f"),
            ),
            rx.cond(
                NoticeState.permission == "unsupported",
                rx.text(t["notice.notify_unsupported"], size="2", color="#ffd27f"),
            ),
            role="status",
            aria_live="polite",
        ),
        on_mount=NoticeState.check_permission,
        spacing="2",
        align="start",
        id="notice-controls",
    )


def _switch(checked: Any, on_change: Any, switch_id: str, text: Any) -> rx.Component:
    """One notice switch inside its label (a click on the words toggles it too)."""
    return rx.el.label(  # type: ignore[no-any-return]
        rx.hstack(
            rx.switch(checked=checked, on_change=on_change, id=switch_id, color_scheme="amber"),
            rx.text(text, size="2"),
            align="center",
            spacing="2",
        ),
    )


def notices_button(button_id: str, *extra: rx.Component, with_text: bool = False) -> rx.Component:
    """AVISOS DA VEZ: a bell button that opens the notice switches (:func:`notice_controls`,
    the same localStorage choices as the pause menu and Meu acesso) in a dialog, with
    ``extra`` controls under them (the table's move sounds).

    ``button_id``: the trigger's id (``#<button_id>``, its dialog ``#<button_id>-dialog``).
    ``with_text``: the words beside the bell (the lobby); else the bell alone (a phone's table
    header has no room for a word), named for screen readers and on hover. The name starts
    with the button's own words and says whether any notice is on ("Avisos da vez: ligados" /
    "desligados"): a voice-control user says what is written (WCAG 2.5.3, label in name)."""
    t = ViewerState.t
    on = NoticeState.sound_on | NoticeState.notify_on
    name = t["notice.button"] + ": " + rx.cond(on, t["notice.state_on"], t["notice.state_off"])
    icon = rx.cond(on, rx.icon("bell-ring", size=16), rx.icon("bell-off", size=16))
    trigger = (
        rx.button(
            icon,
            t["notice.button"],
            size="2",
            variant="soft",
            color_scheme="amber",
            id=button_id,
            aria_label=name,
        )
        if with_text
        else rx.icon_button(
            icon, size="1", variant="soft", color_scheme="amber", id=button_id, aria_label=name, title=name
        )
    )
    return rx.dialog.root(  # type: ignore[no-any-return]
        rx.dialog.trigger(trigger),
        rx.dialog.content(
            rx.dialog.title(t["notice.heading"]),
            rx.dialog.description(t["notice.about"], size="2"),
            rx.box(notice_controls(heading=False), *extra, margin_top="0.8em"),
            rx.flex(
                rx.dialog.close(rx.button(t["btn.continue"], color_scheme="amber", id=f"{button_id}-close")),
                justify="end",
                margin_top="1em",
            ),
            max_width="26em",
            id=f"{button_id}-dialog",
        ),
    )
